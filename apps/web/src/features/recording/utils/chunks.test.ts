import { describe, expect, it } from 'vitest';
import { splitIntoChunks } from './chunks';

const bytesOf = (events: unknown[]) => new TextEncoder().encode(JSON.stringify(events)).length;

describe('splitting recorded events into uploads', () => {
  it('keeps every upload within the byte and event limits, in order, losing nothing that fits', () => {
    const events = Array.from({ length: 250 }, (_, i) => ({ type: 3, timestamp: i, data: 'x'.repeat(i % 40) }));
    const { chunks, dropped } = splitIntoChunks(events, { maxBytes: 1_000, maxEvents: 30 });
    expect(dropped).toBe(0);
    expect(chunks.flat()).toEqual(events);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(30);
      expect(bytesOf(chunk)).toBeLessThanOrEqual(1_000);
    }
  });

  it('drops an event too large to ever be stored and keeps the rest', () => {
    const events = [
      { type: 2, timestamp: 1, data: 'y'.repeat(2_000) },
      { type: 3, timestamp: 2, data: 'ok' },
    ];
    const { chunks, dropped } = splitIntoChunks(events, { maxBytes: 1_000, maxEvents: 10 });
    expect(dropped).toBe(1);
    expect(chunks).toEqual([[events[1]]]);
  });

  it('makes no upload of nothing', () => {
    expect(splitIntoChunks([], { maxBytes: 100, maxEvents: 10 })).toEqual({ chunks: [], dropped: 0 });
  });
});
