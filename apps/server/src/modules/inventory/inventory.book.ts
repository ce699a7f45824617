/**
 * Each firm's valued book kept on this node and brought up to date by deltas (README "Speed"). A read gives the
 * firm's state as the database has it (its book version, the valuation inputs' version); the node's copy answers
 * when it has applied both and the valuation date is the same. Otherwise the node reads only what changed:
 * - the holdings stamped with a book version after its own (`holdingsSince`: a trade moves one row, an upload the
 *   rows it wrote), each re-valued and put back in place;
 * - the bonds whose valuation inputs changed after its inputs version (the change log of migration 0031: a new
 *   reference price from any writer, or a bond's terms), each read again with its reference pick and its
 *   holdings re-valued;
 * and values the whole book from the start only the first time, on a new valuation date, or when the change log
 * no longer reaches back to its version. The state is read before the changes, so a copy can be newer than the
 * version it records (and applies those rows again later, harmlessly) but never older: a stale figure is never
 * served. One refresh per firm at a time; readers that need one share it.
 */
import type {
  BondFiguresToStore,
  BookBond,
  BookPosition,
  BookRowSet,
  HeldBond,
  HeldBondInputs,
  HeldReference,
  InventoryRepository,
} from './inventory.repository';
import { compareBonds, type NodeBond, type NodeBonds } from './inventory.bonds';
import {
  formatDate,
  summarise,
  valuationMethod,
  valuationDates,
  valuePosition,
  type BondValuation,
  type BondValuer,
  type ValuationDates,
  type ValuedBook,
  type ValuedPosition,
} from './inventory.valuation';

/** What a read learnt of the firm from the database, in one statement (`bookState`). */
export interface BookState {
  /** The firm's book version (`inventory_versions`). */
  version: number;
  /** The valuation inputs' version (`valuation_input_versions`). */
  inputs: number;
}

/** A view of the book for one account filter: valued holdings in book order, with totals and breakdowns over them. */
export interface BookView extends ValuedBook {
  valued: ValuedPosition[];
  /** Wire answers cut from this view (JSON in UTF-8, by page and book-row facts), gone with the view at the next change. */
  answers: Map<string, Buffer>;
}

interface BondInputs {
  /** The bond as read (without its terms when it came with stored figures). */
  bond: HeldBond;
  ref: HeldReference | undefined;
  /** Its valuation for the book's dates, of `bond` and `ref` as they are here: what its holdings are valued from. */
  valuation: BondValuation;
  /** Its holdings in the book, by account. */
  holdings: Holding[];
}
interface Holding {
  position: BookPosition;
  inputs: BondInputs;
  valued: ValuedPosition;
}
interface FirmBook {
  version: number;
  inputs: number;
  dates: ValuationDates;
  bonds: Map<number, BondInputs>;
  /** Every holding in book order (maturity, ISIN, account): pages are cut from it, never sorted per request. */
  sorted: Holding[];
  /** Views per account filter ('' = all), valid until the next change. */
  views: Map<string, BookView>;
}

/** Book order: maturity date (perpetuals and unknown last), ISIN, account. */
function compare(a: Holding, b: Holding): number {
  const byBond = a.inputs === b.inputs ? 0 : compareBonds(a.inputs.bond, b.inputs.bond);
  if (byBond !== 0) return byBond;
  const aa = a.position.account;
  const ab = b.position.account;
  return aa === ab ? 0 : aa < ab ? -1 : 1;
}

/** The first index whose holding is not before `h` (a holding's key, bond × account, is unique in a book). */
function lowerBound(sorted: Holding[], h: Holding): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(sorted[mid]!, h) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
const insertSorted = (sorted: Holding[], h: Holding) => sorted.splice(lowerBound(sorted, h), 0, h);
function removeSorted(sorted: Holding[], h: Holding): void {
  const at = lowerBound(sorted, h);
  if (sorted[at] === h) sorted.splice(at, 1);
  else {
    // Not where its key says (cannot happen while keys only change through reposition): find it by identity.
    const i = sorted.indexOf(h);
    if (i >= 0) sorted.splice(i, 1);
  }
}

/**
 * Parts a book valued from the start is read in, side by side (`bookPart`, split by bond id): PostgreSQL's part of
 * a first valuation (the bonds' joins and the JSON) runs on both cores, and the node values the part that came
 * first while the other is read. (Four parts, two at a time on two connections, measured no better: round 4.)
 */
const BOOK_PARTS = 2;

/**
 * How many of the node's bonds per bond of a book a walk of the node's book order may visit (`inNodeOrder`) before
 * sorting the book's bonds is the cheaper way: a sort of n bonds makes about log2(n) comparisons per bond.
 */
const WALK_OVER_SORT = 8;

/** Bonds a node lacks of a book from which they are read in `BOOK_PARTS` parts side by side rather than in one. */
const MISSING_IN_PARTS = 500;

/** The holding of `holdings` (one bond's, in account order) with this id, if any. */
const holdingOf = (holdings: Holding[], id: string) => holdings.find((h) => h.position.id === id);
/** Puts `h` among its bond's holdings in account order (a bond is held in a few accounts: a short scan). */
function addToBond(holdings: Holding[], h: Holding): void {
  let at = holdings.length;
  while (at > 0 && holdings[at - 1]!.position.account > h.position.account) at--;
  if (at === holdings.length) holdings.push(h);
  else holdings.splice(at, 0, h);
}

/**
 * One list of bonds in book order from lists each in book order (`bookPart` sorts each part): a merge. A list not
 * in order (a database that did not keep the order asked for) is sorted first, so the book's order never depends
 * on it.
 */
function mergeBonds(lists: BondInputs[][]): BondInputs[] {
  const cmp = (a: BondInputs, b: BondInputs) => compareBonds(a.bond, b.bond);
  let merged: BondInputs[] = [];
  for (const list of lists) {
    for (let i = 1; i < list.length; i++)
      if (cmp(list[i - 1]!, list[i]!) > 0) {
        list.sort(cmp);
        break;
      }
    const out: BondInputs[] = [];
    let a = 0;
    let b = 0;
    while (a < merged.length && b < list.length) out.push(cmp(merged[a]!, list[b]!) <= 0 ? merged[a++]! : list[b++]!);
    while (a < merged.length) out.push(merged[a++]!);
    while (b < list.length) out.push(list[b++]!);
    merged = out;
  }
  return merged;
}

const sameDates = (a: ValuationDates, b: ValuationDates) => a.tradeDate === b.tradeDate && a.settlement === b.settlement;

export interface BookKeeperOptions {
  repo: Pick<
    InventoryRepository,
    'bookPart' | 'bookHoldingsPart' | 'bookBonds' | 'holdingsSince' | 'bondsWithReferences' | 'inputChangesSince'
  >;
  /** The node's bond figures, shared by its books (`inventory.bonds.ts`). */
  bonds: NodeBonds;
  now: () => Date;
  valueBondOf: BondValuer;
  /** Firms kept per node; the least recently read goes first. */
  limit: number;
  /** Bonds this node priced while valuing a book from the start (no valid stored figures): stored for other nodes, not awaited. */
  store?: (rows: BondFiguresToStore[], settlement: string, inputsVersion: number) => void;
}

export function createBookKeeper(options: BookKeeperOptions) {
  const { repo, valueBondOf, bonds: nodeBonds } = options;
  const books = new Map<string, FirmBook>();
  const refreshing = new Map<string, Promise<FirmBook>>();

  const value = (position: BookPosition, inputs: BondInputs) => valuePosition(position, inputs.bond, inputs.valuation);

  function addHolding(book: FirmBook, position: BookPosition, inputs: BondInputs): void {
    const h: Holding = { position, inputs, valued: value(position, inputs) };
    addToBond(inputs.holdings, h);
    insertSorted(book.sorted, h);
  }
  function dropHolding(book: FirmBook, h: Holding): void {
    removeSorted(book.sorted, h);
    const at = h.inputs.holdings.indexOf(h);
    if (at >= 0) h.inputs.holdings.splice(at, 1);
    if (h.inputs.holdings.length === 0) book.bonds.delete(h.inputs.bond.id);
  }
  /** The bond's inputs in the book, taken from a row read now when the book does not hold the bond yet. */
  function inputsOf(book: FirmBook, bond: BookBond, ref: HeldReference | null): BondInputs {
    let inputs = book.bonds.get(bond.id);
    if (!inputs) {
      const valuation = valueBondOf(bond, ref ?? undefined, book.dates);
      book.bonds.set(bond.id, (inputs = { bond, ref: ref ?? undefined, valuation, holdings: [] }));
    }
    return inputs;
  }

  /**
   * The book's bonds in book order by a walk of the node's bonds in that order (`inBookOrder`: as the start's fill
   * sorted them, when nothing changed since), instead of a sort: undefined when the node has no such order, when it
   * holds many more bonds than the book (a sort is then cheaper), or when the walk does not give every bond of the
   * book in order (one dropped or changed meanwhile).
   */
  function inNodeOrder(book: FirmBook): BondInputs[] | undefined {
    const order = nodeBonds.inBookOrder();
    if (!order || order.length > book.bonds.size * WALK_OVER_SORT) return undefined;
    const out: BondInputs[] = [];
    for (const node of order) {
      const inputs = book.bonds.get(node.bond.id);
      if (inputs) out.push(inputs);
    }
    if (out.length !== book.bonds.size) return undefined;
    for (let i = 1; i < out.length; i++) if (compareBonds(out[i - 1]!.bond, out[i]!.bond) > 0) return undefined;
    return out;
  }

  /** A firm's inputs of a bond from the node's (its own copy: a refresh changes it for this firm alone). */
  const inputsFrom = (node: NodeBond): BondInputs => ({ bond: node.bond, ref: node.ref, valuation: node.valuation, holdings: [] });

  /**
   * The firm's book valued from the start. Its bonds' figures come from the node's (`inventory.bonds.ts`, brought
   * to the inputs' version of `state` first): when the node has some, only the holdings are read, in `BOOK_PARTS`
   * parts side by side (`bookHoldingsPart`), then the bonds the node lacks (`bookBonds`, none on a warm node).
   * When it has none, each part is read with its bonds (`bookPart`: its holdings and their bonds with their
   * reference picks and the stored figures still valid for them, migration 0032), each valued as it comes while
   * the others are read. Either way a bond another node (or the elected node's pass) valued for the same inputs is
   * not priced again; the bonds priced here are handed to `store` with the inputs' version read before them. Every
   * read is taken after `state` was, so each holding and bond is at least as new as `state` (as a delta's rows are).
   */
  async function load(state: BookState, dates: ValuationDates, clientId: string): Promise<FirmBook> {
    const book: FirmBook = { ...state, dates, bonds: new Map(), sorted: [], views: new Map() };
    const settlement = formatDate(dates.settlement);
    const method = valuationMethod();
    const priced: BondFiguresToStore[] = [];
    const known = await nodeBonds.current(dates, method, state.inputs);
    const add = (position: BookPosition, inputs: BondInputs) =>
      addToBond(inputs.holdings, { position, inputs, valued: value(position, inputs) });
    const takeBonds = (read: readonly HeldBondInputs[]): BondInputs[] =>
      nodeBonds.take(dates, method, state.inputs, read, priced).map((node) => {
        const inputs = inputsFrom(node);
        book.bonds.set(node.bond.id, inputs);
        return inputs;
      });
    const inputsOfHolding = (position: BookPosition) => {
      const inputs = book.bonds.get(position.finstrumentId);
      // Read after its holding, at the same version or later: a bond neither read nor known is a broken read.
      if (!inputs) throw new Error(`inventory: bond ${position.finstrumentId} of holding ${position.id} was not read`);
      return inputs;
    };
    const partsOf = <T>(read: (part: [number, number]) => Promise<T>) =>
      Promise.all(Array.from({ length: BOOK_PARTS }, (_, i) => read([i, BOOK_PARTS])));

    let bonds: BondInputs[];
    if (known.size === 0) {
      // Book order (as `compare`): the parts' bonds merged, each bond's holdings already in account order.
      const parts = await partsOf((part) =>
        repo.bookPart(clientId, settlement, method, part).then(({ bonds: read, holdings }) => {
          const inBookOrder = takeBonds(read);
          for (const position of holdings) add(position, inputsOfHolding(position));
          return inBookOrder;
        }),
      );
      bonds = mergeBonds(parts);
    } else {
      const waiting: BookPosition[] = [];
      await partsOf((part) =>
        repo.bookHoldingsPart(clientId, part).then((holdings) => {
          for (const position of holdings) {
            let inputs = book.bonds.get(position.finstrumentId);
            if (!inputs) {
              const node = known.get(position.finstrumentId);
              if (!node) {
                waiting.push(position);
                continue;
              }
              book.bonds.set(node.bond.id, (inputs = inputsFrom(node)));
            }
            add(position, inputs);
          }
        }),
      );
      if (waiting.length > 0) {
        // Many missing (a book of bonds no other firm on the node holds): read side by side, as `bookPart` is.
        const missing = [...new Set(waiting.map((p) => p.finstrumentId))];
        const groups =
          missing.length < MISSING_IN_PARTS
            ? [missing]
            : Array.from({ length: BOOK_PARTS }, (_, i) => missing.filter((id) => id % BOOK_PARTS === i));
        await Promise.all(groups.map((ids) => repo.bookBonds(ids, settlement, method).then(takeBonds)));
        for (const position of waiting) add(position, inputsOfHolding(position));
      }
      bonds = inNodeOrder(book) ?? [...book.bonds.values()].sort((a, b) => compareBonds(a.bond, b.bond));
    }
    for (const inputs of bonds) for (const h of inputs.holdings) book.sorted.push(h);
    if (priced.length > 0) options.store?.(priced, settlement, state.inputs);
    return book;
  }

  /** Applies the holdings changed since the book's version: new ones in place, changed ones re-valued, sold-out ones gone. */
  function applyHoldings(book: FirmBook, rows: BookRowSet): void {
    for (const { position, bond, ref } of rows) {
      const known = book.bonds.get(position.finstrumentId);
      const held = known && holdingOf(known.holdings, position.id);
      if (held) {
        if (position.faceValue <= 0) dropHolding(book, held);
        else {
          // Same bond and account, so the same place in the book: the figures change, not the order.
          held.position = position;
          held.valued = value(position, held.inputs);
        }
      } else if (position.faceValue > 0) addHolding(book, position, inputsOf(book, bond, ref));
    }
  }

  /**
   * Re-values the holdings of bonds whose inputs changed (their terms may move them in the book's order), and hands
   * the bonds so valued to the node's figures (`put`: read at the inputs' version `version` or later).
   */
  function applyBonds(book: FirmBook, rows: Array<{ bond: BookBond; ref: HeldReference | null }>, version: number): void {
    const valued: Array<Omit<NodeBond, 'version'>> = [];
    for (const { bond, ref } of rows) {
      const inputs = book.bonds.get(bond.id);
      if (!inputs) continue;
      const moves = inputs.bond.maturityDate !== bond.maturityDate || inputs.bond.isin !== bond.isin;
      if (moves) for (const h of inputs.holdings) removeSorted(book.sorted, h);
      inputs.bond = bond;
      inputs.ref = ref ?? undefined;
      inputs.valuation = valueBondOf(bond, inputs.ref, book.dates);
      valued.push({ bond, ref: inputs.ref, valuation: inputs.valuation });
      for (const h of inputs.holdings) {
        h.valued = value(h.position, inputs);
        if (moves) insertSorted(book.sorted, h);
      }
    }
    if (valued.length > 0) nodeBonds.put(book.dates, valuationMethod(), version, valued);
  }

  async function refresh(clientId: string, held: FirmBook | undefined, state: BookState, dates: ValuationDates): Promise<FirmBook> {
    if (!held || !sameDates(held.dates, dates)) return load(state, dates, clientId);
    let bondRows: Array<{ bond: BookBond; ref: HeldReference | null }> = [];
    if (state.inputs > held.inputs) {
      const changes = await repo.inputChangesSince(held.inputs);
      if (!changes.complete) return load(state, dates, clientId);
      const ids = changes.finstrumentIds.filter((id) => held.bonds.has(id));
      bondRows = await repo.bondsWithReferences(ids);
    }
    const holdingRows = state.version > held.version ? await repo.holdingsSince(clientId, held.version) : [];
    // Everything read: change the copy in one synchronous step, so no reader sees half of it.
    applyBonds(held, bondRows, state.inputs);
    applyHoldings(held, holdingRows);
    held.version = Math.max(held.version, state.version);
    held.inputs = Math.max(held.inputs, state.inputs);
    held.views.clear();
    return held;
  }

  const current = (book: FirmBook, state: BookState, dates: ValuationDates) =>
    book.version >= state.version && book.inputs >= state.inputs && sameDates(book.dates, dates);

  /** The firm's book as of `state` (or newer), refreshed when the node's copy is behind. */
  async function bookOf(clientId: string, state: BookState): Promise<FirmBook> {
    for (;;) {
      const dates = valuationDates(options.now());
      const held = books.get(clientId);
      if (held && current(held, state, dates)) {
        books.delete(clientId);
        books.set(clientId, held);
        return held;
      }
      const running = refreshing.get(clientId);
      if (running) {
        // Wait for the refresh in flight, then look again: it may have read an older state than ours.
        await running.catch(() => undefined);
        continue;
      }
      const job = refresh(clientId, held, state, dates);
      refreshing.set(clientId, job);
      try {
        const book = await job;
        books.delete(clientId);
        if (books.size >= options.limit) books.delete(books.keys().next().value!);
        books.set(clientId, book);
        return book;
      } catch (error) {
        // A refresh that failed half-way may have changed the copy: value the firm from the start next time.
        books.delete(clientId);
        throw error;
      } finally {
        refreshing.delete(clientId);
      }
    }
  }

  return {
    /** The firm's valued book for an account filter (all accounts when none), as of `state` or newer. */
    async view(clientId: string, account: string | undefined, state: BookState): Promise<BookView> {
      const book = await bookOf(clientId, state);
      const key = account ?? '';
      let view = book.views.get(key);
      if (!view) {
        const valued: ValuedPosition[] = [];
        for (const h of book.sorted) if (account === undefined || h.position.account === account) valued.push(h.valued);
        view = { dates: book.dates, valued, ...summarise(valued), answers: new Map() };
        book.views.set(key, view);
      }
      return view;
    },
    /** Whether this node keeps the firm's book (a notice of new valuation inputs refreshes only those). */
    holds: (clientId: string) => books.has(clientId),
  };
}
export type BookKeeper = ReturnType<typeof createBookKeeper>;
