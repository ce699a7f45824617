/**
 * Bonds' figures for one unit stored for every node (migration 0032; README "Speed" 2): what a node priced while
 * valuing a book from the start, and the elected node's pass over held bonds. Every write is a transaction of
 * `storeValuations`, which stores a bond only while its figures are still those of its current inputs.
 */
import type { AppDeps } from '../../types';
import { createInventoryRepository, type BondFiguresToStore } from './inventory.repository';
import { formatDate, priceBondFigures, valuationDates, valuationMethod } from './inventory.valuation';

/** Bonds priced per slice of the elected node's pass, between which it yields to other requests. */
const PRICE_SLICE = 250;
/** Bonds written per transaction. */
const WRITE_SLICE = 1_000;

export function createFigureStore(deps: Pick<AppDeps, 'database' | 'now'>) {
  const { db } = deps.database;

  /** Stores figures priced from inputs read at valuation inputs' version `inputsVersion` (or later), a slice per transaction. */
  async function store(rows: BondFiguresToStore[], settlement: string, inputsVersion: number): Promise<void> {
    for (let i = 0; i < rows.length; i += WRITE_SLICE) {
      const slice = rows.slice(i, i + WRITE_SLICE);
      await db.transaction((tx) => createInventoryRepository(tx).storeValuations(slice, settlement, valuationMethod(), inputsVersion));
    }
  }

  return {
    store,

    /**
     * The elected node's pass: prices the held bonds (of `ids`, or all) that have no stored figures valid for
     * today's valuation date and their current terms and reference yield, and stores them, so any node's first
     * valuation of a book reads them instead of pricing. A slice at a time, yielding between slices. Returns how
     * many bonds it priced.
     */
    async storeHeld(ids: readonly number[] | 'all'): Promise<number> {
      const dates = valuationDates(deps.now());
      const settlement = formatDate(dates.settlement);
      const repo = createInventoryRepository(db);
      const inputsVersion = await repo.inputsVersion();
      const rows = await repo.heldBondsWithoutFigures(ids, settlement, valuationMethod());
      for (let i = 0; i < rows.length; i += PRICE_SLICE) {
        const priced = rows.slice(i, i + PRICE_SLICE).map(({ bond, ref }) => ({
          finstrumentId: bond.id,
          contentHash: bond.contentHash,
          referenceYield: ref?.yieldFraction ?? null,
          figures: priceBondFigures(bond, ref ?? undefined, dates.settlement),
        }));
        await store(priced, settlement, inputsVersion);
        await new Promise((resolve) => setImmediate(resolve));
      }
      return rows.length;
    },
  };
}
export type FigureStore = ReturnType<typeof createFigureStore>;
