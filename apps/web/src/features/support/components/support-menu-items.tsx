import { Badge, Menu, VisuallyHidden } from '@mantine/core';
import { HelpIcon, ListIcon } from '../../../components/ui/icons';
import { useSupportSettings } from '../api/get-support-settings';
import { useSupportUnread } from '../api/get-unread';

/**
 * The account menu's support entries: My requests with the unread-replies badge, and for Dart Support staff the
 * queue. `onNavigate` goes to the path (the menu lives in the app shell, which owns the router).
 */
export function SupportMenuItems({ onNavigate }: { onNavigate: (path: '/support/requests' | '/support/queue') => void }) {
  const unread = useSupportUnread().data?.unread ?? 0;
  const staff = useSupportSettings().data?.staff ?? false;
  return (
    <>
      <Menu.Item
        leftSection={<HelpIcon size={16} />}
        rightSection={
          unread > 0 ? (
            <Badge size="sm" color="red" circle={unread < 10} data-testid="support-unread">
              {unread > 99 ? '99+' : unread}
              <VisuallyHidden> unread {unread === 1 ? 'reply' : 'replies'}</VisuallyHidden>
            </Badge>
          ) : null
        }
        onClick={() => onNavigate('/support/requests')}
      >
        My requests
      </Menu.Item>
      {staff ? (
        <Menu.Item leftSection={<ListIcon size={16} />} onClick={() => onNavigate('/support/queue')}>
          Support queue
        </Menu.Item>
      ) : null}
    </>
  );
}
