import type { WhatsAppMessageList } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { whatsAppMessagesSearch, type WhatsAppMessageFilter } from '../utils/message-filter';

/** GET api/whatsapp/messages/: the own firm's bridged messages, newest first, with their status history. */
export function getWhatsAppMessages(filter: WhatsAppMessageFilter): Promise<WhatsAppMessageList> {
  return http.get<WhatsAppMessageList>(`/api/whatsapp/messages/?${whatsAppMessagesSearch(filter)}`);
}

export const whatsAppMessagesQueryOptions = (filter: WhatsAppMessageFilter) =>
  queryOptions({
    queryKey: ['whatsapp', 'messages', filter.direction, filter.page] as const,
    queryFn: () => getWhatsAppMessages(filter),
    staleTime: 5_000,
  });

/** Receipts keep coming after a message left: the log refreshes on focus and every 15 s while open. */
export function useWhatsAppMessages(filter: WhatsAppMessageFilter) {
  return useQuery({ ...whatsAppMessagesQueryOptions(filter), placeholderData: keepPreviousData, refetchInterval: 15_000 });
}
