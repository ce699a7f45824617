import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** E-mails a reset link pointing at this app's reset page. */
export function requestPasswordReset(email: string) {
  return api.resetPassword(email, `${window.location.origin}/auth/reset-password`);
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
