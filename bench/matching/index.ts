/**
 * Matching benchmark (issue 5 speed bar: ≥ 10,000 quote insertions per second through the matching
 * engine). 200,000 quotes on 50 bonds around a drifting mid price from 40 firms, a tenth of them
 * private runs, two settlement dates: each insertion matches in price/time priority (partial fills,
 * same-firm and invisible quotes skipped) and rests the rest. One core, deterministic (seeded PRNG).
 * The baseline is a naive engine that scans the whole opposite side on every insertion.
 *
 * Standalone: node --import tsx bench/matching/index.ts
 */
import { performance } from 'node:perf_hooks';
import { OrderBook, mayTrade, type BookQuote } from '../../apps/server/src/modules/market/matching-engine';
import type { BenchResult } from '../types';

const QUOTES = Number(process.env.BENCH_MATCHING_QUOTES ?? 200_000);
const BONDS = 50;

function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generate(count: number): BookQuote[] {
  const random = prng(42);
  const mids = Array.from({ length: BONDS }, () => 95 + random() * 10);
  return Array.from({ length: count }, (_, i) => {
    const bond = Math.floor(random() * BONDS);
    mids[bond]! += (random() - 0.5) * 0.01;
    const side = random() < 0.5 ? 'BID' : 'ASK';
    // Bids a little under mid, asks a little over, with overlap so about a third cross.
    const offset = (random() * 0.2 - 0.07) * (side === 'BID' ? -1 : 1);
    const recipients = random() < 0.1 ? [`c${Math.floor(random() * 40)}`] : null;
    return {
      id: `q${i}`,
      clientId: `c${Math.floor(random() * 40)}`,
      side,
      price: Math.round((mids[bond]! + offset) * 10_000) / 10_000,
      remaining: 1 + Math.floor(random() * 100),
      sequence: i,
      settlementDate: random() < 0.8 ? '2026-01-02' : '2026-01-05',
      recipients,
      bond,
    } as BookQuote & { bond: number };
  });
}

/** The naive reference: scans and sorts the opposite side on every insertion. */
function naiveAdd(book: BookQuote[], incoming: BookQuote): number {
  const candidates = book
    .filter(
      (q) =>
        q.side !== incoming.side &&
        q.remaining > 0 &&
        (incoming.side === 'BID' ? incoming.price >= q.price : incoming.price <= q.price) &&
        mayTrade(incoming, q),
    )
    .sort((a, b) => (incoming.side === 'BID' ? a.price - b.price : b.price - a.price) || a.sequence - b.sequence);
  let fills = 0;
  for (const resting of candidates) {
    if (incoming.remaining === 0) break;
    const quantum = Math.min(incoming.remaining, resting.remaining);
    incoming.remaining -= quantum;
    resting.remaining -= quantum;
    fills++;
  }
  if (incoming.remaining > 0) book.push(incoming);
  return fills;
}

export async function run(): Promise<BenchResult[]> {
  const quotes = generate(QUOTES) as Array<BookQuote & { bond: number }>;
  const books = Array.from({ length: BONDS }, () => new OrderBook());
  let fills = 0;
  const start = performance.now();
  for (const quote of quotes) fills += books[quote.bond]!.add(quote).length;
  const seconds = (performance.now() - start) / 1000;
  const resting = books.reduce((n, b) => n + b.size, 0);

  // Baseline on a smaller slice (it is quadratic).
  const naiveCount = Math.min(20_000, QUOTES);
  const naiveQuotes = generate(naiveCount) as Array<BookQuote & { bond: number }>;
  const naiveBooks: BookQuote[][] = Array.from({ length: BONDS }, () => []);
  const naiveStart = performance.now();
  for (const quote of naiveQuotes) naiveAdd(naiveBooks[quote.bond]!, quote);
  const naiveSeconds = (performance.now() - naiveStart) / 1000;

  return [
    {
      name: `matching: quote insertions through the engine (${QUOTES.toLocaleString('en-IN')} quotes, ${BONDS} bonds)`,
      value: QUOTES / seconds,
      unit: 'quotes/s',
      target: 10_000,
      baseline: naiveCount / naiveSeconds,
      note: `${fills.toLocaleString('en-IN')} fills, ${resting.toLocaleString('en-IN')} resting; baseline: naive scan-and-sort on ${naiveCount.toLocaleString('en-IN')} quotes`,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('../types');
  printTable(await run());
}
