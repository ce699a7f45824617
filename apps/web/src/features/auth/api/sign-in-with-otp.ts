import type { OtpLogin } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { completeSignIn } from '../../../lib/session';

export function signInWithOtp(body: OtpLogin) {
  return api.otpLogin(body);
}

export function useSignInWithOtp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: OtpLogin) => completeSignIn(queryClient, await signInWithOtp(body)),
  });
}
