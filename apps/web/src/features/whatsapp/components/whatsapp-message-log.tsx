import type { WhatsAppBridgedMessage, WhatsAppDirection } from '@dart/contracts';
import { Alert, Badge, Button, Group, Loader, Pagination, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { describeError } from '../../../lib/errors';
import { formatCount, formatDateTime } from '../../../lib/format';
import { useWhatsAppMessages } from '../api/whatsapp-messages';
import { pageCount } from '../utils/message-filter';
import { describeBody, describeStatus, formatStepTime, WHATSAPP_STATUS_COLORS, WHATSAPP_STATUS_LABELS } from '../utils/whatsapp-format';

type DirectionChoice = 'all' | WhatsAppDirection;

const DIRECTION_LABELS: Record<WhatsAppDirection, string> = { outbound: 'Sent', inbound: 'Received' };

/** A message's steps, oldest first, each with its time: queued → accepted → sent → delivered → read (or failed). */
function StatusHistory({ message }: { message: WhatsAppBridgedMessage }) {
  return (
    <Stack gap={0} data-testid="whatsapp-status-history">
      {message.status_history.map((entry, index) => (
        <Text
          key={`${entry.status}-${entry.at}-${index}`}
          size="xs"
          c={entry.status === 'failed' ? 'red' : 'dimmed'}
          style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
        >
          {describeStatus(entry.status, entry.reason)} · {formatStepTime(entry.at, message.created_at, formatDateTime)}
        </Text>
      ))}
    </Stack>
  );
}

/**
 * The firm's "WhatsApp messages" log for compliance officers and ops admins (issue 16 §2): every message that crossed
 * the WhatsApp bridge, sent or received, newest first, with its status history (sent, delivered, read, or failed with
 * the provider's reason). Numbers are masked by the server but for their last four digits.
 */
export function WhatsAppMessageLog() {
  const [direction, setDirection] = useState<DirectionChoice>('all');
  const [page, setPage] = useState(1);
  const list = useWhatsAppMessages({ direction: direction === 'all' ? null : direction, page });

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <SegmentedControl
          aria-label="Direction"
          value={direction}
          onChange={(value) => {
            setDirection(value as DirectionChoice);
            setPage(1);
          }}
          data={[
            { value: 'all', label: 'All' },
            { value: 'outbound', label: 'Sent' },
            { value: 'inbound', label: 'Received' },
          ]}
        />
        <Group gap="sm">
          {list.data ? (
            <Text size="sm" c="dimmed" data-testid="whatsapp-message-count">
              {formatCount(list.data.count)} {list.data.count === 1 ? 'message' : 'messages'}
            </Text>
          ) : null}
          <Button variant="default" size="xs" loading={list.isFetching} onClick={() => void list.refetch()}>
            Refresh
          </Button>
        </Group>
      </Group>
      {list.isPending ? <Loader size="sm" aria-label="Loading WhatsApp messages" /> : null}
      {list.error ? (
        <Alert color="red" variant="light" title="The WhatsApp messages could not be loaded">
          {describeError(list.error)}
        </Alert>
      ) : null}
      {list.data && list.data.results.length === 0 ? (
        <Text c="dimmed" data-testid="whatsapp-messages-empty">
          No WhatsApp messages yet.
        </Text>
      ) : null}
      {list.data && list.data.results.length > 0 ? (
        <Table.ScrollContainer minWidth={900}>
          <Table striped verticalSpacing="xs" aria-label="WhatsApp messages">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th>Direction</Table.Th>
                <Table.Th>User</Table.Th>
                <Table.Th>Number</Table.Th>
                <Table.Th>Message</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>History</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.results.map((message) => (
                <Table.Tr
                  key={message.id}
                  data-testid="whatsapp-message-row"
                  data-status={message.status}
                  data-direction={message.direction}
                >
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(message.created_at)}</Table.Td>
                  <Table.Td>{DIRECTION_LABELS[message.direction]}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {message.user_name ?? (
                      <Text span c="dimmed" size="sm">
                        Unknown number
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>{message.phone}</Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={3} title={message.body}>
                      {describeBody(message)}
                    </Text>
                    {message.channel_url ? (
                      <Text size="xs" c="dimmed">
                        Linked chat
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Badge
                      variant="light"
                      color={WHATSAPP_STATUS_COLORS[message.status]}
                      style={{ overflow: 'visible' }}
                      miw="max-content"
                      data-testid="whatsapp-message-status"
                    >
                      {WHATSAPP_STATUS_LABELS[message.status]}
                    </Badge>
                    {message.failure_reason ? (
                      <Text size="xs" c="red" mt={4}>
                        {message.failure_reason}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <StatusHistory message={message} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {list.data && list.data.count > list.data.page_size ? (
        <Pagination total={pageCount(list.data.count, list.data.page_size)} value={page} onChange={setPage} />
      ) : null}
    </Stack>
  );
}
