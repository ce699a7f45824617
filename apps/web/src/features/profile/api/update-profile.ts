import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { setSessionUser } from '../../../lib/session';

export interface ProfileUpdate {
  first_name?: string;
  last_name?: string;
  mobile?: string;
  verification?: string;
}

/** PATCH /api/profile/: answers with the updated session user. */
export function updateProfile(body: ProfileUpdate) {
  return api.updateProfile(body);
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => setSessionUser(queryClient, user),
  });
}
