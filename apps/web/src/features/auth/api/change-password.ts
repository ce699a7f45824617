import type { ChangePassword } from '@dart/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function changePassword(userId: string, body: ChangePassword) {
  return api.changePassword(userId, body);
}

export function useChangePassword(userId: string) {
  return useMutation({ mutationFn: (body: ChangePassword) => changePassword(userId, body) });
}
