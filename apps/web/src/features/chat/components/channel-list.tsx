import { CHAT_LIMITS, type Channel } from '@dart/contracts';
import { Alert, Avatar, Badge, Button, Center, EmptyState, Group, Loader, Skeleton, Stack, Text } from '@mantine/core';
import { useRef, type KeyboardEvent } from 'react';
import { ChatIcon } from '../../../components/ui/icons';
import { PRODUCT_NAME } from '../../../config/site';
import { describeError } from '../../../lib/errors';
import { useCanWrite } from '../../../lib/session';
import { useVisibleChannelRefresh } from '../hooks/use-visible-channel-refresh';
import { channelTitle, CHANNEL_TYPE_LABELS } from '../utils/channel-list';
import { formatMessageTime, formatUnread, initials } from '../utils/chat-format';
import { DELETED_MESSAGE_TEXT, isDeletedLastMessage } from '../utils/message-actions';
import classes from './chat.module.css';

interface ChannelListProps {
  channels: Channel[];
  myUserId: string;
  selectedUrl: string | null;
  onSelect: (url: string) => void;
  isPending: boolean;
  error: unknown;
  onRetry: () => void;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => void;
}

function lastLine(channel: Channel, myUserId: string): string {
  if (channel.myMemberState === 'invited') return channel.inviter ? `Invitation from ${channel.inviter.nickname}` : 'Invitation';
  if (!channel.lastMessage) return 'No messages yet';
  const prefix = channel.lastMessage.sender === myUserId ? 'You: ' : '';
  if (isDeletedLastMessage(channel.lastMessage)) return `${prefix}${DELETED_MESSAGE_TEXT}`;
  return `${prefix}${channel.lastMessage.message}`;
}

/**
 * The channel list (spec §5): rows are buttons (Tab / arrow keys move, Enter opens), with unread
 * badges; reaching the bottom within 20 px loads the next page; visible direct channels are
 * refreshed every 10 minutes.
 */
export function ChannelList(props: ChannelListProps) {
  const { channels, myUserId, selectedUrl, onSelect } = props;
  const writable = useCanWrite();
  const scroller = useRef<HTMLDivElement>(null);
  useVisibleChannelRefresh(scroller, channels.map((channel) => channel.url).join('|'), channels.length > 0);

  const onScroll = () => {
    const el = scroller.current;
    if (!el || !props.hasNextPage || props.isFetchingNextPage) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight <= CHAT_LIMITS.scrollBottomTolerancePx) props.fetchNextPage();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const rows = [...(scroller.current?.querySelectorAll<HTMLButtonElement>('button[data-channel-url]') ?? [])];
    const index = rows.indexOf(document.activeElement as HTMLButtonElement);
    const next = rows[Math.min(rows.length - 1, Math.max(0, index + (event.key === 'ArrowDown' ? 1 : -1)))];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  };

  let body;
  if (props.isPending)
    body = (
      <Stack gap={6} p="xs" aria-label="Loading channels">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} height={40} radius="sm" />
        ))}
      </Stack>
    );
  else if (props.error)
    body = (
      <Alert color="red" variant="light" m="xs" title="Chats could not be loaded">
        <Stack gap={6}>
          <Text size="sm">{describeError(props.error)}</Text>
          <Button size="compact-sm" variant="light" color="red" onClick={props.onRetry}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  else if (channels.length === 0)
    body = (
      <EmptyState
        size="sm"
        p="md"
        icon={<ChatIcon />}
        withIndicatorBackground
        title="No conversations yet"
        description={writable ? 'Start a chat with a counterparty with New chat.' : 'Chats you are added to appear here.'}
        data-testid="chat-channels-empty"
      />
    );
  else
    body = channels.map((channel) => {
      const title = channelTitle(channel, myUserId, PRODUCT_NAME);
      const unread = channel.unreadMessageCount;
      const time = channel.myMemberState === 'invited' ? channel.invitedAt : (channel.lastMessage?.createdAt ?? channel.createdAt);
      return (
        <button
          type="button"
          key={channel.url}
          className={classes.channelItem}
          aria-current={channel.url === selectedUrl ? 'true' : undefined}
          onClick={() => onSelect(channel.url)}
          data-testid="chat-channel"
          data-channel-url={channel.url}
          data-direct={channel.customType === 'direct' ? 'true' : undefined}
          data-unread={unread}
          aria-label={`${title}${unread > 0 ? `, ${unread} unread` : ''}${channel.myMemberState === 'invited' ? ', invitation' : ''}`}
        >
          <Avatar size={32} radius="xl" color={channel.customType === 'direct' ? 'dart' : 'teal'} variant="light">
            {initials(title)}
          </Avatar>
          <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
            <Group gap={6} wrap="nowrap" justify="space-between">
              <Text size="sm" fw={unread > 0 ? 700 : 600} truncate="end" data-testid="chat-channel-title">
                {title}
              </Text>
              <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                {time ? formatMessageTime(time) : ''}
              </Text>
            </Group>
            <Group gap={6} wrap="nowrap" justify="space-between">
              <Text size="xs" c="dimmed" truncate="end">
                {channel.customType !== 'direct' ? `${CHANNEL_TYPE_LABELS[channel.customType]} · ` : ''}
                {lastLine(channel, myUserId)}
              </Text>
              {channel.myMemberState === 'invited' ? (
                <Badge size="xs" color="yellow" variant="light" style={{ flexShrink: 0 }}>
                  Invited
                </Badge>
              ) : unread > 0 ? (
                <Badge size="sm" circle={unread < 10} color="red" data-testid="chat-unread" style={{ flexShrink: 0 }}>
                  {formatUnread(unread)}
                </Badge>
              ) : null}
            </Group>
          </Stack>
        </button>
      );
    });

  return (
    <div ref={scroller} className={classes.channelScroll} onScroll={onScroll} onKeyDown={onKeyDown} role="navigation" aria-label="Chats">
      {body}
      {props.isFetchingNextPage ? (
        <Center p="xs">
          <Loader size="xs" aria-label="Loading more chats" />
        </Center>
      ) : null}
    </div>
  );
}
