import { DISPLAY_PREFERENCES_PATH, type DisplayPreferences, type DisplayPreferencesUpdate } from '@dart/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { applyDisplayPreferences, getDisplayPreferences } from '../../../lib/display-preferences';

/** GET api/profile/display-preferences/: the caller's date format and sounds. */
export function getDisplayPreferencesFromServer(): Promise<DisplayPreferences> {
  return http.get<DisplayPreferences>(DISPLAY_PREFERENCES_PATH);
}

/** PATCH api/profile/display-preferences/: any subset; answers with the whole set. */
export function updateDisplayPreferences(body: DisplayPreferencesUpdate): Promise<DisplayPreferences> {
  return http.patch<DisplayPreferences>(DISPLAY_PREFERENCES_PATH, body);
}

/** Keyed by user, so a second user signing in on the same browser never sees the first one's answer. */
export const displayPreferencesQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['profile', 'display-preferences', userId] as const,
    queryFn: getDisplayPreferencesFromServer,
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useDisplayPreferencesQuery(userId: string | null) {
  return useQuery({ ...displayPreferencesQueryOptions(userId ?? ''), enabled: userId !== null });
}

/**
 * Applies a change at once (every date and sound follows it), saves it, and puts the previous
 * preferences back if the server refuses.
 */
export function useUpdateDisplayPreferences(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDisplayPreferences,
    onMutate: (change) => {
      const previous = getDisplayPreferences();
      applyDisplayPreferences(change);
      return { previous };
    },
    onError: (_error, _change, context) => {
      if (context) applyDisplayPreferences(context.previous);
    },
    onSuccess: (saved) => {
      applyDisplayPreferences(saved);
      queryClient.setQueryData(displayPreferencesQueryOptions(userId).queryKey, saved);
    },
  });
}
