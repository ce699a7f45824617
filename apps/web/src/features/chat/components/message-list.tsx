import { CHAT_LIMITS, type Channel, type ChatMessage } from '@dart/contracts';
import {
  ActionIcon,
  Alert,
  Button,
  Center,
  EmptyState,
  Group,
  Loader,
  Menu,
  Modal,
  Paper,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { ChatIcon } from '../../../components/ui/icons';
import { PRODUCT_NAME } from '../../../config/site';
import { describeError } from '../../../lib/errors';
import { useCanWrite, useSession } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { deleteChatMessage } from '../api/delete-message';
import { downloadChatFile } from '../api/download-file';
import { useMessages } from '../api/list-messages';
import { useBuzzState, useChat } from '../hooks/chat-context';
import { replaceMessage } from '../utils/chat-cache';
import { formatFileSize, formatMessageTime } from '../utils/chat-format';
import { canDeleteMessage, canEditMessage, DELETED_MESSAGE_TEXT } from '../utils/message-actions';
import { BUZZ_CUSTOM_TYPE } from '../utils/message-kinds';
import { privateRunCardOf, privateRunViewer } from '../utils/private-run';
import { cameFromWhatsApp } from '../utils/whatsapp-link';
import { playSound } from '../../../lib/sounds';
import { markChannelRead } from './chat-provider';
import { BellIcon, FileIcon, MoreIcon } from './chat-icons';
import type { ChatSlots } from './chat-slots';
import { PrivateRunCardView } from './private-run-card';
import classes from './chat.module.css';

function senderName(message: ChatMessage): string {
  if (!message.sender) return PRODUCT_NAME;
  return message.sender.is_staff ? PRODUCT_NAME : message.sender.nickname;
}

/** "Seen by …" for my latest message that someone has read, else its delivery state. */
function receiptText(channel: Channel, message: ChatMessage, myUserId: string): string {
  const others = channel.members.filter((member) => member.userId !== myUserId && member.state === 'joined');
  const readers = others.filter((member) => member.read_position >= message.position);
  if (readers.length > 0)
    return `Seen by ${readers.map((member) => (member.metaData.is_staff ? PRODUCT_NAME : member.nickname)).join(', ')}`;
  if (others.some((member) => member.delivered_position >= message.position)) return 'Delivered';
  return 'Sent';
}

function FileCard({ message }: { message: ChatMessage }) {
  const [busy, setBusy] = useState(false);
  const file = message.file;
  if (!file) return <Text size="sm">{message.message}</Text>;
  const download = async () => {
    setBusy(true);
    try {
      await downloadChatFile(file.url, file.name);
    } catch (error) {
      showToast({ summary: 'Download failed', detail: describeError(error), severity: 'error' });
      playSound('error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <UnstyledButton onClick={() => void download()} disabled={busy} aria-label={`Download ${file.name}`} data-testid="chat-file">
      <Group gap={8} wrap="nowrap">
        <FileIcon size={22} />
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} truncate="end" td="underline">
            {file.name}
          </Text>
          <Text size="xs" c="dimmed">
            {formatFileSize(file.size)}
            {busy ? ' · downloading…' : ''}
          </Text>
        </Stack>
      </Group>
    </UnstyledButton>
  );
}

/** Edit / Delete of one of my messages (a menu: Enter or Space opens it, arrows move, Escape closes). */
function MessageActions({ message, myUserId, onEdit, onDelete }: MessageActionsProps) {
  const editable = canEditMessage(message, myUserId);
  if (!editable && !canDeleteMessage(message, myUserId)) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="sm"
          className={classes.messageActions}
          aria-label="Message actions"
          data-testid="chat-message-actions"
        >
          <MoreIcon size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {editable ? <Menu.Item onClick={() => onEdit(message)}>Edit</Menu.Item> : null}
        <Menu.Item color="red" onClick={() => onDelete(message)}>
          Delete
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
interface MessageActionsProps {
  message: ChatMessage;
  myUserId: string;
  onEdit: (message: ChatMessage) => void;
  onDelete: (message: ChatMessage) => void;
}

/** Asks before deleting: the message goes for everyone (the compliance export keeps it). */
function DeleteMessageDialog({
  message,
  onClose,
  onDeleted,
}: {
  message: ChatMessage | null;
  onClose: () => void;
  onDeleted: (message: ChatMessage) => void;
}) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!message) return;
    setBusy(true);
    try {
      const stored = await deleteChatMessage(message.channelUrl, message.messageId);
      replaceMessage(queryClient, stored);
      onDeleted(stored);
      onClose();
    } catch (error) {
      showToast({ summary: 'Message not deleted', detail: describeError(error), severity: 'error' });
      playSound('error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={message !== null} onClose={onClose} title="Delete this message?" size="sm" centered>
      <Stack gap="md">
        <Text size="sm">It is removed for everyone in this chat. Compliance records keep it.</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button color="red" loading={busy} onClick={() => void confirm()} data-testid="chat-delete-confirm">
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

interface MessageListProps extends Pick<ChatSlots, 'renderQuoteAction'> {
  channel: Channel;
  /** The message the composer is editing (highlighted), if any. */
  editingId?: string | null;
  /** Starts (a message) or ends (null) editing in the composer. */
  onEdit?: (message: ChatMessage | null) => void;
}

/**
 * The messages of the open channel, oldest at the top. A new last message scrolls to the bottom and
 * is marked read (spec §4); scrolling to the top (within 20 px) loads the previous page and keeps
 * the view where it was. The channel buzzes (shakes) while its buzz is `started`. A private run shows
 * as its card (its text when the card does not parse), with the route's action for other firms.
 */
export function MessageList({ channel, editingId = null, onEdit = () => undefined, renderQuoteAction }: MessageListProps) {
  const { getClient, myUserId } = useChat();
  // View-only users (viewer, compliance) may not edit or delete, even a message sent before they became view-only.
  const writable = useCanWrite();
  const myClientId = useSession().user?.client_id ?? '';
  const [deleting, setDeleting] = useState<ChatMessage | null>(null);
  const queryClient = useQueryClient();
  const query = useMessages(channel.url);
  const buzz = useBuzzState(channel.url);
  const scroller = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const lastId = useRef<string | null>(null);

  const messages = useMemo(() => (query.data ? query.data.pages.toReversed().flatMap((page) => page.messages) : []), [query.data]);
  const latest = messages.at(-1);
  const me = myUserId ?? '';

  // Keep the reading position when older messages are prepended; go to the bottom for a new last message.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (anchor.current && !query.isFetchingNextPage && messages.length > 0) {
      el.scrollTop = el.scrollHeight - anchor.current.height + anchor.current.top;
      anchor.current = null;
    }
    if (latest && latest.messageId !== lastId.current) {
      lastId.current = latest.messageId;
      el.scrollTop = el.scrollHeight;
    }
  }, [messages.length, latest, query.isFetchingNextPage]);

  // Read up to the latest message while the channel is open and the page visible.
  const latestPosition = Math.max(latest?.position ?? 0, channel.lastPosition);
  const needsRead = channel.unreadMessageCount > 0 || (channel.members.find((m) => m.userId === me)?.read_position ?? 0) < latestPosition;
  useEffect(() => {
    if (!needsRead || channel.myMemberState !== 'joined') return undefined;
    const mark = () => {
      if (document.visibilityState === 'visible') markChannelRead(queryClient, getClient(), channel.url, latestPosition, myUserId);
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [needsRead, latestPosition, channel.url, channel.myMemberState, getClient, queryClient, myUserId]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el || !query.hasNextPage || query.isFetchingNextPage) return;
    if (el.scrollTop <= CHAT_LIMITS.scrollBottomTolerancePx) {
      anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      void query.fetchNextPage();
    }
  };

  const myLatest = messages.findLast((message) => message.sender?.userId === me && message.messageType !== 'admin');

  let body;
  if (query.isPending)
    body = (
      <Center flex={1}>
        <Loader size="sm" aria-label="Loading messages" />
      </Center>
    );
  else if (query.error)
    body = (
      <Alert color="red" variant="light" title="Messages could not be loaded">
        <Group gap="xs">
          <Text size="sm">{describeError(query.error)}</Text>
          <Button size="compact-sm" variant="light" color="red" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  else if (messages.length === 0)
    body = (
      <EmptyState
        m="auto"
        size="sm"
        icon={<ChatIcon />}
        withIndicatorBackground
        title="No messages yet"
        description={writable ? 'Say hello: your message starts the conversation.' : 'Nothing has been written here yet.'}
      />
    );
  else
    body = messages.map((message) => {
      if (message.messageType === 'admin')
        return (
          <Text key={message.messageId} className={classes.admin} data-testid="chat-admin-message">
            {message.message}
          </Text>
        );
      const mine = message.sender?.userId === me;
      const deleted = message.deletedAt !== null;
      const card = deleted ? null : privateRunCardOf(message);
      return (
        <div
          key={message.messageId}
          className={classes.row}
          data-mine={mine}
          data-testid="chat-message"
          data-position={message.position}
          data-message-type={message.messageType}
          data-deleted={deleted}
          data-editing={message.messageId === editingId}
        >
          {!mine && channel.customType !== 'direct' ? (
            <Text size="xs" c="dimmed" fw={600} px={4}>
              {senderName(message)}
            </Text>
          ) : null}
          <div className={classes.bubbleLine}>
            {mine && writable ? <MessageActions message={message} myUserId={me} onEdit={onEdit} onDelete={setDeleting} /> : null}
            <Paper className={classes.bubble} shadow="none">
              {deleted ? (
                <Text size="sm" fs="italic" c="dimmed" data-testid="chat-message-deleted">
                  {DELETED_MESSAGE_TEXT}
                </Text>
              ) : message.messageType === 'file' ? (
                <FileCard message={message} />
              ) : card ? (
                <PrivateRunCardView
                  card={card}
                  viewer={privateRunViewer(message, channel, me, myClientId)}
                  renderQuoteAction={renderQuoteAction}
                />
              ) : message.customType === BUZZ_CUSTOM_TYPE ? (
                <Group gap={6} wrap="nowrap">
                  <BellIcon size={16} />
                  <Text size="sm" fw={700}>
                    {mine ? 'You buzzed' : `${senderName(message)} buzzed`}
                  </Text>
                </Group>
              ) : (
                <span data-testid="chat-message-text">{message.message}</span>
              )}
              {message.ogMetaData && !deleted ? (
                <Paper withBorder p={6} mt={6} radius="sm">
                  <Text size="xs" fw={600}>
                    {message.ogMetaData.title}
                  </Text>
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {message.ogMetaData.description}
                  </Text>
                </Paper>
              ) : null}
            </Paper>
          </div>
          <Text size="xs" c="dimmed" px={4}>
            {formatMessageTime(message.createdAt)}
            {!deleted && cameFromWhatsApp(message) ? (
              <span data-testid="chat-message-whatsapp" title="Sent from WhatsApp">
                {' '}
                · via WhatsApp
              </span>
            ) : null}
            {message.updatedAt && !deleted ? (
              <span data-testid="chat-message-edited" title={`Edited ${formatMessageTime(message.updatedAt)}`}>
                {' '}
                (edited)
              </span>
            ) : null}
            {mine && message.messageId === myLatest?.messageId ? (
              <span data-testid="chat-receipt"> · {receiptText(channel, message, me)}</span>
            ) : null}
          </Text>
        </div>
      );
    });

  return (
    <div
      ref={scroller}
      className={classes.messages}
      onScroll={onScroll}
      data-buzz={buzz}
      data-testid="chat-messages"
      role="log"
      aria-live="polite"
      aria-label="Messages"
      tabIndex={0}
    >
      {query.isFetchingNextPage ? (
        <Center>
          <Loader size="xs" aria-label="Loading earlier messages" />
        </Center>
      ) : null}
      {body}
      <DeleteMessageDialog
        message={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(stored) => {
          if (stored.messageId === editingId) onEdit(null);
        }}
      />
    </div>
  );
}
