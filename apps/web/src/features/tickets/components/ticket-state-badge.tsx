import { Badge } from '@mantine/core';
import { TICKET_STATE_LABELS, type TicketState } from '@dart/contracts';
import { STATE_COLORS } from '../utils/ticket-format';

/** The ticket's state in the spec's words (TICKET_STATE_LABELS). */
export function TicketStateBadge({ state, size = 'sm' }: { state: TicketState; size?: 'xs' | 'sm' | 'md' }) {
  return (
    <Badge color={STATE_COLORS[state]} variant="light" radius="sm" size={size} tt="none" data-testid="ticket-state">
      {TICKET_STATE_LABELS[state]}
    </Badge>
  );
}
