import type { NotificationPreferences, NotificationPreferencesUpdate } from '@dart/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { NOTIFICATIONS_KEY } from './get-notifications';

const PREFERENCES_PATH = '/api/notifications/preferences/';
export const NOTIFICATION_PREFERENCES_KEY = [...NOTIFICATIONS_KEY, 'preferences'] as const;

/** GET api/notifications/preferences/: every category with its three channels and the snooze. */
export function getNotificationPreferences(): Promise<NotificationPreferences> {
  return http.get<NotificationPreferences>(PREFERENCES_PATH);
}

/** PUT api/notifications/preferences/: the named categories' channels; answers with the whole set. */
export function updateNotificationPreferences(body: NotificationPreferencesUpdate): Promise<NotificationPreferences> {
  return http.put<NotificationPreferences>(PREFERENCES_PATH, body);
}

/** POST api/notifications/snooze/: silent (no toast, sound, e-mail or SMS) for an hour from now. */
export function snoozeNotifications(): Promise<{ snoozed_until: string }> {
  return http.post<{ snoozed_until: string }>('/api/notifications/snooze/', {});
}

export const notificationPreferencesQueryOptions = () =>
  queryOptions({ queryKey: NOTIFICATION_PREFERENCES_KEY, queryFn: getNotificationPreferences });

export function useNotificationPreferences() {
  return useQuery(notificationPreferencesQueryOptions());
}

export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationPreferences,
    onSuccess: (saved) => queryClient.setQueryData(NOTIFICATION_PREFERENCES_KEY, saved),
  });
}

export function useSnoozeNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: snoozeNotifications,
    onSuccess: ({ snoozed_until }) =>
      queryClient.setQueryData<NotificationPreferences>(NOTIFICATION_PREFERENCES_KEY, (current) =>
        current ? { ...current, snoozed_until } : current,
      ),
  });
}
