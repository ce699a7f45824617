import type { Channel } from '@dart/contracts';
import { ActionIcon, Avatar, Badge, Button, Divider, Drawer, Group, Indicator, Menu, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import { PRODUCT_NAME } from '../../../config/site';
import { describeError } from '../../../lib/errors';
import { useCanWrite } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { useBanMember, useInviteUsers, useLeaveChannel, useUpdateOperators } from '../api/channel-membership';
import { useLinkChannelToWhatsApp } from '../api/link-whatsapp';
import { formatCount } from '../../../lib/format';
import { initials } from '../utils/chat-format';
import { canLinkToWhatsApp } from '../utils/whatsapp-link';
import { playSound } from '../../../lib/sounds';
import { UserPicker } from './user-picker';

interface MembersDrawerProps {
  channel: Channel;
  myUserId: string;
  opened: boolean;
  onClose: () => void;
}

const failed = (summary: string) => (error: unknown) => {
  showToast({ summary, detail: describeError(error), severity: 'error' });
  playSound('error');
};

/** Members of a channel with operator management, ban, invite and leave (operators only for the first three). */
export function MembersDrawer({ channel, myUserId, opened, onClose }: MembersDrawerProps) {
  const operators = useUpdateOperators();
  const ban = useBanMember();
  const invite = useInviteUsers();
  const leave = useLeaveChannel();
  const [inviting, setInviting] = useState(false);
  // View-only users (viewer, compliance) see the members only: every change here is a write they cannot make.
  const writable = useCanWrite();
  const amOperator = writable && channel.myRole === 'operator';
  const canInvite = amOperator && channel.customType !== 'direct';
  const whatsapp = useLinkChannelToWhatsApp();
  // The answer being saved, shown at once (set in the click, so the switch never flips back while it saves).
  const [linking, setLinking] = useState<{ url: string; linked: boolean } | null>(null);

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      title={`Members · ${formatCount(channel.memberCount)}`}
      data-testid="chat-members"
    >
      <Stack gap="xs">
        {channel.members.map((member) => {
          const isMe = member.userId === myUserId;
          const name = member.metaData.is_staff ? PRODUCT_NAME : member.nickname;
          return (
            <Group
              key={member.userId}
              gap="sm"
              wrap="nowrap"
              data-testid="chat-member"
              data-user-id={member.userId}
              data-connection-status={member.connectionStatus}
            >
              <Indicator
                color={member.connectionStatus === 'online' ? 'teal' : 'gray'}
                position="bottom-end"
                size={9}
                offset={4}
                withBorder
              >
                <Avatar size={32} radius="xl" variant="light">
                  {initials(name)}
                </Avatar>
              </Indicator>
              <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                <Text size="sm" fw={600} truncate="end">
                  {name}
                  {isMe ? ' (you)' : ''}
                </Text>
                <Text size="xs" c="dimmed" truncate="end">
                  {member.metaData.brand_name}
                </Text>
              </Stack>
              {member.role === 'operator' ? (
                <Badge size="xs" variant="light">
                  Operator
                </Badge>
              ) : null}
              {member.state === 'invited' ? (
                <Badge size="xs" variant="light" color="yellow">
                  Invited
                </Badge>
              ) : null}
              {amOperator && !isMe ? (
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" aria-label={`Manage ${name}`}>
                      ⋯
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {member.role === 'operator' ? (
                      <Menu.Item
                        onClick={() =>
                          operators.mutate({ url: channel.url, remove: [member.userId] }, { onError: failed('Could not change operators') })
                        }
                      >
                        Remove as operator
                      </Menu.Item>
                    ) : (
                      <Menu.Item
                        onClick={() =>
                          operators.mutate({ url: channel.url, add: [member.userId] }, { onError: failed('Could not change operators') })
                        }
                      >
                        Make operator
                      </Menu.Item>
                    )}
                    <Menu.Item
                      color="red"
                      onClick={() =>
                        ban.mutate(
                          { url: channel.url, userId: member.userId },
                          {
                            onSuccess: () => showToast({ summary: `${name} was removed from the chat`, severity: 'success' }),
                            onError: failed('Could not remove the member'),
                          },
                        )
                      }
                    >
                      Ban from chat
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              ) : null}
            </Group>
          );
        })}
        {writable ? <Divider my="xs" /> : null}
        {canLinkToWhatsApp(channel, writable) ? (
          <Switch
            label="Link to WhatsApp"
            description="Members who agreed to WhatsApp alerts also get this chat's new messages on WhatsApp, and can reply there."
            checked={linking?.url === channel.url ? linking.linked : channel.is_whatsapp_linked_channel}
            disabled={whatsapp.isPending}
            onChange={(event) => {
              const linked = event.currentTarget.checked;
              setLinking({ url: channel.url, linked });
              whatsapp.mutate(
                { url: channel.url, linked },
                {
                  onSettled: () => setLinking(null),
                  onSuccess: () =>
                    showToast({ summary: linked ? 'Chat linked to WhatsApp' : 'Chat unlinked from WhatsApp', severity: 'success' }),
                  onError: failed('Could not change the WhatsApp link'),
                },
              );
            }}
          />
        ) : null}
        {canInvite ? (
          inviting ? (
            <UserPicker
              mode="single"
              label="Invite someone"
              exclude={channel.members.map((member) => member.userId)}
              onPick={(user) =>
                invite.mutate(
                  { url: channel.url, userIds: [user.id] },
                  {
                    onSuccess: () => {
                      showToast({ summary: `${user.nickname} was invited`, severity: 'success' });
                      playSound('success');
                      setInviting(false);
                    },
                    onError: failed('Could not invite'),
                  },
                )
              }
            />
          ) : (
            <Button variant="light" onClick={() => setInviting(true)}>
              Invite people
            </Button>
          )
        ) : null}
        {writable ? (
          <Button
            variant="subtle"
            color="red"
            loading={leave.isPending}
            onClick={() => leave.mutate(channel.url, { onSuccess: onClose, onError: failed('Could not leave the chat') })}
          >
            Leave chat
          </Button>
        ) : null}
      </Stack>
    </Drawer>
  );
}
