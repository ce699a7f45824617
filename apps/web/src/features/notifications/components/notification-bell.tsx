/**
 * The header's bell (issue 15 §3): the unread count, and an inbox popover with the newest notifications (mark one
 * read by opening it, mark all read, follow its link). Live through `ws/trade/d/` (hooks/use-notification-live-updates).
 */
import type { Notification } from '@dart/contracts';
import { ActionIcon, Box, Button, Group, Indicator, Popover, ScrollArea, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Icon, type IconProps } from '../../../components/ui/icons';
import { formatDateTime } from '../../../lib/format';
import { useNotifications } from '../api/get-notifications';
import { useUnreadCount } from '../api/get-unread-count';
import { useMarkAllNotificationsRead } from '../api/mark-all-read';
import { useMarkNotificationRead } from '../api/mark-read';
import { useNotificationLiveUpdates } from '../hooks/use-notification-live-updates';

const BellIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
    <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
  </Icon>
);

function NotificationItem({ notification, onOpen }: { notification: Notification; onOpen: (notification: Notification) => void }) {
  const unread = notification.read_at === null;
  return (
    <UnstyledButton
      onClick={() => onOpen(notification)}
      px="sm"
      py={8}
      data-testid="notification-item"
      data-unread={unread || undefined}
      style={{ borderRadius: 6, background: unread ? 'var(--mantine-color-default-hover)' : undefined }}
    >
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Box
          mt={6}
          w={8}
          h={8}
          style={{ flex: 'none', borderRadius: '50%', background: unread ? 'var(--mantine-color-dart-filled)' : 'transparent' }}
          aria-hidden
        />
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text size="sm" fw={unread ? 600 : 400}>
            {notification.title}
            {unread ? <VisuallyHidden> (unread)</VisuallyHidden> : null}
          </Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {notification.body}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(notification.created_at)}
          </Text>
        </Stack>
      </Group>
    </UnstyledButton>
  );
}

/** `onNavigate` follows a notification's in-app link (the header owns the router). */
export function NotificationBell({ onNavigate }: { onNavigate: (path: string) => void }) {
  const [opened, popover] = useDisclosure(false);
  const unread = useUnreadCount().data?.unread ?? 0;
  const list = useNotifications(opened);
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  useNotificationLiveUpdates(onNavigate);

  const open = (notification: Notification) => {
    if (notification.read_at === null) markRead.mutate(notification.id);
    if (notification.link) {
      popover.close();
      onNavigate(notification.link);
    }
  };
  const results = list.data?.results ?? [];
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';

  return (
    <Popover
      opened={opened}
      onChange={(next) => (next ? popover.open() : popover.close())}
      position="bottom-end"
      width={360}
      shadow="md"
      withArrow
    >
      <Popover.Target>
        <Indicator
          label={unread > 99 ? '99+' : unread}
          disabled={unread === 0}
          size={16}
          color="red"
          offset={4}
          data-testid="notification-unread"
          data-count={unread}
        >
          <ActionIcon variant="default" size="lg" aria-label={label} onClick={popover.toggle} data-testid="notification-bell">
            <BellIcon />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown p={0} aria-label="Notifications" role="dialog">
        <Group justify="space-between" px="sm" py="xs" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
          <Text fw={600} size="sm">
            Notifications
          </Text>
          <Button size="compact-xs" variant="subtle" disabled={unread === 0} loading={markAll.isPending} onClick={() => markAll.mutate()}>
            Mark all read
          </Button>
        </Group>
        <ScrollArea.Autosize mah={420} type="auto">
          <Stack gap={2} p={4} data-testid="notification-list">
            {list.isPending ? (
              <Text size="sm" c="dimmed" p="sm">
                Loading…
              </Text>
            ) : results.length === 0 ? (
              <Text size="sm" c="dimmed" p="sm">
                You have no notifications.
              </Text>
            ) : (
              results.map((notification) => <NotificationItem key={notification.id} notification={notification} onOpen={open} />)
            )}
          </Stack>
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
