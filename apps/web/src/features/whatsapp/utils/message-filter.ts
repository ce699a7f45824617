import { WHATSAPP_PAGE_SIZE, type WhatsAppDirection } from '@dart/contracts';

export interface WhatsAppMessageFilter {
  /** Both directions when null. */
  direction: WhatsAppDirection | null;
  page: number;
}

/** The query string of a filter: only what is set, with the contract's default page size. */
export function whatsAppMessagesSearch({ direction, page }: WhatsAppMessageFilter): string {
  const params = new URLSearchParams();
  if (direction) params.set('direction', direction);
  params.set('page', String(page));
  params.set('page_size', String(WHATSAPP_PAGE_SIZE.default));
  return params.toString();
}

/** Pages of a list of `count` rows (at least one, so the pager never shows zero pages). */
export function pageCount(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / Math.max(1, pageSize)));
}
