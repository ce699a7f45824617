import type { Channel, ChatMessage } from '@dart/contracts';
import { ActionIcon, Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useEffect, useState } from 'react';
import { UsersIcon } from '../../../components/ui/icons';
import { PRODUCT_NAME } from '../../../config/site';
import { describeError } from '../../../lib/errors';
import { useCanWrite } from '../../../lib/session';
import { formatCount } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useAcceptInvitation, useDeclineInvitation } from '../api/channel-membership';
import { useChat, useTypists } from '../hooks/chat-context';
import { channelTitle, CHANNEL_TYPE_LABELS, otherMember } from '../utils/channel-list';
import { playSound } from '../../../lib/sounds';
import { ArrowLeftIcon } from './chat-icons';
import type { ChatSlots } from './chat-slots';
import { Composer } from './composer';
import { MembersDrawer } from './members-drawer';
import { MessageList } from './message-list';
import classes from './chat.module.css';

function TypingLine({ url }: { url: string }) {
  const typists = useTypists(url);
  const names = typists.map((typist) => typist.nickname);
  const text =
    names.length === 0
      ? ''
      : names.length === 1
        ? `${names[0]} is typing…`
        : names.length === 2
          ? `${names.join(' and ')} are typing…`
          : 'Several people are typing…';
  return (
    <div className={classes.typing} aria-live="polite" data-testid="chat-typing">
      {text}
    </div>
  );
}

function InvitationBanner({ channel, writable }: { channel: Channel; writable: boolean }) {
  const accept = useAcceptInvitation();
  const decline = useDeclineInvitation();
  const onError = (summary: string) => (error: unknown) => {
    showToast({ summary, detail: describeError(error), severity: 'error' });
    playSound('error');
  };
  return (
    <div className={classes.banner} data-testid="chat-invitation">
      <Stack gap={6}>
        <Text size="sm">
          <b>{channel.inviter?.nickname ?? 'Someone'}</b> invited you to{' '}
          {channel.customType === 'direct' ? 'a direct chat' : <b>{channel.name}</b>}.
        </Text>
        {writable ? (
          <Group gap="xs">
            <Button
              size="compact-sm"
              loading={accept.isPending}
              onClick={() => accept.mutate(channel.url, { onSuccess: () => playSound('success'), onError: onError('Could not accept') })}
            >
              Accept
            </Button>
            <Button
              size="compact-sm"
              variant="default"
              loading={decline.isPending}
              onClick={() => decline.mutate(channel.url, { onError: onError('Could not decline') })}
            >
              Decline
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed" data-testid="chat-view-only">
            Your account is view-only: it cannot join or decline chats.
          </Text>
        )}
      </Stack>
    </div>
  );
}

interface ConversationProps extends ChatSlots {
  channel: Channel;
  onBack?: () => void;
}

/** The open channel: header (members, type), invitation banner, messages, typing line and composer. */
export function Conversation({ channel, onBack, renderPrivateRunForm, renderQuoteAction }: ConversationProps) {
  const { myUserId, openChannel } = useChat();
  const [membersOpen, setMembersOpen] = useState(false);
  // The message being edited: chosen in the list (menu) or by Up arrow in the composer.
  const [editing, setEditing] = useState<ChatMessage | null>(null);
  const me = myUserId ?? '';
  const title = channelTitle(channel, me, PRODUCT_NAME);
  const other = channel.customType === 'direct' ? otherMember(channel, me) : undefined;
  const invited = channel.myMemberState === 'invited';
  // View-only users (viewer, compliance) read the chat; the server refuses them every chat write.
  const writable = useCanWrite();

  useEffect(() => openChannel(channel.url), [openChannel, channel.url]);

  return (
    <section
      className={classes.conversation}
      aria-label={`Chat with ${title}`}
      data-testid="chat-conversation"
      data-channel-url={channel.url}
    >
      <Group className={classes.conversationHeader} justify="space-between" wrap="nowrap" gap="xs">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          {onBack ? (
            <ActionIcon variant="subtle" aria-label="Back to chats" onClick={onBack} className={classes.back} data-testid="chat-back">
              <ArrowLeftIcon />
            </ActionIcon>
          ) : null}
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={650} size="sm" truncate="end" data-testid="chat-conversation-title">
              {title}
            </Text>
            <Text size="xs" c="dimmed" truncate="end" data-testid="chat-conversation-status">
              {other
                ? other.connectionStatus === 'online'
                  ? 'Online'
                  : 'Offline'
                : `${CHANNEL_TYPE_LABELS[channel.customType]} · ${formatCount(channel.memberCount)} members`}
            </Text>
          </Stack>
        </Group>
        <Group gap={4} wrap="nowrap">
          {channel.is_whatsapp_linked_channel ? (
            <Badge size="xs" variant="light" color="green" data-testid="chat-whatsapp-badge" title="Linked to WhatsApp">
              WhatsApp
            </Badge>
          ) : null}
          <Tooltip label="Members">
            <ActionIcon variant="subtle" aria-label="Members" onClick={() => setMembersOpen(true)} data-testid="chat-members-button">
              <UsersIcon />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {invited ? <InvitationBanner channel={channel} writable={writable} /> : null}
      <MessageList channel={channel} editingId={editing?.messageId ?? null} onEdit={setEditing} renderQuoteAction={renderQuoteAction} />
      <TypingLine url={channel.url} />
      {!writable ? (
        <Text size="sm" c="dimmed" ta="center" p="sm" className={classes.composer} data-testid="chat-view-only">
          Your account is view-only: you can read this chat but not write in it.
        </Text>
      ) : invited ? (
        <Text size="sm" c="dimmed" ta="center" p="sm" className={classes.composer}>
          Accept the invitation to reply.
        </Text>
      ) : (
        <Composer key={channel.url} channel={channel} editing={editing} onEdit={setEditing} renderPrivateRunForm={renderPrivateRunForm} />
      )}
      <MembersDrawer channel={channel} myUserId={me} opened={membersOpen} onClose={() => setMembersOpen(false)} />
    </section>
  );
}
