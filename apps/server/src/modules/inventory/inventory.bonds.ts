/**
 * The node's bond figures, shared by every book it values from the start (README "Speed", seventeenth paragraph).
 * A bond's figures for one unit, and what a book shows of it and of its reference pick, are the same for every
 * firm holding it: a node keeps them per valuation dates and valuing code, so a firm's first valuation reads only
 * its holdings, and the bonds this node does not have yet.
 *
 * Kept true by the valuation inputs' version and its change log (migration 0031), exactly as a book's refresh is:
 * - the figures claim a version `inputs`: each bond here is as it was at that version or later (no change of its
 *   terms or reference pick between its read and `inputs`);
 * - `current(to)` brings them to a newer version before a book uses them: the bonds changed since are dropped
 *   (`inputChangesSince`), or all of them when the log no longer reaches back (then they are read again);
 * - `take` adds a read's bonds only when the read is at least as new as the figures' version (a slow read of an
 *   older version, overtaken by `current`, keeps its bonds to its own book).
 * A new valuation date or valuing code starts them empty. One advance at a time; readers that need one share it.
 */
import type { BondFiguresToStore, HeldBond, HeldBondInputs, HeldReference, InventoryRepository } from './inventory.repository';
import {
  bondValuation,
  formatDate,
  priceBondFigures,
  valuationMethod,
  type BondValuation,
  type PricedFigures,
  type ValuationDates,
} from './inventory.valuation';

/** A bond as every book on the node values it: what a book shows of it and its pick, and its valuation on the dates. */
export interface NodeBond {
  bond: HeldBond;
  ref: HeldReference | undefined;
  valuation: BondValuation;
  /** The valuation inputs' version it was read at or after: a change of the bond at a later version drops it. */
  version: number;
}

/** Bonds in book order: maturity date (perpetuals and unknown last), ISIN. */
export function compareBonds(a: HeldBond, b: HeldBond): number {
  const ma = a.maturityDate;
  const mb = b.maturityDate;
  if (ma !== mb) {
    if (ma === null) return 1;
    if (mb === null) return -1;
    return ma < mb ? -1 : 1;
  }
  return a.isin === b.isin ? 0 : a.isin < b.isin ? -1 : 1;
}

/** Bonds kept at most (the universe is about 32,000); past it they start again. */
const NODE_BONDS_LIMIT = 100_000;

export interface NodeBondsOptions {
  repo: Pick<InventoryRepository, 'inputChangesSince' | 'inputsVersion' | 'bookBonds'>;
  limit?: number;
}

export function createNodeBonds(options: NodeBondsOptions) {
  const limit = options.limit ?? NODE_BONDS_LIMIT;
  /** What the figures are for: the valuation dates and the valuing code (`valuationMethod`). */
  let tradeDate = Number.NaN;
  let settlement = Number.NaN;
  let method = Number.NaN;
  let inputs = 0;
  let bonds = new Map<number, NodeBond>();
  let advancing: Promise<void> | undefined;
  /** Every bond kept, in book order, as the start's fill left them (none after any change: `inBookOrder`). */
  let ordered: NodeBond[] | undefined;

  const sameKey = (dates: ValuationDates, m: number) => dates.tradeDate === tradeDate && dates.settlement === settlement && m === method;

  /** Drops the bonds whose inputs changed after the figures' version, up to at least `to`. */
  async function advance(to: number): Promise<void> {
    const from = inputs;
    const table = bonds;
    const changes = await options.repo.inputChangesSince(from);
    // Started again meanwhile (a new date, or a cut log seen by another advance): that table is not this one.
    if (bonds !== table) return;
    ordered = undefined;
    if (!changes.complete) bonds = new Map();
    else
      changes.finstrumentIds.forEach((id, i) => {
        // A bond read after its change (a book's refresh put it back: `put`) stays.
        if ((bonds.get(id)?.version ?? Infinity) < changes.latest[i]!) bonds.delete(id);
      });
    inputs = Math.max(inputs, to);
  }

  /**
   * The node's bonds for `dates` and valuing code `m`, as of valuation inputs' version `to` or later: the table to
   * look bonds up in for a book of that version (a later advance only removes from it, and a table replaced by a
   * new one stays true of the version it was brought to).
   */
  async function current(dates: ValuationDates, m: number, to: number): Promise<ReadonlyMap<number, NodeBond>> {
    for (;;) {
      if (!sameKey(dates, m)) {
        tradeDate = dates.tradeDate;
        settlement = dates.settlement;
        method = m;
        inputs = to;
        bonds = new Map();
        ordered = undefined;
      }
      if (inputs >= to) return bonds;
      if (bonds.size === 0) {
        // Nothing to check: an empty table is true of any version.
        inputs = to;
        continue;
      }
      if (advancing) {
        await advancing.catch(() => undefined);
        continue;
      }
      advancing = advance(to);
      try {
        await advancing;
      } finally {
        advancing = undefined;
      }
    }
  }

  /**
   * Keeps `entries`, read at valuation inputs' version `version` or later and valued on `dates` with code `m`, when
   * they are for the figures' dates and code and as new as the figures' version (the one rule of `take` and `put`).
   */
  function keep(dates: ValuationDates, m: number, version: number, entries: readonly NodeBond[]): void {
    if (!sameKey(dates, m) || version < inputs) return;
    ordered = undefined;
    if (bonds.size + entries.length > limit) bonds = new Map();
    for (const entry of entries) bonds.set(entry.bond.id, entry);
  }

  /**
   * Bonds read at valuation inputs' version `version` or later (a book's read, the start's fill), valued on
   * `dates`: the stored figures taken, the others priced (and added to `priced`, for the store). Kept for the node
   * when the read is as new as the figures' version (`keep`); returned in the read's order either way.
   */
  function take(
    dates: ValuationDates,
    m: number,
    version: number,
    read: readonly HeldBondInputs[],
    priced: BondFiguresToStore[],
  ): NodeBond[] {
    const out: NodeBond[] = [];
    for (const item of read) {
      const { bond, ref } = item;
      let figures: PricedFigures;
      if (item.stored !== null) figures = item.stored;
      else {
        figures = priceBondFigures(item.bond, ref ?? undefined, dates.settlement);
        priced.push({ finstrumentId: bond.id, contentHash: item.bond.contentHash, referenceYield: ref?.yieldFraction ?? null, figures });
      }
      out.push({ bond, ref: ref ?? undefined, valuation: bondValuation(bond, ref ?? undefined, dates, figures), version });
    }
    keep(dates, m, version, out);
    return out;
  }

  /**
   * Reads every held bond's figures into the node's for `dates` (a starting node), so its first valuation of any
   * firm reads only holdings. Bonds without stored figures valid for them are priced here and handed to `store`
   * (the start's store of what is missing). Returns how many bonds it priced and how many the node then keeps.
   */
  async function fill(
    dates: ValuationDates,
    store: (rows: BondFiguresToStore[], settlement: string, inputsVersion: number) => Promise<void>,
  ): Promise<{ priced: number; kept: number }> {
    const m = valuationMethod();
    const version = await options.repo.inputsVersion();
    await current(dates, m, version);
    const settlementText = formatDate(dates.settlement);
    const priced: BondFiguresToStore[] = [];
    take(dates, m, version, await options.repo.bookBonds('held', settlementText, m), priced);
    // Sorted here, before the node listens, so its first valuations walk this order instead of sorting.
    ordered = [...bonds.values()].sort((a, b) => compareBonds(a.bond, b.bond));
    if (priced.length > 0) await store(priced, settlementText, version);
    return { priced: priced.length, kept: bonds.size };
  }

  /**
   * Bonds a book's refresh read again and valued (their inputs changed) at valuation inputs' version `version` or
   * later: kept for the node's next first valuations on the same rule as `take` (`keep`), so a change of many bonds
   * (a whole close) does not leave the node without them.
   */
  function put(dates: ValuationDates, m: number, version: number, entries: ReadonlyArray<Omit<NodeBond, 'version'>>): void {
    keep(
      dates,
      m,
      version,
      entries.map(({ bond, ref, valuation }) => ({ bond, ref, valuation, version })),
    );
  }

  /** Forgets every bond (a bench's "no node has figures for these bonds"). */
  const forget = () => {
    bonds = new Map();
    ordered = undefined;
  };

  /**
   * Every bond kept, in book order, when nothing changed since the start's fill sorted them (a first valuation
   * then walks it instead of sorting its bonds); undefined otherwise.
   */
  const inBookOrder = (): readonly NodeBond[] | undefined => ordered;

  /** How many bonds the node keeps (tests; logs). */
  return { current, take, put, fill, forget, inBookOrder, size: () => bonds.size };
}
export type NodeBonds = ReturnType<typeof createNodeBonds>;
