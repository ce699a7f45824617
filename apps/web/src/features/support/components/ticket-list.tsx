import {
  SUPPORT_REQUEST_TYPE_LABELS,
  SUPPORT_TICKET_STATUS_LABELS,
  SUPPORT_TICKET_STATUSES,
  type SupportTicketStatus,
  type SupportTicketSummary,
} from '@dart/contracts';
import {
  Alert,
  Badge,
  Button,
  Drawer,
  EmptyState,
  Group,
  Pagination,
  Paper,
  ScrollArea,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { AlertIcon, HelpIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { formatCount, formatDateTime } from '../../../lib/format';
import { useMyTickets, useSupportQueue } from '../api/get-tickets';
import { TicketConversation } from './ticket-conversation';
import { TicketStatusBadge } from './ticket-status-badge';

const PAGE_SIZE = 20;
const STATUS_FILTERS = [
  { value: '', label: 'Open work' },
  ...SUPPORT_TICKET_STATUSES.map((status) => ({ value: status, label: SUPPORT_TICKET_STATUS_LABELS[status] })),
];
const MY_STATUS_FILTERS = [{ value: '', label: 'All statuses' }, ...STATUS_FILTERS.slice(1)];

interface TicketListProps {
  /** `mine`: the caller's own tickets (My requests); `queue`: Dart Support's queue of every firm. */
  scope: 'mine' | 'queue';
  empty: { title: string; description: string };
}

/** A page of tickets with their status and replies; opening one shows the conversation in a drawer. */
export function TicketList({ scope, empty }: TicketListProps) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<SupportTicketStatus | undefined>(undefined);
  const [openId, setOpenId] = useState<string | null>(null);
  const params = { page, status };
  const mine = useMyTickets(params, scope === 'mine');
  const queue = useSupportQueue(params, scope === 'queue');
  const query = scope === 'mine' ? mine : queue;
  const staff = scope === 'queue';

  const header = (
    <Group justify="space-between" px="lg" py="md" wrap="wrap">
      <div>
        <Text fw={600}>{staff ? 'Queue' : 'Requests'}</Text>
        <Text size="sm" c="dimmed" aria-live="polite">
          {query.data ? `${formatCount(query.data.count)} ${query.data.count === 1 ? 'request' : 'requests'}` : 'Loading…'}
        </Text>
      </div>
      <Select
        aria-label="Status"
        data={staff ? STATUS_FILTERS : MY_STATUS_FILTERS}
        value={status ?? ''}
        onChange={(value) => {
          setStatus(value ? (value as SupportTicketStatus) : undefined);
          setPage(1);
        }}
        allowDeselect={false}
        w={200}
        maxDropdownHeight={180}
      />
    </Group>
  );

  let body;
  if (query.isError) {
    body = (
      <Alert color="red" variant="light" icon={<AlertIcon />} title="Could not load the requests" role="alert" m="lg">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{describeError(query.error)}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  } else if (!query.data) {
    body = (
      <Stack px="lg" pb="lg" gap="xs" aria-busy="true">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} height={28} />
        ))}
      </Stack>
    );
  } else if (query.data.results.length === 0) {
    body = <EmptyState py="xl" icon={<HelpIcon size={28} />} withIndicatorBackground title={empty.title} description={empty.description} />;
  } else {
    body = (
      <ScrollArea>
        <Table
          highlightOnHover
          verticalSpacing="sm"
          horizontalSpacing="lg"
          miw={staff ? 980 : 760}
          aria-label={staff ? 'Support queue' : 'My requests'}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Request</Table.Th>
              {staff ? <Table.Th>From</Table.Th> : null}
              <Table.Th>Type</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Replies</Table.Th>
              <Table.Th>Last activity</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {query.data.results.map((ticket: SupportTicketSummary) => (
              <Table.Tr key={ticket.id} data-testid={`ticket-row-${ticket.number}`}>
                <Table.Td>
                  <UnstyledButton onClick={() => setOpenId(ticket.id)} aria-label={`Open request #${ticket.number}`}>
                    <Text size="sm" fw={600} c="var(--mantine-primary-color-filled)">
                      #{ticket.number} {ticket.title}
                    </Text>
                  </UnstyledButton>
                </Table.Td>
                {staff ? (
                  <Table.Td>
                    <Text size="sm">{ticket.requester.name}</Text>
                    <Text size="xs" c="dimmed">
                      {ticket.requester.client_name}
                    </Text>
                  </Table.Td>
                ) : null}
                <Table.Td>{ticket.request_type ? SUPPORT_REQUEST_TYPE_LABELS[ticket.request_type] : 'Feedback'}</Table.Td>
                <Table.Td>
                  <TicketStatusBadge status={ticket.status} />
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm">{formatCount(ticket.reply_count)}</Text>
                    {ticket.unread_replies > 0 ? (
                      <Badge size="sm" color="red" tt="none" w="max-content" style={{ overflow: 'visible' }} data-testid="ticket-unread">
                        {ticket.unread_replies} new
                        <VisuallyHidden> unread {ticket.unread_replies === 1 ? 'reply' : 'replies'}</VisuallyHidden>
                      </Badge>
                    ) : null}
                  </Group>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(ticket.updated_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    );
  }

  const pages = query.data ? Math.ceil(query.data.count / PAGE_SIZE) : 0;
  return (
    <Paper withBorder radius="lg" p={0} style={{ overflow: 'hidden' }}>
      {header}
      {body}
      {pages > 1 ? (
        <Group justify="center" py="md">
          <Pagination total={pages} value={page} onChange={setPage} />
        </Group>
      ) : null}
      <Drawer
        opened={openId !== null}
        onClose={() => setOpenId(null)}
        position="right"
        size="lg"
        title={staff ? 'Support request' : 'My request'}
      >
        {openId ? <TicketConversation key={openId} ticketId={openId} staff={staff} /> : null}
      </Drawer>
    </Paper>
  );
}
