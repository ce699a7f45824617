import { Alert, Badge, Button, EmptyState, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { ChatIcon } from '../../../components/ui/icons';
import { ButtonLink } from '../../../components/ui/router-links';
import { useCanWrite } from '../../../lib/session';
import { useChannels } from '../api/list-channels';
import { isChatConnected, useChat, type ChatStatus } from '../hooks/chat-context';
import { onOpenChannelRequest, takeOpenChannelRequest } from '../hooks/open-direct-chat';
import { arrangeChannels } from '../utils/channel-list';
import { ChannelList } from './channel-list';
import { ExpandIcon, PlusIcon } from './chat-icons';
import type { ChatSlots } from './chat-slots';
import { ChatTermsGate } from './chat-terms-gate';
import { Conversation } from './conversation';
import { NewChannelDialog } from './new-channel-dialog';
import classes from './chat.module.css';

const STATUS_TEXT: Record<ChatStatus, { label: string; color: string }> = {
  idle: { label: 'Signed out', color: 'gray' },
  terms: { label: 'Terms', color: 'gray' },
  cleared: { label: 'Session ended', color: 'red' },
  connecting: { label: 'Connecting', color: 'yellow' },
  connected: { label: 'Online', color: 'teal' },
  disconnected: { label: 'Offline', color: 'red' },
  'reconnect-started': { label: 'Reconnecting', color: 'yellow' },
  'reconnect-succeeded': { label: 'Online', color: 'teal' },
  'reconnect-failed': { label: 'Reconnecting', color: 'orange' },
  stopped: { label: 'Stopped', color: 'gray' },
};

export function ChatStatusBadge() {
  const { status } = useChat();
  const { label, color } = STATUS_TEXT[status];
  return (
    <Badge size="xs" variant="dot" color={color} data-testid="chat-status" data-status={status} data-connected={isChatConnected(status)}>
      {label}
    </Badge>
  );
}

export interface ChatWorkspaceProps extends ChatSlots {
  variant: 'compact' | 'full';
}

/**
 * Channel list and conversation side by side. `compact` is the workspace panel (fixed height, with a
 * link to the full page); `full` is the /chat page. The route passes the slots (private runs).
 */
export function ChatWorkspace({ variant, renderPrivateRunForm, renderQuoteAction }: ChatWorkspaceProps) {
  const { status, myUserId } = useChat();
  // View-only users (viewer, compliance) read chats; the server refuses them every chat write.
  const writable = useCanWrite();
  const enabled = myUserId !== null && status !== 'terms' && status !== 'idle' && status !== 'cleared';
  const channels = useChannels(enabled);
  const [selectedUrl, setSelectedUrl] = useState<string | null>(null);
  const [newOpen, setNewOpen] = useState(false);
  // A chat asked for from elsewhere (Build Network): the one waiting when this view mounts, then each new one.
  useEffect(() => {
    const take = () => {
      const url = takeOpenChannelRequest();
      if (url) setSelectedUrl(url);
    };
    take();
    return onOpenChannelRequest(take);
  }, []);
  const arranged = useMemo(
    () =>
      channels.data && myUserId
        ? arrangeChannels(
            channels.data.pages.flatMap((page) => page.channels),
            myUserId,
          )
        : [],
    [channels.data, myUserId],
  );
  // Nothing is open until the user picks a chat (so unread badges mean something); when the open
  // chat leaves the list (declined, banned, left), the first remaining one is shown (spec §4).
  const selected = selectedUrl === null ? null : (arranged.find((channel) => channel.url === selectedUrl) ?? arranged[0] ?? null);
  // In a dock panel the chat fills the panel; the /chat page fills the window below the header.
  const height = variant === 'compact' ? '100%' : 'calc(100dvh - 210px)';

  if (status === 'idle')
    return (
      <EmptyState
        size="sm"
        p="lg"
        icon={<ChatIcon />}
        withIndicatorBackground
        title="Sign in to chat"
        description="Chat needs an account."
      />
    );
  if (status === 'terms') return <ChatTermsGate compact={variant === 'compact'} />;

  return (
    <Stack gap={0} style={{ height, minHeight: 360 }} className={classes.frame} data-variant={variant} data-testid={`chat-${variant}`}>
      {status === 'cleared' ? (
        <Alert color="red" variant="light" radius={0} title="Your chat session has ended">
          Sign in again to continue. Chat restarts by itself when the connection comes back.
        </Alert>
      ) : null}
      {/* Narrow (a phone, or a slim dock panel): one pane at a time, the list or the open chat (CSS container query). */}
      <div className={classes.shell} data-variant={variant} data-open={selected ? 'chat' : 'list'}>
        <div className={classes.sidebar}>
          <Group className={classes.sidebarHeader} justify="space-between" gap={4} wrap="nowrap">
            <ChatStatusBadge />
            <Group gap={4} wrap="nowrap">
              {variant === 'compact' ? (
                <Tooltip label="Open the full chat page">
                  <ButtonLink to="/chat" size="compact-xs" variant="subtle" aria-label="Open chat page" data-testid="chat-open-page" px={4}>
                    <ExpandIcon size={14} />
                  </ButtonLink>
                </Tooltip>
              ) : null}
              {writable ? (
                <Button
                  size="compact-xs"
                  leftSection={<PlusIcon size={14} />}
                  onClick={() => setNewOpen(true)}
                  disabled={!enabled}
                  data-testid="chat-new"
                >
                  New chat
                </Button>
              ) : null}
            </Group>
          </Group>
          <ChannelList
            channels={arranged}
            myUserId={myUserId ?? ''}
            selectedUrl={selected?.url ?? null}
            onSelect={setSelectedUrl}
            isPending={enabled && channels.isPending}
            error={channels.error}
            onRetry={() => void channels.refetch()}
            hasNextPage={channels.hasNextPage}
            isFetchingNextPage={channels.isFetchingNextPage}
            fetchNextPage={() => void channels.fetchNextPage()}
          />
        </div>
        {selected ? (
          <div className={classes.main}>
            <Conversation
              key={selected.url}
              channel={selected}
              onBack={() => setSelectedUrl(null)}
              renderPrivateRunForm={renderPrivateRunForm}
              renderQuoteAction={renderQuoteAction}
            />
          </div>
        ) : (
          <Stack flex={1} justify="center" align="center" p="md" className={classes.main}>
            <EmptyState
              size="sm"
              icon={<ChatIcon />}
              withIndicatorBackground
              title={channels.isPending && enabled ? 'Loading chats…' : 'No chat open'}
              description={
                <Text size="sm">
                  {writable ? 'Pick a chat on the left, or start one with New chat.' : 'Pick a chat on the left to read it.'}
                </Text>
              }
            />
          </Stack>
        )}
      </div>
      {myUserId && writable ? (
        <NewChannelDialog
          opened={newOpen}
          onClose={() => setNewOpen(false)}
          myUserId={myUserId}
          onCreated={(channel) => setSelectedUrl(channel.url)}
        />
      ) : null}
    </Stack>
  );
}
