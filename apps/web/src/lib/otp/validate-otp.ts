import type { ValidateOtp } from '@dart/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../api-client';

/** Checks a register / update_profile code; answers with a `verification` proof for the next call. */
export function validateOtp(body: ValidateOtp) {
  return api.validateOtp(body);
}

export function useValidateOtp() {
  return useMutation({ mutationFn: validateOtp });
}
