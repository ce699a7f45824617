import { Badge, Group, Text } from '@mantine/core';
import { UNREPORTED_STATES, deadlineState } from '../utils/ticket-format';
import { useNow } from '../../../lib/use-now';
import type { Ticket } from '@dart/contracts';

export interface ReportCountdownProps {
  ticket: Pick<Ticket, 'state' | 'report_deadline' | 'report_alert'>;
  size?: 'xs' | 'sm';
  /** Prefix the time with "Report in". */
  withLabel?: boolean;
}

/**
 * The time left to report the trade to the exchange (15 minutes from the deal), ticking each second:
 * red under 5 minutes, `Overdue` after; the system's reporting alert (10 min) and escalation (15 min)
 * as badges. Nothing once the trade is reported.
 */
export function ReportCountdown({ ticket, size = 'xs', withLabel = false }: ReportCountdownProps) {
  const now = useNow();
  if (!UNREPORTED_STATES.includes(ticket.state)) return null;
  const { label, urgent, overdue } = deadlineState(ticket.report_deadline, now);
  return (
    <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
      {ticket.report_alert ? (
        <Badge size="xs" radius="sm" variant="filled" color={ticket.report_alert === 'escalated' ? 'red' : 'orange'}>
          {ticket.report_alert === 'escalated' ? 'Escalated' : 'Alert'}
        </Badge>
      ) : null}
      <Text
        span
        size={size}
        ff="monospace"
        c={urgent ? 'red' : 'dimmed'}
        fw={urgent ? 700 : undefined}
        style={{ whiteSpace: 'nowrap' }}
        data-testid="report-countdown"
        data-urgent={urgent ? 'true' : undefined}
        title="Time left to report the trade to the exchange (15 minutes from the deal)"
        aria-label={overdue ? `Reporting ${label.toLowerCase()}` : `${label} left to report`}
      >
        {withLabel && !overdue ? `Report in ${label}` : label}
      </Text>
    </Group>
  );
}
