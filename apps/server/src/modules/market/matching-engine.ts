/**
 * The matching engine: a per-bond, per-settlement-date order book with price/time priority. Pure
 * (no I/O, no clock): the service loads the resting interest of one bond from the database under a
 * lock, rests it here, adds the incoming quote and persists the fills as clusters. The benchmark
 * drives the same class directly. Rules: modules/market/README.md.
 */

export type Side = 'BID' | 'ASK';

export interface BookQuote {
  id: string;
  clientId: string;
  side: Side;
  /** Clean price per ₹100. For one bond and one settlement date a higher price is a lower yield. */
  price: number;
  /** Units still free to match. */
  remaining: number;
  /** Time priority: smaller first (creation order). */
  sequence: number;
  settlementDate: string;
  /** Client ids that may see it (a private run); null = public. */
  recipients: readonly string[] | null;
}

export interface Fill {
  restingId: string;
  incomingId: string;
  /** The resting quote's price: the earlier interest sets the price. */
  price: number;
  quantum: number;
}

const canSee = (quote: BookQuote, clientId: string) =>
  quote.recipients === null || quote.clientId === clientId || quote.recipients.includes(clientId);

/** Two quotes may trade when both see each other and they are not of the same firm. */
export function mayTrade(a: BookQuote, b: BookQuote): boolean {
  return a.clientId !== b.clientId && a.settlementDate === b.settlementDate && canSee(a, b.clientId) && canSee(b, a.clientId);
}

/** Prices compare at 4 dp (the wire precision) so 100.1 and 100.10000001 are one level. */
const ticks = (price: number) => Math.round(price * 10_000);

/** Better-first ordering within one side: bids high→low, asks low→high, then older first. */
function better(side: Side, a: BookQuote, b: BookQuote): boolean {
  const pa = ticks(a.price);
  const pb = ticks(b.price);
  if (pa !== pb) return side === 'BID' ? pa > pb : pa < pb;
  return a.sequence < b.sequence;
}

export class OrderBook {
  private readonly bids: BookQuote[] = [];
  private readonly asks: BookQuote[] = [];

  /** Resting quotes on one side, best first. */
  levels(side: Side): readonly BookQuote[] {
    return side === 'BID' ? this.bids : this.asks;
  }

  get size(): number {
    return this.bids.length + this.asks.length;
  }

  /** Puts a quote on the book without matching (loading existing interest). */
  rest(quote: BookQuote): void {
    if (quote.remaining <= 0) return;
    const list = quote.side === 'BID' ? this.bids : this.asks;
    // Binary search for the first resting quote the new one is better than.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (better(quote.side, quote, list[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    list.splice(lo, 0, quote);
  }

  remove(id: string): boolean {
    for (const list of [this.bids, this.asks]) {
      const index = list.findIndex((q) => q.id === id);
      if (index >= 0) {
        list.splice(index, 1);
        return true;
      }
    }
    return false;
  }

  /**
   * Matches an incoming quote against the other side in price/time priority, partially filling
   * as needed, then rests what is left. Resting quotes it may not trade with (same firm, not
   * visible, other settlement date) are skipped, never filled.
   */
  add(incoming: BookQuote): Fill[] {
    const fills: Fill[] = [];
    const opposite = incoming.side === 'BID' ? this.asks : this.bids;
    const crosses = (resting: BookQuote) =>
      incoming.side === 'BID' ? ticks(incoming.price) >= ticks(resting.price) : ticks(incoming.price) <= ticks(resting.price);
    let i = 0;
    while (incoming.remaining > 0 && i < opposite.length) {
      const resting = opposite[i]!;
      if (!crosses(resting)) break;
      if (!mayTrade(incoming, resting)) {
        i++;
        continue;
      }
      const quantum = Math.min(incoming.remaining, resting.remaining);
      fills.push({ restingId: resting.id, incomingId: incoming.id, price: resting.price, quantum });
      incoming.remaining -= quantum;
      resting.remaining -= quantum;
      if (resting.remaining === 0) opposite.splice(i, 1);
    }
    this.rest(incoming);
    return fills;
  }
}
