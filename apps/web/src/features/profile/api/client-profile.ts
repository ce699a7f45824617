import type { ClientProfile, ClientProfileUpdateSchema } from '@dart/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type ClientProfileUpdate = z.input<typeof ClientProfileUpdateSchema>;

/** GET /api/client/: the organisation's details (the bank account number in full to ops admins only). */
export function getClientProfile(): Promise<ClientProfile> {
  return http.get<ClientProfile>('/api/client/');
}

export const clientProfileQueryOptions = () =>
  queryOptions({ queryKey: ['client', 'profile'] as const, queryFn: getClientProfile, staleTime: 60_000 });

export function useClientProfile() {
  return useQuery(clientProfileQueryOptions());
}

/** PUT /api/client/{id}/: replaces the organisation's details (ops admins; a PUT replaces them all). */
export function updateClientProfile({ id, body }: { id: string; body: ClientProfileUpdate }): Promise<ClientProfile> {
  return http.put<ClientProfile>(`/api/client/${encodeURIComponent(id)}/`, body);
}

export function useUpdateClientProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateClientProfile,
    onSuccess: (profile) => queryClient.setQueryData(clientProfileQueryOptions().queryKey, profile),
  });
}
