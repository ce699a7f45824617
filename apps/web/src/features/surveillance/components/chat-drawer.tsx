import { Alert, Badge, Button, Drawer, EmptyState, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { AlertIcon, ChatIcon } from '../../../components/ui/icons';
import { PRODUCT_NAME } from '../../../config/site';
import { describeError } from '../../../lib/errors';
import { formatCount, formatDateTime } from '../../../lib/format';
import { useTranscriptExport } from '../api/export-chat';
import { useChatMessages, type SurveillanceChatMessage } from '../api/get-chat-messages';
import type { SurveillanceChat } from '../api/get-chats';
import { describePeriod, type ChatPeriod } from '../utils/chat-period';
import { chatTitle, chatTypeLabel, memberLabel } from '../utils/chat-format';
import classes from './surveillance.module.css';

export interface ChatDrawerProps {
  /** The chat read; null: closed. */
  chat: SurveillanceChat | null;
  period: ChatPeriod;
  onClose: () => void;
}

function MessageItem({ message }: { message: SurveillanceChatMessage }) {
  const sender = message.sender_name
    ? `${message.sender_name}${message.sender_staff ? ` (${PRODUCT_NAME} staff)` : message.sender_firm ? ` (${message.sender_firm})` : ''}`
    : PRODUCT_NAME;
  return (
    <Paper withBorder radius="md" p="sm" component="li" data-testid="chat-message" className={classes.message}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="baseline">
        <Text size="sm" fw={600}>
          {sender}
        </Text>
        <Text size="xs" c="dimmed" className={classes.mono}>
          #{message.position} · {formatDateTime(message.created_at)}
        </Text>
      </Group>
      {message.type === 'file' ? (
        <Text size="sm" className={classes.excerpt}>
          File: {message.file_name ?? message.text}
          {message.file_size !== null ? ` (${formatCount(message.file_size)} bytes)` : ''}
        </Text>
      ) : (
        <Text size="sm" className={classes.excerpt} fs={message.type === 'admin' ? 'italic' : undefined}>
          {message.text}
        </Text>
      )}
      {message.edits.length > 0 ? (
        <Stack gap={2} mt={4}>
          <Badge size="xs" variant="light" color="blue" radius="sm" w="fit-content">
            Edited {message.edits.length === 1 ? 'once' : `${message.edits.length} times`}
          </Badge>
          {message.edits.map((edit, index) => (
            <Text key={index} size="xs" c="dimmed" className={classes.excerpt}>
              Before the edit of {formatDateTime(edit.edited_at)}: {edit.previous_text}
            </Text>
          ))}
        </Stack>
      ) : null}
      {message.deleted_at ? (
        <Badge size="xs" variant="light" color="red" radius="sm" mt={4}>
          Deleted {formatDateTime(message.deleted_at)} (text kept for compliance)
        </Badge>
      ) : null}
    </Paper>
  );
}

/** One chat's messages in the period, oldest first, 50 at a time ("Load more"), and its transcript export. */
export function ChatDrawer({ chat, period, onClose }: ChatDrawerProps) {
  const query = useChatMessages(chat?.id ?? null, period);
  const { exportingId, exportTranscript } = useTranscriptExport(period);
  const pages = query.data?.pages ?? [];
  const messages = pages.flatMap((page) => page.results);
  const count = pages[0]?.count ?? 0;

  return (
    <Drawer
      opened={chat !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={
        <Text fw={600} component="span">
          {chat ? chatTitle(chat) : 'Chat'}
        </Text>
      }
      closeButtonProps={{ 'aria-label': 'Hide chat' }}
    >
      {chat ? (
        <Stack gap="md">
          <Stack gap={4}>
            <Group gap="xs">
              <Badge variant="light" color="gray" radius="sm" tt="none">
                {chatTypeLabel(chat.type)}
              </Badge>
              {chat.whatsapp_linked ? (
                <Badge variant="light" color="teal" radius="sm" tt="none">
                  WhatsApp linked
                </Badge>
              ) : null}
            </Group>
            <Text size="sm">
              <Text span fw={600}>
                Members:{' '}
              </Text>
              {chat.members.map((m) => memberLabel(m, PRODUCT_NAME)).join('; ') || 'none'}
            </Text>
            <Text size="sm" c="dimmed" aria-live="polite" data-testid="chat-messages-count">
              {query.data
                ? `${formatCount(count)} ${count === 1 ? 'message' : 'messages'} in ${describePeriod(period)}, oldest first`
                : `Reading ${describePeriod(period)}…`}
            </Text>
          </Stack>
          <Group gap="xs">
            <Button size="xs" onClick={() => chat && void exportTranscript(chat)} loading={exportingId !== null}>
              Export transcript
            </Button>
          </Group>
          {query.isError ? (
            <Alert color="red" variant="light" icon={<AlertIcon />} title="Could not load the messages" role="alert">
              <Stack gap="sm" align="flex-start">
                <Text size="sm">{describeError(query.error)}</Text>
                <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
                  Try again
                </Button>
              </Stack>
            </Alert>
          ) : !query.data ? (
            <Stack gap="xs" aria-busy="true">
              {Array.from({ length: 5 }, (_, index) => (
                <Skeleton key={index} height={48} />
              ))}
            </Stack>
          ) : messages.length === 0 ? (
            <EmptyState
              py="xl"
              icon={<ChatIcon size={28} />}
              withIndicatorBackground
              title="No messages in this period"
              description="Widen the period above the chat list to read more."
            />
          ) : (
            <Stack gap="xs" component="ol" className={classes.messageList} aria-label="Messages, oldest first">
              {messages.map((message) => (
                <MessageItem key={message.id} message={message} />
              ))}
            </Stack>
          )}
          {query.hasNextPage ? (
            <Button
              variant="default"
              size="xs"
              onClick={() => void query.fetchNextPage()}
              loading={query.isFetchingNextPage}
              w="fit-content"
            >
              Load more ({formatCount(count - messages.length)} left)
            </Button>
          ) : null}
        </Stack>
      ) : null}
    </Drawer>
  );
}
