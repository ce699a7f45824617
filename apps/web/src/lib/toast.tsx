/**
 * Toast groups of spec application §9: default (top-center), suprsend-notif (top-right, 20rem),
 * loader and connectivity. Each group is its own notifications store and container, so groups
 * never push each other around. Lifetime 4000 ms, paused while hovered. While a modal dialog is
 * open a group's stack moves clear of it (lib/toast-placement.ts, applied by app/toast-areas.tsx).
 *
 * Sounds (spec trading §8): an error toast plays the error sound, a success toast the success sound,
 * a toast of the notification group (a response to the user) the notification sound; info, warn,
 * loader and connectivity toasts are silent. Muted by the user's display preference.
 */
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { createNotificationsStore, notifications, type NotificationsStore } from '@mantine/notifications';
import { TOAST } from '@dart/contracts';
import { playSound, type SoundKind } from './sounds';

export type ToastGroup = keyof typeof TOAST.groups;
export type ToastSeverity = 'info' | 'success' | 'warn' | 'error';

/** The toast message of spec trading §3. */
export interface ToastMessage {
  summary: string;
  detail?: string;
  severity?: ToastSeverity;
  /** Milliseconds; `false` keeps it until closed. */
  life?: number | false;
  closable?: boolean;
  group?: ToastGroup;
  actionUrl?: string;
  actionText?: string;
  /** Runs instead of following actionUrl. */
  onAction?: () => void;
  /** Replaces a toast with the same id instead of stacking a second one. */
  id?: string;
  loading?: boolean;
  /** Overrides the sound its severity and group would play; false for none. */
  sound?: SoundKind | false;
}

export const TOAST_GROUPS = Object.keys(TOAST.groups) as ToastGroup[];

export const toastStores: Record<ToastGroup, NotificationsStore> = {
  default: createNotificationsStore(),
  'suprsend-notif': createNotificationsStore(),
  loader: createNotificationsStore(),
  connectivity: createNotificationsStore(),
};

const SEVERITY_COLOR: Record<ToastSeverity, string> = {
  info: 'dart',
  success: 'teal',
  warn: 'yellow',
  error: 'red',
};

/** The sound a toast plays unless it says otherwise (see the file comment). */
export function toastSound(group: ToastGroup, severity: ToastSeverity, loading = false): SoundKind | null {
  if (loading || group === 'connectivity') return null;
  if (severity === 'error') return 'error';
  if (severity === 'success') return 'success';
  return group === 'suprsend-notif' ? 'notification' : null;
}

export function showToast(toast: ToastMessage): string {
  const group = toast.group ?? 'default';
  const severity = toast.severity ?? 'info';
  const hasAction = Boolean(toast.actionText && (toast.actionUrl || toast.onAction));
  const message = (
    <Stack gap={6}>
      {/* Long words (an e-mail, an ISIN list) wrap: a toast narrowed beside a dialog still shows all its details. */}
      {toast.detail ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {toast.detail}
        </Text>
      ) : null}
      {hasAction ? (
        <Group gap="xs">
          {toast.onAction ? (
            <Button size="compact-sm" variant="light" onClick={toast.onAction}>
              {toast.actionText}
            </Button>
          ) : (
            <Anchor href={toast.actionUrl} size="sm">
              {toast.actionText}
            </Anchor>
          )}
        </Group>
      ) : null}
    </Stack>
  );
  const data = {
    ...(toast.id ? { id: toast.id } : {}),
    title: toast.summary,
    message: toast.detail || hasAction ? message : null,
    color: SEVERITY_COLOR[severity],
    autoClose: toast.life ?? TOAST.lifetimeMs,
    withCloseButton: toast.closable ?? true,
    loading: toast.loading ?? false,
    'data-severity': severity,
  };
  const store = toastStores[group];
  const sound = toast.sound === undefined ? toastSound(group, severity, toast.loading) : toast.sound;
  if (sound) playSound(sound);
  if (toast.id && store.getState().notifications.some((item) => item.id === toast.id)) {
    notifications.update(data, store);
    return toast.id;
  }
  return notifications.show(data, store);
}

export function hideToast(id: string, group: ToastGroup = 'default'): void {
  notifications.hide(id, toastStores[group]);
}
