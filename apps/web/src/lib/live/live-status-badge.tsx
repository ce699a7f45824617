import { Badge, Tooltip } from '@mantine/core';
import { useLiveStatus, type LiveConnectionStatus } from './live-provider';

const LABELS: Record<LiveConnectionStatus, { label: string; color: string; hint: string }> = {
  connected: { label: 'Live', color: 'teal', hint: 'Live updates are connected.' },
  connecting: { label: 'Connecting…', color: 'gray', hint: 'Opening the live-update connection.' },
  offline: {
    label: 'Offline',
    color: 'red',
    hint: 'Live updates are offline; reconnecting. Nothing is lost: missed updates arrive on reconnect.',
  },
  stopped: { label: 'Offline', color: 'red', hint: 'Live updates are stopped.' },
  idle: { label: 'Offline', color: 'gray', hint: 'Sign in to receive live updates.' },
};

/** Connected/offline state of the live-update socket. */
export function LiveStatusBadge() {
  const status = useLiveStatus();
  const { label, color, hint } = LABELS[status];
  return (
    <Tooltip label={hint} multiline w={260}>
      <Badge
        variant="dot"
        color={color}
        radius="sm"
        tabIndex={0}
        role="status"
        aria-label={`Live updates: ${label}`}
        data-testid="live-status"
        data-status={status}
      >
        {label}
      </Badge>
    </Tooltip>
  );
}
