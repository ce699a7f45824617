/**
 * The node's copy of a firm's book (README "Speed"): it answers while the firm's state is the one it applied, reads
 * only the changes otherwise, keeps the book's order through them, shares one refresh between readers, and values
 * from the start after a refresh that failed or a change log cut short.
 */
import { describe, expect, it } from 'vitest';
import { createNodeBonds, type NodeBonds, type NodeBondsOptions } from './inventory.bonds';
import { createBookKeeper, type BookKeeperOptions } from './inventory.book';
import type { BondFiguresToStore, BookBond, BookRowSet, PositionRow, ReferenceRow, StoredFigures } from './inventory.repository';
import { createBondValuer, valuationDates, valuationMethod } from './inventory.valuation';

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
const position = (
  id: string,
  finstrumentId: number,
  account: string,
  faceValue: number,
  version: number,
  clientId = 'firm',
): PositionRow => ({
  id,
  clientId,
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
  /** Reads of holdings alone and of bonds alone (a node with bond figures, `inventory.bonds.ts`). */
  const nodeCalls = { holdingsParts: 0, bookBonds: [] as number[][] };
  const heldOf = (clientId: string, [index, of]: [number, number]) =>
    [...positions.values()].filter((p) => p.clientId === clientId && p.faceValue > 0 && p.finstrumentId % of === index);
  /** Bonds as the database reads them for a book: a bond with valid stored figures without its terms (`HeldBond`). */
  const bondsRead = (ids: number[]) => {
    const held = ids.map((id) => bonds.get(id)!.bond);
    held.sort(bondsInIdOrder ? (a, b) => a.id - b.id : inBookOrder);
    return held.map(({ id, isin, displayName, issuerName, creditRating, securityType, faceValue, maturityDate, perpetual }) => {
      const figures = stored.get(id);
      const pick = bonds.get(id)!.ref;
      return figures
        ? {
            bond: { id, isin, displayName, issuerName, creditRating, securityType, faceValue, maturityDate, perpetual },
            ref: pick,
            stored: figures,
          }
        : { bond: bonds.get(id)!.bond, ref: pick, stored: null };
    });
  };
  const repo: BookKeeperOptions['repo'] & NodeBondsOptions['repo'] = {
    bookPart: async (clientId, _settlement, _method, part) => {
      if (part[0] === 0) calls.book++;
      parts.push(part);
      const holdings = heldOf(clientId, part);
      return { holdings, bonds: bondsRead([...new Set(holdings.map((p) => p.finstrumentId))]) };
    },
    bookHoldingsPart: async (clientId, part) => {
      if (part[0] === 0) nodeCalls.holdingsParts++;
      return heldOf(clientId, part);
    },
    bookBonds: async (ids) => {
      const wanted =
        ids === 'held' ? [...new Set([...positions.values()].filter((p) => p.faceValue > 0).map((p) => p.finstrumentId))] : [...ids];
      nodeCalls.bookBonds.push(wanted.toSorted((a, b) => a - b));
      return bondsRead(wanted);
    },
    inputsVersion: async () => Math.max(0, ...changes.map((c) => c.version)),
    holdingsSince: async (clientId, version) => {
      calls.holdingsSince++;
      if (failNext) {
        failNext = false;
        throw new Error('connection lost');
      }
      return rowsOf([...positions.values()].filter((p) => p.clientId === clientId && p.version > version));
    },
    bondsWithReferences: async (ids) => {
      calls.bondsWithReferences++;
      return ids.map((id) => bonds.get(id)!);
    },
    inputChangesSince: async (after) => {
      const oldest = changes.length === 0 ? null : Math.min(...changes.map((c) => c.version));
      const latest = new Map<number, number>();
      for (const c of changes) if (c.version > after) latest.set(c.id, Math.max(latest.get(c.id) ?? 0, c.version));
      return { complete: oldest !== null && oldest <= after + 1, finstrumentIds: [...latest.keys()], latest: [...latest.values()] };
    },
  };
  return {
    bonds,
    positions,
    stored,
    changes,
    calls,
    nodeCalls,
    parts,
    repo,
    bondsInIdOrder: () => (bondsInIdOrder = true),
    failAfterThis: () => (failNext = true),
  };
}

/** A node's book keeper: on a node of its own (its own bond figures) unless `node` is given. */
function keeperOf(
  db: ReturnType<typeof fakeRepo>,
  store?: (rows: BondFiguresToStore[], settlement: string, inputsVersion: number) => void,
  node: NodeBonds = createNodeBonds({ repo: db.repo }),
) {
  return createBookKeeper({
    repo: db.repo,
    bonds: node,
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
    // From the start again: the node knows the bond, so only the holdings are read.
    expect(db.calls.book).toBe(1);
    expect(db.nodeCalls.holdingsParts).toBe(1);
    expect(db.nodeCalls.bookBonds).toEqual([]);
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

/**
 * Two firms holding bonds 1 and 2 (the first in MAIN, the second in `account`) on one node: its bond figures and
 * its book keeper; valuation inputs at version 1.
 */
function twoFirmsOnOneNode(account: string) {
  const db = fakeRepo();
  db.positions.set('a', position('a', 1, 'MAIN', 1_000_000, 1, 'first'));
  db.positions.set('b', position('b', 2, 'MAIN', 1_000_000, 1, 'first'));
  db.positions.set('c', position('c', 1, account, 1_000_000, 1, 'second'));
  db.positions.set('d', position('d', 2, account, 1_000_000, 1, 'second'));
  db.changes.push({ version: 1, id: 3 });
  const node = createNodeBonds({ repo: db.repo });
  return { db, node, keeper: keeperOf(db, undefined, node) };
}

describe("a node's bond figures shared by its books", () => {
  it("values a second firm's book from the first firm's bonds: its holdings alone, then only the bonds the node lacks", async () => {
    const db = fakeRepo();
    db.positions.set('a', position('a', 1, 'MAIN', 1_000_000, 1, 'first'));
    db.positions.set('b', position('b', 2, 'MAIN', 2_000_000, 1, 'first'));
    db.positions.set('c', position('c', 3, 'AFS', 500_000, 1, 'second'));
    db.positions.set('d', position('d', 2, 'HTM', 700_000, 1, 'second'));
    db.positions.set('e', position('e', 1, 'AFS', 300_000, 1, 'second'));
    const node = createNodeBonds({ repo: db.repo });
    const priced: number[][] = [];
    const keeper = keeperOf(db, (rows) => priced.push(rows.map((r) => r.finstrumentId)), node);
    await keeper.view('first', undefined, { version: 1, inputs: 0 });
    expect(db.calls.book).toBe(1);
    expect(node.size()).toBe(2);

    const second = await keeper.view('second', undefined, { version: 1, inputs: 0 });
    expect(db.calls.book).toBe(1);
    expect(db.nodeCalls.holdingsParts).toBe(1);
    // Only the perpetual was read, and bonds 1 and 2 were priced once on the node, for both firms.
    expect(db.nodeCalls.bookBonds).toEqual([[3]]);
    expect(priced.flat().toSorted()).toEqual([1, 2, 3]);
    // Book order from the node's bonds: maturity, ISIN, account; the perpetual last.
    expect(isins(second.valued)).toEqual(['IN0000002030/AFS', 'IN0000002040/HTM', 'INE000000PER/AFS']);
    // The same figures as a node valuing the second firm alone.
    const alone = await keeperOf(db).view('second', undefined, { version: 1, inputs: 0 });
    expect(second.valued.map((v) => v.view)).toEqual(alone.valued.map((v) => v.view));
    expect(second.totals).toEqual(alone.totals);
  });

  it("serves no figure older than a book's inputs: a reference price moved between two firms' first reads", async () => {
    const { db, node, keeper } = twoFirmsOnOneNode('MAIN');
    const first = await keeper.view('first', undefined, { version: 1, inputs: 1 });
    expect(first.valued[0]!.view.valuation.bond_yield).toBe(0.07);

    db.bonds.set(1, { bond: B2030, ref: ref(1, 0.075) });
    db.changes.push({ version: 2, id: 1 });
    const second = await keeper.view('second', undefined, { version: 1, inputs: 2 });
    expect(second.valued[0]!.view.valuation.bond_yield).toBe(0.075);
    expect(second.valued[1]!.view.valuation).toEqual(first.valued[1]!.view.valuation);
    // Bond 1 read again; bond 2 from the node.
    expect(db.nodeCalls.bookBonds).toEqual([[1]]);

    // The log cut short: the node cannot know what changed, so it forgets every bond and reads the book whole.
    db.bonds.set(2, { bond: B2040, ref: ref(2, 0.09) });
    db.changes.splice(0, db.changes.length, { version: 5, id: 3 });
    const third = await keeperOf(db, undefined, node).view('first', undefined, { version: 1, inputs: 5 });
    expect(db.calls.book).toBe(2);
    expect(third.valued.map((v) => v.view.valuation.bond_yield)).toEqual([0.075, 0.09]);
  });

  it('keeps a read overtaken by a newer version to its own book, and starts empty on a new valuation date', async () => {
    const db = fakeRepo();
    db.positions.set('a', position('a', 1, 'MAIN', 1_000_000, 1));
    db.positions.set('b', position('b', 2, 'MAIN', 1_000_000, 1));
    db.changes.push({ version: 1, id: 3 });
    const node = createNodeBonds({ repo: db.repo });
    const dates = valuationDates(new Date('2025-11-21T05:00:00Z'));
    await node.current(dates, 1, 1);
    const read = await db.repo.bookBonds([1, 2], '2025-11-24', 1);
    // Another reader brings the node to version 2 (bond 1 changed) before this read of version 1 is taken.
    db.changes.push({ version: 2, id: 1 });
    await node.current(dates, 1, 2);
    const priced: BondFiguresToStore[] = [];
    expect(node.take(dates, 1, 1, read, priced)).toHaveLength(2);
    expect(node.size()).toBe(0);
    expect(priced).toHaveLength(2);
    // A read of version 2 is kept.
    node.take(dates, 1, 2, read, []);
    expect(node.size()).toBe(2);
    expect((await node.current(dates, 1, 2)).has(1)).toBe(true);
    // Another settlement date, or other valuing code: none of these figures.
    expect((await node.current(valuationDates(new Date('2025-11-24T05:00:00Z')), 1, 2)).size).toBe(0);
    node.take(dates, 1, 2, read, []);
    expect(node.size()).toBe(0);
  });

  it('keeps the bonds a book refresh re-valued, so a change of many bonds leaves the node its figures', async () => {
    const { db, keeper } = twoFirmsOnOneNode('AFS');
    await keeper.view('first', undefined, { version: 1, inputs: 1 });
    // A close moves both bonds; the first firm's book is refreshed (its notice), re-reading and re-valuing them.
    db.bonds.set(1, { bond: B2030, ref: ref(1, 0.071) });
    db.bonds.set(2, { bond: B2040, ref: ref(2, 0.073) });
    db.changes.push({ version: 2, id: 1 }, { version: 2, id: 2 });
    await keeper.view('first', undefined, { version: 1, inputs: 2 });
    expect(db.calls.bondsWithReferences).toBe(1);
    // The second firm's first read: both bonds from the node at their new yields, none read again.
    const second = await keeper.view('second', undefined, { version: 1, inputs: 2 });
    expect(db.calls.book).toBe(1);
    expect(db.nodeCalls.holdingsParts).toBe(1);
    expect(db.nodeCalls.bookBonds).toEqual([]);
    expect(second.valued.map((v) => v.view.valuation.bond_yield)).toEqual([0.071, 0.073]);
    // A later change of bond 2 alone drops bond 2 alone.
    db.bonds.set(2, { bond: B2040, ref: ref(2, 0.074) });
    db.changes.push({ version: 3, id: 2 });
    db.positions.set('e', position('e', 2, 'HTM', 1_000_000, 1, 'third'));
    db.positions.set('f', position('f', 1, 'HTM', 1_000_000, 1, 'third'));
    const third = await keeper.view('third', undefined, { version: 1, inputs: 3 });
    expect(db.nodeCalls.bookBonds).toEqual([[2]]);
    expect(third.valued.map((v) => v.view.valuation.bond_yield)).toEqual([0.071, 0.074]);
  });

  it('walks the book order a starting node sorted its bonds in, giving the book a sort gives; none after a change', async () => {
    const db = fakeRepo();
    db.positions.set('a', position('a', 3, 'MAIN', 1_000_000, 1, 'first'));
    db.positions.set('b', position('b', 2, 'HTM', 2_000_000, 1, 'first'));
    db.positions.set('c', position('c', 1, 'MAIN', 500_000, 1, 'first'));
    db.positions.set('d', position('d', 2, 'AFS', 700_000, 1, 'second'));
    const node = createNodeBonds({ repo: db.repo });
    // The 2030 bond's maturity moved past the 2040's, and the bonds come in id order from this read: the fill sorts.
    db.bonds.set(1, { bond: { ...B2030, maturityDate: '2045-01-01', contentHash: 'terms-1b' }, ref: ref(1, 0.07) });
    db.bondsInIdOrder();
    expect(await node.fill(valuationDates(new Date('2025-11-21T05:00:00Z')), async () => undefined)).toEqual({ priced: 3, kept: 3 });
    expect(db.nodeCalls.bookBonds).toEqual([[1, 2, 3]]);
    expect(node.inBookOrder()!.map((n) => n.bond.isin)).toEqual([B2040.isin, B2030.isin, PERPETUAL.isin]);
    const keeper = keeperOf(db, undefined, node);
    const first = await keeper.view('first', undefined, { version: 1, inputs: 0 });
    expect(db.calls.book).toBe(0);
    expect(isins(first.valued)).toEqual(['IN0000002040/HTM', 'IN0000002030/MAIN', 'INE000000PER/MAIN']);
    expect(isins((await keeper.view('second', undefined, { version: 1, inputs: 0 })).valued)).toEqual(['IN0000002040/AFS']);
    // A read that adds bonds to the node ends the fill's order (the next first valuation sorts its own).
    node.take(valuationDates(new Date('2025-11-21T05:00:00Z')), valuationMethod(), 0, await db.repo.bookBonds([1], '2025-11-24', 1), []);
    expect(node.inBookOrder()).toBeUndefined();
  });
});
