import { CHAT_LIMITS, ChannelCreateSchema, firstErrorMessage, type Channel, type ChannelType } from '@dart/contracts';
import { HttpError } from '@dart/client';
import { Alert, Button, Group, Modal, Pill, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { describeError } from '../../../lib/errors';
import { useCreateChannel } from '../api/create-channel';
import type { ChatUser } from '../api/search-users';
import { CHANNEL_TYPE_LABELS } from '../utils/channel-list';
import { playSound } from '../../../lib/sounds';
import { UserPicker, userLabel } from './user-picker';

interface NewChannelDialogProps {
  opened: boolean;
  onClose: () => void;
  myUserId: string;
  onCreated: (channel: Channel) => void;
}

const TYPE_HELP: Record<ChannelType, string> = {
  direct: 'A one-to-one chat. Pick the person to start it.',
  group: 'A named chat with several people. They are invited and join when they accept.',
  'trading group': 'A named group for negotiating trades with several counterparties.',
  broadcast: 'One-way announcements to a list of people; only you see the broadcast list.',
};

/**
 * New chat (spec §3 creation payload): direct with one user (isDistinct, so an existing direct chat
 * is reused), or group / trading group / broadcast with a name and several users. I am the operator.
 */
export function NewChannelDialog({ opened, onClose, myUserId, onCreated }: NewChannelDialogProps) {
  const [type, setType] = useState<ChannelType>('direct');
  const [name, setName] = useState('');
  const [people, setPeople] = useState<ChatUser[]>([]);
  const [error, setError] = useState<string | null>(null);
  const create = useCreateChannel();

  const reset = () => {
    setName('');
    setPeople([]);
    setError(null);
    create.reset();
  };
  const close = () => {
    reset();
    setType('direct');
    onClose();
  };

  const submit = (invited: ChatUser[]) => {
    setError(null);
    const payload = {
      isDistinct: type === 'direct',
      invitedUserIds: invited.map((user) => user.id),
      operatorUserIds: [myUserId],
      name: type === 'direct' ? '' : name,
      customType: type,
    };
    // The same schema as the server: the same messages, before any call (STYLE practice 15).
    const parsed = ChannelCreateSchema.safeParse(payload);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please check the form.');
      return;
    }
    create.mutate(payload, {
      onSuccess: (channel) => {
        playSound('success');
        onCreated(channel);
        close();
      },
      onError: (failure) => {
        setError(failure instanceof HttpError ? firstErrorMessage(failure.body) : describeError(failure));
        playSound('error');
      },
    });
  };

  const toggle = (user: ChatUser) =>
    setPeople((current) =>
      current.some((item) => item.id === user.id) ? current.filter((item) => item.id !== user.id) : [...current, user],
    );

  return (
    <Modal opened={opened} onClose={close} title="New chat" size="lg" data-testid="chat-new-dialog">
      <Stack gap="sm">
        <SegmentedControl
          fullWidth
          value={type}
          onChange={(value) => {
            setType(value as ChannelType);
            reset();
          }}
          data={(['direct', 'group', 'trading group', 'broadcast'] as const).map((value) => ({ value, label: CHANNEL_TYPE_LABELS[value] }))}
          aria-label="Chat type"
        />
        <Text size="sm" c="dimmed">
          {TYPE_HELP[type]}
        </Text>
        {error ? (
          <Alert color="red" variant="light" role="alert" py={6}>
            {error}
          </Alert>
        ) : null}
        {type === 'direct' ? (
          <UserPicker mode="single" exclude={[myUserId]} onPick={(user) => submit([user])} />
        ) : (
          <>
            <TextInput
              label="Name"
              required
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              maxLength={CHAT_LIMITS.channelNameMaxLength}
              data-testid="chat-channel-name"
            />
            {people.length > 0 ? (
              <Pill.Group aria-label="Chosen people">
                {people.map((user) => (
                  <Pill
                    key={user.id}
                    withRemoveButton
                    onRemove={() => toggle(user)}
                    removeButtonProps={{ 'aria-label': `Remove ${userLabel(user)}` }}
                  >
                    {userLabel(user)}
                  </Pill>
                ))}
              </Pill.Group>
            ) : null}
            <UserPicker mode="multiple" exclude={[myUserId]} selected={people} onPick={toggle} label="Add people" />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button onClick={() => submit(people)} loading={create.isPending} data-testid="chat-create-submit">
                Create {CHANNEL_TYPE_LABELS[type].toLowerCase()}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
