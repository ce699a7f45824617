import type { LoginRequest } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { completeSignIn } from '../../../lib/session';

export async function signIn(credentials: LoginRequest) {
  return api.login(credentials.email, credentials.password);
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (credentials: LoginRequest) => completeSignIn(queryClient, await signIn(credentials)),
  });
}
