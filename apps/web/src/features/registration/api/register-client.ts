import type { Registration } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { completeSignIn } from '../../../lib/session';

/** Spec §4 sign-up: post the registration body, then sign in with the tokens it returns. */
export function registerClient(body: Registration) {
  return api.register(body);
}

export function useRegisterClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Registration) => completeSignIn(queryClient, await registerClient(body)),
  });
}
