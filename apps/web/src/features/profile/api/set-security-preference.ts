import type { SecurityPreferenceKey } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { setSessionUser } from '../../../lib/session';

/** POST /api/chatter/user/security-preference {key, enabled}: answers with the session user. */
export function setSecurityPreference(key: SecurityPreferenceKey, enabled: boolean) {
  return api.setSecurityPreference(key, enabled);
}

export function useSetSecurityPreference() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, enabled }: { key: SecurityPreferenceKey; enabled: boolean }) => setSecurityPreference(key, enabled),
    onSuccess: (user) => setSessionUser(queryClient, user),
  });
}
