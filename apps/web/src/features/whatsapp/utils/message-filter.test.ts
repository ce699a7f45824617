import { describe, expect, it } from 'vitest';
import { pageCount, whatsAppMessagesSearch } from './message-filter';

describe('WhatsApp message log filter', () => {
  it('sends only the direction that is set, with the page and the default page size', () => {
    expect(whatsAppMessagesSearch({ direction: null, page: 1 })).toBe('page=1&page_size=50');
    expect(whatsAppMessagesSearch({ direction: 'inbound', page: 3 })).toBe('direction=inbound&page=3&page_size=50');
  });

  it('counts pages, never fewer than one', () => {
    expect(pageCount(0, 50)).toBe(1);
    expect(pageCount(50, 50)).toBe(1);
    expect(pageCount(51, 50)).toBe(2);
  });
});
