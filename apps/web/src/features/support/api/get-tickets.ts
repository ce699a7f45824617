import type { SupportTicketListSchema, SupportTicketStatus } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type SupportTicketList = z.infer<typeof SupportTicketListSchema>;

/** Every ticket query's key starts with this (lists, the badge, one ticket): a write refreshes them together. */
export const SUPPORT_TICKETS_KEY = ['support', 'tickets'] as const;
/** The prefix of the caller's own lists (every page and status). */
export const MY_TICKETS_KEY = [...SUPPORT_TICKETS_KEY, 'mine'] as const;
export interface TicketListParams {
  page: number;
  status?: SupportTicketStatus | undefined;
}

const queryString = ({ page, status }: TicketListParams) =>
  new URLSearchParams({ page: String(page), page_size: '20', ...(status ? { status } : {}) }).toString();

/** GET /ext/tickets/: the caller's own tickets, newest activity first, each with its unread replies. */
export function getMyTickets(params: TicketListParams): Promise<SupportTicketList> {
  return http.get<SupportTicketList>(`/ext/tickets/?${queryString(params)}`);
}

export const myTicketsQueryOptions = (params: TicketListParams) =>
  queryOptions({ queryKey: [...MY_TICKETS_KEY, params] as const, queryFn: () => getMyTickets(params), staleTime: 15_000 });

export function useMyTickets(params: TicketListParams, enabled = true) {
  return useQuery({ ...myTicketsQueryOptions(params), placeholderData: keepPreviousData, enabled });
}

/** GET /ext/support/queue/: Dart Support's queue of every firm (open work unless a status is given). */
export function getSupportQueue(params: TicketListParams): Promise<SupportTicketList> {
  return http.get<SupportTicketList>(`/ext/support/queue/?${queryString(params)}`);
}

export const supportQueueQueryOptions = (params: TicketListParams) =>
  queryOptions({ queryKey: [...SUPPORT_TICKETS_KEY, 'queue', params] as const, queryFn: () => getSupportQueue(params), staleTime: 15_000 });

export function useSupportQueue(params: TicketListParams, enabled = true) {
  return useQuery({ ...supportQueueQueryOptions(params), placeholderData: keepPreviousData, enabled });
}
