import type { RequestOtp } from '@dart/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../api-client';

/** Sends a one-time code (login, register, update_profile) by e-mail or SMS. */
export function requestOtp(body: RequestOtp) {
  return api.requestOtp({ client_mode: 'SOFTWARE', ...body });
}

export function useRequestOtp() {
  return useMutation({ mutationFn: requestOtp });
}
