import { SUPPORT_TICKET_STATUS_LABELS, type SupportTicketStatus } from '@dart/contracts';
import { Badge } from '@mantine/core';

const STATUS_COLORS: Record<SupportTicketStatus, string> = {
  open: 'blue',
  in_progress: 'yellow',
  waiting_on_customer: 'orange',
  resolved: 'teal',
  closed: 'gray',
};

export function TicketStatusBadge({ status }: { status: SupportTicketStatus }) {
  return (
    <Badge variant="light" color={STATUS_COLORS[status]} radius="sm" tt="none" w="max-content" data-testid="ticket-status">
      {SUPPORT_TICKET_STATUS_LABELS[status]}
    </Badge>
  );
}
