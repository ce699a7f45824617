/**
 * A node's valuing code run hot before it listens (README "Speed"; app.ts, not under test, where hundreds of apps
 * start): pure CPU over the canaries (one bond of each pricing convention), no database; the last canary book of
 * each size is kept (`kept`).
 * - `warmUpValuation`: bond-math's build, price and risk paths and the per-holding arithmetic.
 * - `warmUpBooks`: a firm's book valued from the start the way a first read values it — the read's decoding
 *   (`bookPartOf`), the book keeper's load, merge and sums, and a page's answer checked against the contract — over
 *   small books of canaries, one fresh keeper a round, then a few books the size of a real one. Without it the
 *   first real book ran those loops in V8's interpreter: the node's part of a first valuation of 10,000 holdings
 *   took 144-189 ms the first time in a process against 51-85 ms later (a micro-benchmark on the inventory bench's
 *   real book parts); alternating with and without it on a quiet machine, the first time 95, 97, 84 → 70, 67, 76 ms.
 */
import { addDays, parseDate } from '@dart/bond-math';
import { collectGarbage } from '../../lib/heap';
import { createNodeBonds, type NodeBonds, type NodeBondsOptions } from './inventory.bonds';
import { createBookKeeper, type BookKeeperOptions, type BookView } from './inventory.book';
import {
  bookPartOf,
  type BondColumns,
  type BookPart,
  type BookPosition,
  type HeldReference,
  type HoldingColumns,
} from './inventory.repository';
import {
  bondValuation,
  canaryBonds,
  createBondValuer,
  inventoryAnswer,
  priceBondFigures,
  summarise,
  valuationDates,
  valuePosition,
  type ValuationDates,
  type ValuedPosition,
} from './inventory.valuation';

/** Rounds of `warmUpValuation` a node runs as it starts: ~7,000 prices and holdings. */
export const VALUATION_WARM_UP_ROUNDS = 1_000;
/** Rounds of `warmUpBooks` a node runs as it starts: 200 books of 28 holdings over the 7 canaries. */
export const BOOK_WARM_UP_ROUNDS = 200;
/** Then books the size of a real one (2,500 bonds, 5,000 holdings), read with terms and with stored figures in turn. */
export const LARGE_BOOK_WARM_UP_ROUNDS = 4;
const LARGE_BOOK_BONDS = 2_500;
/** One canary bond in this many has no reference price in a canary book (a real book has a few: not valued). */
const UNREFERENCED_EVERY = 9;

/** A holding's id as the contract wants it (a UUID), numbered. */
const warmUpId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * Each round prices the canaries at another settlement date and yield, values a holding of each from those
 * figures, and every 1,000 holdings sums them (`summarise`) and cuts a page's answer (`inventoryAnswer`: its first
 * check against the contract compiles the schema's checks). Returns the number of bonds priced.
 */
export function warmUpValuation(rounds: number): number {
  const canaries = canaryBonds();
  const start = parseDate('2026-01-05');
  let priced = 0;
  const valued: ValuedPosition[] = [];
  for (let r = 0; r < rounds; r++) {
    // Within every canary's life (the T-bill matures 2026-09-30), so every round prices all seven.
    const settlement = addDays(start, (r * 37) % 260);
    const dates: ValuationDates = { tradeDate: addDays(settlement, -1), settlement };
    const ref: HeldReference = { id: r, priceDate: '2026-01-02', yieldFraction: 0.05 + (r % 50) * 0.001, source: 'warm-up' };
    for (const [i, { bond, held }] of canaries.entries()) {
      const figures = priceBondFigures(bond, ref, settlement);
      if ('clean' in figures) priced++;
      // Half the holdings as a bond priced on the read, half as one read with its stored figures.
      const row = r % 2 === 0 ? bond : held;
      const valuation = bondValuation(row, ref, dates, figures);
      const faceValue = valuation.perBond * (1 + (r % 10));
      const position: BookPosition = {
        id: warmUpId(r * canaries.length + i),
        finstrumentId: bond.id,
        account: 'warm-up',
        faceValue,
        costPaise: faceValue * 99,
        realisedPnlPaise: 0,
        asOf: '2026-01-02',
        updatedAt: 1_767_225_600_000_000,
      };
      valued.push(valuePosition(position, row, valuation));
    }
    if (valued.length >= 1_000 || r === rounds - 1) {
      inventoryAnswer(
        { dates, valued, ...summarise(valued) },
        { page: 1, pageSize: 50, bookDate: '2026-01-02', today: '2026-01-02', confirmedAt: null },
      );
      valued.length = 0;
    }
  }
  return priced;
}

/** A morning within every canary's life. */
const WARM_UP_NOW = new Date('2026-03-02T04:30:00Z');
const ACCOUNTS = ['AFS', 'HFT', 'HTM', 'MAIN'];

/** Issuers and ratings a canary book shows in turn (`null`: none known), so its sums group as a real book's do. */
const ISSUERS = ['Canary Bank', 'Canary Finance', 'Canary Power', 'Government of India', null];
const RATINGS = ['AAA', 'AA+', 'SOVEREIGN', null];

/**
 * One part of a canary book as `bookPart` reads it (its columns, then `bookPartOf`): the canaries of the part, each
 * held in every account, read with their terms (priced on the read) or with stored figures (`stored`). As in a real
 * book, some bonds have no reference price (`unreferenced`: not valued), issuers and ratings vary or are missing,
 * and a bond's holdings come in no particular account order (the read does not sort them).
 */
function canaryPart(
  canaries: ReturnType<typeof canaryBonds>,
  ref: HeldReference,
  dates: ValuationDates,
  stored: boolean,
  firstId: number,
  accounts: readonly string[],
  unreferenced: (bondId: number) => boolean,
): BookPart {
  const holdings: HoldingColumns = [[], [], [], [], [], [], [], []];
  const bonds: BondColumns = [[], [], [], [], [], [], [], [], [], [], [], [], [], [], [], [], [], [], [], [], stored ? null : []];
  const reversed = accounts.toReversed();
  let n = firstId;
  for (const { bond, held, terms } of canaries) {
    const pick = unreferenced(held.id) ? null : ref;
    const figures = stored ? priceBondFigures(bond, pick ?? undefined, dates.settlement) : null;
    const issuer = ISSUERS[held.id % ISSUERS.length]!;
    const rating = RATINGS[held.id % RATINGS.length]!;
    const shown = [held.id, held.isin, held.displayName, issuer, rating, held.securityType, held.faceValue];
    shown.forEach((value, i) => (bonds[i] as unknown[]).push(value));
    bonds[7].push(held.maturityDate);
    bonds[8].push(held.perpetual);
    bonds[9].push(pick && pick.id);
    bonds[10].push(pick && pick.priceDate);
    bonds[11].push(pick && pick.yieldFraction);
    bonds[12].push(pick && pick.source);
    const valued = figures !== null && 'clean' in figures ? figures : null;
    bonds[13].push(valued?.clean ?? null);
    bonds[14].push(valued?.bondYield ?? null);
    bonds[15].push(valued?.modifiedDuration ?? null);
    bonds[16].push(valued?.pv01Per100 ?? null);
    bonds[17].push(valued?.faceValuePerUnit ?? null);
    bonds[18].push(valued?.accruedPer100 ?? null);
    bonds[19].push(figures !== null && 'reason' in figures ? figures.reason : null);
    bonds[20]?.push(terms);
    for (const [a, account] of (held.id % 2 === 0 ? accounts : reversed).entries()) {
      const face = 10_000_000 * (1 + a);
      const values = [warmUpId(n++), held.id, account, face, face * 99, 0, '2026-02-27', 1_772_150_400_000_000 + n];
      values.forEach((value, i) => (holdings[i] as unknown[]).push(value));
    }
  }
  return bookPartOf(holdings, bonds);
}

/**
 * The last canary book of each kind, kept for the life of the process. V8's optimised code for the book's loops
 * holds the objects' hidden classes weakly: once every canary object was garbage, the next full collection threw that
 * code away ("weak objects" in `--trace-deopt`, after a collection just before listening), and the first real book
 * was valued by the interpreter again. The two books (5,028 holdings) keep it for about 3 MB of heap.
 */
const kept: BookView[] = [];
/** The canary books the warm-up keeps: the last small one, then the last large one. */
export const keptWarmUpBooks = (): readonly BookView[] => kept;

/** One canary bond in this many is read again in a round valued from the node's figures (its inputs changed). */
const CHANGED_EVERY = 5;

/**
 * `rounds` canary books valued from the start, each by a fresh book keeper (as a node's first read of a firm), in
 * pairs: the first of a pair on a node that knows no bond (its parts read with their bonds, `bookPart`), the second
 * on that node's figures (`inventory.bonds.ts`: holdings alone, `bookHoldingsPart`), every other time after one bond
 * in `CHANGED_EVERY` changed (read again with `bookBonds`, the book's bonds sorted), the others on the node filled as
 * a starting node's (its bonds walked in book order). Every other pair reads its bonds with terms (priced on
 * the read), the others with stored figures; one bond in `UNREFERENCED_EVERY` has no reference price (another one
 * each pair). Returns the holdings valued. The books are the 7 canaries in 4 accounts, or with `large` 2,500 bonds
 * in 2 accounts: small books make the code hot, and a book the size of a real one runs its loops, merge, sort and
 * sums over thousands of elements (before it, the first real book ran them ~3 times slower than later ones;
 * inventory README "Speed").
 */
export async function warmUpBooks(rounds: number, large = false): Promise<number> {
  const canaries = canaryBonds(large ? LARGE_BOOK_BONDS : undefined);
  const accounts = large ? ACCOUNTS.slice(0, 2) : ACCOUNTS;
  const dates = valuationDates(WARM_UP_NOW);
  let holdings = 0;
  let nodeBonds: NodeBonds | undefined;
  for (let r = 0; r < rounds; r++) {
    const pair = r >> 1;
    const onNodeFigures = r % 2 === 1;
    const stored = pair % 2 === 1;
    const ref: HeldReference = { id: pair, priceDate: '2026-02-27', yieldFraction: 0.06 + (pair % 40) * 0.001, source: 'warm-up' };
    const first = r * canaries.length * accounts.length;
    const part = (of: typeof canaries, index: number) =>
      canaryPart(
        of,
        ref,
        dates,
        stored,
        first + index * canaries.length * accounts.length,
        accounts,
        (id) => (id + pair) % UNREFERENCED_EVERY === 0,
      );
    // The parts split differently each round: the book's last bond falls in either part (both ends of the merge).
    const ofPart = ([index, of]: [number, number]) => canaries.filter((c) => (c.held.id + r) % of === index);
    const repo: BookKeeperOptions['repo'] & NodeBondsOptions['repo'] = {
      bookPart: async (_client, _settlement, _method, [index, of]) => part(ofPart([index, of]), index),
      bookHoldingsPart: async (_client, [index, of]) => part(ofPart([index, of]), index).holdings,
      bookBonds: async (ids) => {
        const wanted = new Set(ids === 'held' ? canaries.map((c) => c.held.id) : ids);
        return part(
          canaries.filter((c) => wanted.has(c.held.id)),
          0,
        ).bonds;
      },
      holdingsSince: async () => [],
      bondsWithReferences: async () => [],
      inputChangesSince: async () => {
        const changed = canaries.flatMap((c) => ((c.held.id + pair) % CHANGED_EVERY === 0 ? [c.held.id] : []));
        return { complete: true, finstrumentIds: changed, latest: changed.map(() => 2) };
      },
      inputsVersion: async () => 1,
    };
    if (!onNodeFigures || !nodeBonds) nodeBonds = createNodeBonds({ repo });
    // Every other pair's second round as a started node's first read: the node filled (its bonds in book order) and
    // nothing changed since; the others after a change of some bonds, read again.
    const filled = onNodeFigures && pair % 2 === 1;
    if (filled) await nodeBonds.fill(dates, async () => undefined);
    const keeper = createBookKeeper({ repo, bonds: nodeBonds, now: () => WARM_UP_NOW, valueBondOf: createBondValuer(), limit: 1 });
    const view = await keeper.view('warm-up', undefined, { version: 1, inputs: onNodeFigures && !filled ? 2 : 1 });
    holdings += view.valued.length;
    if (r === rounds - 1) kept[large ? 1 : 0] = view;
    if (r % 20 === 0 || r === rounds - 1)
      inventoryAnswer(view, { page: 1, pageSize: 50, bookDate: '2026-02-27', today: '2026-03-02', confirmedAt: null });
  }
  return holdings;
}

/**
 * Both warm-ups, as a node runs them before it listens (~0.4 s of CPU here), after one full collection of what
 * starting left behind (`collectGarbage`: the bond import's ~300 MB after a full one, with `--expose-gc`). In this
 * order: a forced full collection after the warm-up threw much of its optimised code away (apps/server/README.md
 * "Runtime").
 */
export async function warmUpInventory(): Promise<void> {
  collectGarbage();
  warmUpValuation(VALUATION_WARM_UP_ROUNDS);
  await warmUpBooks(BOOK_WARM_UP_ROUNDS);
  await warmUpBooks(LARGE_BOOK_WARM_UP_ROUNDS, true);
}
