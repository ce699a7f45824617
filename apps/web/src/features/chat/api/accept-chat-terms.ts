import type { SessionUser } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { sessionQueryOptions } from '../../../lib/session';
import { CHAT_PATHS } from './chat-paths';

/** PATCH api/client/chat-terms/: records that the user accepted the chat terms (chat is blocked until then). */
export function acceptChatTerms(): Promise<unknown> {
  return http.patch(CHAT_PATHS.acceptTerms, { has_accepted_chat_terms: true });
}

export function useAcceptChatTerms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptChatTerms,
    onSuccess: () => {
      // The session user carries the flag: flip it at once (the chat provider starts), then reload it.
      queryClient.setQueryData<SessionUser | null>(sessionQueryOptions().queryKey, (user) =>
        user ? { ...user, user_info: { ...user.user_info, has_accepted_chat_terms: true } } : user,
      );
      void queryClient.invalidateQueries({ queryKey: sessionQueryOptions().queryKey });
    },
  });
}
