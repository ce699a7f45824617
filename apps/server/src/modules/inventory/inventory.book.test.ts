/**
 * The node's copy of a firm's book (README "Speed"): it answers while the firm's state is the one it applied, reads
 * only the changes otherwise, keeps the book's order through them, shares one refresh between readers, and values
 * from the start after a refresh that failed or a change log cut short.
 */
import { describe, expect, it } from 'vitest';
import { createBookKeeper, type BookKeeperOptions } from './inventory.book';
import type { BondFiguresToStore, BookBond, BookRowSet, PositionRow, ReferenceRow, StoredFigures } from './inventory.repository';
import { createBondValuer } from './inventory.valuation';

const bond = (id: number, isin: string, maturityDate: string | null): BookBond => ({
  id,
  isin,
  displayName: isin,
  issuerName: 'Government of India',
  creditRating: 'SOVEREIGN',
  securityType: 'G-Sec',
  couponRate: 7,
  couponFrequency: 2,
  faceValue: 100,
  issueDate: null,
  listingDate: '2023-01-01',
  maturityDate,
  perpetual: maturityDate === null,
  tenorDays: null,
  callSchedule: [],
  putSchedule: [],
  contentHash: `terms-${id}`,
});
const ref = (finstrumentId: number, yieldFraction: number): ReferenceRow => ({
  id: finstrumentId * 10,
  finstrumentId,
  priceDate: '2025-11-20',
  cleanPrice: null,
  yieldFraction,
  source: 'NSE_CM_CLOSE',
  priority: 1,
  detail: null,
});
const position = (id: string, finstrumentId: number, account: string, faceValue: number, version: number): PositionRow => ({
  id,
  clientId: 'firm',
  finstrumentId,
  account,
  faceValue,
  costPaise: faceValue * 100,
  realisedPnlPaise: 0,
  asOf: '2025-11-20',
  version,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

const B2030 = bond(1, 'IN0000002030', '2030-06-01');
const B2040 = bond(2, 'IN0000002040', '2040-06-01');
const PERPETUAL = bond(3, 'INE000000PER', null);

/** A database of one firm's holdings and the bonds' inputs, with the calls the keeper makes counted. */
function fakeRepo() {
  const bonds = new Map<number, { bond: BookBond; ref: ReferenceRow | null }>([
    [1, { bond: B2030, ref: ref(1, 0.07) }],
    [2, { bond: B2040, ref: ref(2, 0.072) }],
    [3, { bond: PERPETUAL, ref: ref(3, 0.08) }],
  ]);
  const positions = new Map<string, PositionRow>();
  /** Stored figures per bond, as `bookPart` reads them when they are valid for the inputs. */
  const stored = new Map<number, StoredFigures>();
  const changes: Array<{ version: number; id: number }> = [];
  const calls = { book: 0, holdingsSince: 0, bondsWithReferences: 0 };
  /** The parts each book valued from the start was read in (`[index, of]`, per call). */
  const parts: Array<[number, number]> = [];
  /** Each part's bonds in id order rather than in book order (a database that did not keep the order asked for). */
  let bondsInIdOrder = false;
  let failNext = false;
  const rowsOf = (list: PositionRow[]): BookRowSet =>
    list.map((p) => ({ position: p, bond: bonds.get(p.finstrumentId)!.bond, ref: bonds.get(p.finstrumentId)!.ref }));
  const inBookOrder = (a: BookBond, b: BookBond) =>
    (a.maturityDate ?? '9999') < (b.maturityDate ?? '9999') ? -1 : a.maturityDate === b.maturityDate ? (a.isin < b.isin ? -1 : 1) : 1;
  const repo: BookKeeperOptions['repo'] = {
    bookPart: async (_clientId, _settlement, _method, [index, of]) => {
      if (index === 0) calls.book++;
      parts.push([index, of]);
      const holdings = [...positions.values()].filter((p) => p.faceValue > 0 && p.finstrumentId % of === index);
      const held = [...new Set(holdings.map((p) => p.finstrumentId))].map((id) => bonds.get(id)!.bond);
      held.sort(bondsInIdOrder ? (a, b) => a.id - b.id : inBookOrder);
      return {
        holdings,
        // A bond with valid stored figures comes without its terms (`HeldBond`), as the database read gives it.
        bonds: held.map(({ id, isin, displayName, issuerName, creditRating, securityType, faceValue, maturityDate, perpetual }) => {
          const figures = stored.get(id);
          const pick = bonds.get(id)!.ref;
          return figures
            ? {
                bond: { id, isin, displayName, issuerName, creditRating, securityType, faceValue, maturityDate, perpetual },
                ref: pick,
                stored: figures,
              }
            : { bond: bonds.get(id)!.bond, ref: pick, stored: null };
        }),
      };
    },
    holdingsSince: async (_clientId, version) => {
      calls.holdingsSince++;
      if (failNext) {
        failNext = false;
        throw new Error('connection lost');
      }
      return rowsOf([...positions.values()].filter((p) => p.version > version));
    },
    bondsWithReferences: async (ids) => {
      calls.bondsWithReferences++;
      return ids.map((id) => bonds.get(id)!);
    },
    inputChangesSince: async (after) => {
      const oldest = changes.length === 0 ? null : Math.min(...changes.map((c) => c.version));
      return {
        complete: oldest !== null && oldest <= after + 1,
        finstrumentIds: [...new Set(changes.filter((c) => c.version > after).map((c) => c.id))],
      };
    },
  };
  return {
    bonds,
    positions,
    stored,
    changes,
    calls,
    parts,
    repo,
    bondsInIdOrder: () => (bondsInIdOrder = true),
    failAfterThis: () => (failNext = true),
  };
}

function keeperOf(
  db: ReturnType<typeof fakeRepo>,
  store?: (rows: BondFiguresToStore[], settlement: string, inputsVersion: number) => void,
) {
  return createBookKeeper({
    repo: db.repo,
    now: () => new Date('2025-11-21T05:00:00Z'),
    valueBondOf: createBondValuer(),
    limit: 4,
    ...(store ? { store } : {}),
  });
}
const isins = (valued: Array<{ view: { isin: string; account: string } }>) => valued.map((v) => `${v.view.isin}/${v.view.account}`);

describe('the node copy of a firm book', () => {
  it('reads only the holdings changed since its version and keeps the book in maturity, ISIN, account order', async () => {
    const db = fakeRepo();
    db.positions.set('a', position('a', 2, 'MAIN', 1_000_000, 1));
    db.positions.set('b', position('b', 1, 'MAIN', 2_000_000, 1));
    const keeper = keeperOf(db);
    const first = await keeper.view('firm', undefined, { version: 1, inputs: 0 });
    expect(isins(first.valued)).toEqual(['IN0000002030/MAIN', 'IN0000002040/MAIN']);
    expect(await keeper.view('firm', undefined, { version: 1, inputs: 0 })).toBe(first);
    expect(db.calls).toEqual({ book: 1, holdingsSince: 0, bondsWithReferences: 0 });

    // Version 2: a new holding of the perpetual, one in AFS of the 2030, and the 2040 sold out.
    db.positions.set('c', position('c', 3, 'MAIN', 500_000, 2));
    db.positions.set('d', position('d', 1, 'AFS', 700_000, 2));
    db.positions.set('a', position('a', 2, 'MAIN', 0, 2));
    const second = await keeper.view('firm', undefined, { version: 2, inputs: 0 });
    expect(isins(second.valued)).toEqual(['IN0000002030/AFS', 'IN0000002030/MAIN', 'INE000000PER/MAIN']);
    expect(second.totals.face_value).toBe(3_200_000);
    expect(db.calls).toEqual({ book: 1, holdingsSince: 1, bondsWithReferences: 0 });
    const afs = await keeper.view('firm', 'AFS', { version: 2, inputs: 0 });
    expect(isins(afs.valued)).toEqual(['IN0000002030/AFS']);
    expect(afs.totals.face_value).toBe(700_000);
  });

  it('re-values only the bonds whose inputs changed, and starts again when the change log was cut', async () => {
    const db = fakeRepo();
    db.positions.set('a', position('a', 1, 'MAIN', 1_000_000, 1));
    db.positions.set('b', position('b', 2, 'MAIN', 1_000_000, 1));
    db.changes.push({ version: 1, id: 3 });
    const keeper = keeperOf(db);
    const before = await keeper.view('firm', undefined, { version: 1, inputs: 1 });

    db.bonds.set(1, { bond: B2030, ref: ref(1, 0.075) });
    db.changes.push({ version: 2, id: 1 });
    const after = await keeper.view('firm', undefined, { version: 1, inputs: 2 });
    expect(after.valued[0]!.view.valuation.bond_yield).toBe(0.075);
    expect(after.valued[0]!.view.market_value!).toBeLessThan(before.valued[0]!.view.market_value!);
    expect(after.valued[1]!.view).toEqual(before.valued[1]!.view);
    expect(db.calls).toEqual({ book: 1, holdingsSince: 0, bondsWithReferences: 1 });

    // A new maturity moves the bond's holdings in the book.
    db.bonds.set(1, { bond: { ...B2030, maturityDate: '2045-01-01', contentHash: 'terms-1b' }, ref: ref(1, 0.075) });
    db.changes.push({ version: 3, id: 1 });
    expect(isins((await keeper.view('firm', undefined, { version: 1, inputs: 3 })).valued)).toEqual([
      'IN0000002040/MAIN',
      'IN0000002030/MAIN',
    ]);

    // Versions 1 to 4 pruned: the log starts at 5, so the node cannot know what changed after 3.
    db.bonds.set(2, { bond: B2040, ref: ref(2, 0.09) });
    db.changes.splice(0, db.changes.length, { version: 5, id: 3 });
    const reloaded = await keeper.view('firm', undefined, { version: 1, inputs: 5 });
    expect(db.calls.book).toBe(2);
    expect(reloaded.valued.find((v) => v.view.isin === B2040.isin)!.view.valuation.bond_yield).toBe(0.09);
  });

  it('shares one refresh between readers, and after a failed one values the book from the start', async () => {
    const db = fakeRepo();
    db.positions.set('a', position('a', 1, 'MAIN', 1_000_000, 1));
    const keeper = keeperOf(db);
    await keeper.view('firm', undefined, { version: 1, inputs: 0 });
    db.positions.set('a', position('a', 1, 'MAIN', 3_000_000, 2));
    const [x, y] = await Promise.all([
      keeper.view('firm', undefined, { version: 2, inputs: 0 }),
      keeper.view('firm', undefined, { version: 2, inputs: 0 }),
    ]);
    expect(x).toBe(y);
    expect(db.calls.holdingsSince).toBe(1);

    db.positions.set('a', position('a', 1, 'MAIN', 4_000_000, 3));
    db.failAfterThis();
    await expect(keeper.view('firm', undefined, { version: 3, inputs: 0 })).rejects.toThrow('connection lost');
    expect(keeper.holds('firm')).toBe(false);
    const again = await keeper.view('firm', undefined, { version: 3, inputs: 0 });
    expect(again.totals.face_value).toBe(4_000_000);
    expect(db.calls.book).toBe(2);
  });

  it("values a book from the start with its bonds' stored figures, pricing and handing to the store only the others", async () => {
    const db = fakeRepo();
    db.positions.set('a', position('a', 1, 'MAIN', 1_000_000, 1));
    db.positions.set('b', position('b', 2, 'MAIN', 2_000_000, 1));
    db.positions.set('c', position('c', 2, 'AFS', 500_000, 1));
    // Bond 1's stored row, as another node stored it for the same inputs (figures chosen to be recognised).
    db.stored.set(1, {
      clean: 101.25,
      bondYield: 0.07,
      modifiedDuration: 3.5,
      pv01Per100: 0.035,
      faceValuePerUnit: 100,
      accruedPer100: 1.5,
    });
    const batches: Array<{ rows: BondFiguresToStore[]; settlement: string }> = [];
    const first = await keeperOf(db, (rows, settlement) => batches.push({ rows, settlement })).view('firm', undefined, {
      version: 1,
      inputs: 0,
    });
    const byIsin = (view: typeof first, isin: string) => view.valued.filter((v) => v.view.isin === isin).map((v) => v.view);
    expect(byIsin(first, B2030.isin)[0]!.valuation.clean_price).toBe(101.25);
    expect(byIsin(first, B2030.isin)[0]!.accrued_interest).toBe(15_000);
    // Only bond 2 was priced (once for its two holdings), with what it was priced from.
    expect(batches).toHaveLength(1);
    expect(batches[0]!.settlement).toBe('2025-11-24');
    expect(batches[0]!.rows.map((r) => [r.finstrumentId, r.contentHash, r.referenceYield])).toEqual([[2, 'terms-2', 0.072]]);

    // The next node reads bond 2's stored figures: the same book, bit for bit, and nothing priced.
    db.stored.set(2, batches[0]!.rows[0]!.figures);
    const next: BondFiguresToStore[][] = [];
    const second = await keeperOf(db, (rows) => next.push(rows)).view('firm', undefined, { version: 1, inputs: 0 });
    expect(next).toEqual([]);
    expect(second.valued.map((v) => v.view)).toEqual(first.valued.map((v) => v.view));
    expect(second.totals).toEqual(first.totals);
  });

  it('reads a book in parts side by side and merges them into book order, whatever order a part comes in', async () => {
    const db = fakeRepo();
    // Bonds 1 and 3 in one part, bond 2 in the other; the perpetual (no maturity) last.
    db.positions.set('a', position('a', 3, 'MAIN', 1_000_000, 1));
    db.positions.set('b', position('b', 1, 'MAIN', 2_000_000, 1));
    db.positions.set('c', position('c', 2, 'HTM', 500_000, 1));
    db.positions.set('d', position('d', 2, 'AFS', 500_000, 1));
    db.positions.set('e', position('e', 1, 'AFS', 300_000, 1));
    const expected = ['IN0000002030/AFS', 'IN0000002030/MAIN', 'IN0000002040/AFS', 'IN0000002040/HTM', 'INE000000PER/MAIN'];
    const view = await keeperOf(db).view('firm', undefined, { version: 1, inputs: 0 });
    expect(db.parts).toEqual([
      [0, 2],
      [1, 2],
    ]);
    expect(isins(view.valued)).toEqual(expected);
    // A part not in book order (bond 3, the perpetual, before bond 1) is put in order, not trusted.
    db.bondsInIdOrder();
    const again = await keeperOf(db).view('firm', undefined, { version: 1, inputs: 0 });
    expect(isins(again.valued)).toEqual(expected);
    expect(again.valued.map((v) => v.view)).toEqual(view.valued.map((v) => v.view));
    // The perpetual has no maturity to price to; the others are valued.
    expect(view.valued.map((v) => v.marketValuePaise !== null)).toEqual([true, true, true, true, false]);
  });
});
