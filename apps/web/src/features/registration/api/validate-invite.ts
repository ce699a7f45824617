import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface InviteDetails {
  token: string;
  email: string;
  clientName: string;
}

/** GET /api/invites/{token}/: 200 with the invitee's e-mail and client, or 410 when invalid. */
export async function validateInvite(token: string): Promise<InviteDetails> {
  const invite = await api.validateInvite(token);
  return { token, email: invite.email, clientName: invite.client_name };
}

export const inviteQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['invites', token] as const,
    queryFn: () => validateInvite(token),
    staleTime: 60_000,
    retry: false,
  });
