import type { SupportTicket, SupportTicketStatus } from '@dart/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { MY_TICKETS_KEY, SUPPORT_TICKETS_KEY } from './get-tickets';
import { supportUnreadQueryOptions, type SupportUnread } from './get-unread';

const ticketKey = (id: string) => [...SUPPORT_TICKETS_KEY, 'one', id] as const;

/** GET /ext/tickets/{id}/: the ticket with its description, attachments and conversation. */
export function getTicket(id: string): Promise<SupportTicket> {
  return http.get<SupportTicket>(`/ext/tickets/${encodeURIComponent(id)}/`);
}

export const ticketQueryOptions = (id: string) => queryOptions({ queryKey: ticketKey(id), queryFn: () => getTicket(id), staleTime: 5_000 });

export function useTicket(id: string) {
  return useQuery(ticketQueryOptions(id));
}

/** POST /ext/tickets/{id}/read/: the requester has seen the replies (answers the new badge). */
export function markTicketRead(id: string): Promise<SupportUnread> {
  return http.post<SupportUnread>(`/ext/tickets/${encodeURIComponent(id)}/read/`, {});
}

/** POST /ext/tickets/{id}/reply/ {body, attachment_ids}: the requester or Dart Support writes on the ticket. */
export function replyToTicket({ id, body, attachmentIds }: { id: string; body: string; attachmentIds: string[] }): Promise<SupportTicket> {
  return http.post<SupportTicket>(`/ext/tickets/${encodeURIComponent(id)}/reply/`, { body, attachment_ids: attachmentIds });
}

/** PATCH /ext/tickets/{id}/status/ {status, version}: Dart Support moves the ticket (a stale version is 409). */
export function changeTicketStatus({
  id,
  status,
  version,
}: {
  id: string;
  status: SupportTicketStatus;
  version: number;
}): Promise<SupportTicket> {
  return http.patch<SupportTicket>(`/ext/tickets/${encodeURIComponent(id)}/status/`, { status, version });
}

/** POST /ext/tickets/{id}/grant-upgrade/ {version} (ours): Dart Support moves the requester's Basic firm to Premium. */
export function grantUpgrade({ id, version }: { id: string; version: number }): Promise<SupportTicket> {
  return http.post<SupportTicket>(`/ext/tickets/${encodeURIComponent(id)}/grant-upgrade/`, { version });
}

function useTicketWrite<TInput>(write: (input: TInput) => Promise<SupportTicket>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: async (ticket) => {
      queryClient.setQueryData(ticketKey(ticket.id), ticket);
      // Lists and the badge; the ticket itself was just set from the answer.
      await queryClient.invalidateQueries({ queryKey: SUPPORT_TICKETS_KEY, predicate: (query) => query.queryKey[2] !== 'one' });
    },
  });
}

export const useReplyToTicket = () => useTicketWrite(replyToTicket);
export const useChangeTicketStatus = () => useTicketWrite(changeTicketStatus);
export const useGrantUpgrade = () => useTicketWrite(grantUpgrade);

export function useMarkTicketRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markTicketRead,
    onSuccess: async (unread) => {
      queryClient.setQueryData(supportUnreadQueryOptions().queryKey, unread);
      await queryClient.invalidateQueries({ queryKey: MY_TICKETS_KEY });
    },
  });
}
