/**
 * Issue 14 "Speed", round 2: each bond's figures stored for the next node (migration 0032; inventory README
 * "Speed"). A new node's first valuation reads them instead of pricing, for its valuing code and settlement date;
 * the rest of what they were computed from is kept true by the writers (migration 0033): any writer of a reference
 * price or a bond's terms drops them in its own transaction, a store is serialised with those writers, and a store
 * whose inputs changed meanwhile, or are not the bond's current ones, stores nothing; the elected node's pass stores
 * what is missing. Every figure is checked against the book the running node values itself.
 */
import type { Inventory } from '@dart/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows, type Tx } from '../src/db/client';
import type { Principal } from '../src/modules/auth/principal';
import { createRevaluationNotices, storeHeldOnStart } from '../src/modules/inventory';
import { createInventoryRepository } from '../src/modules/inventory/inventory.repository';
import { createInventoryService } from '../src/modules/inventory/inventory.service';
import { valuationMethod } from '../src/modules/inventory/inventory.valuation';
import { createTestApp, DRIVERS, json, type TestApp } from './helpers';
import { bondId, call, GSEC_2033, HDFC_NCD, postTradeActors } from './post-trade-support';

/** A clean price no bond of the slice has at its reference yield: a figure that can only come from the stored row. */
const MARKER = 42.4242;

describe.each(DRIVERS)('bond figures stored for the next node (%s)', (driver) => {
  let t: TestApp;
  let gsecId = 0;
  let hdfcId = 0;
  let demo: Principal;
  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    gsecId = await bondId(t, GSEC_2033);
    hdfcId = await bondId(t, HDFC_NCD);
    const actors = await postTradeActors(t);
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/inventory/upload/',
      headers: { authorization: `Bearer ${actors.demo.token}`, 'content-type': 'text/csv' },
      payload: `isin,face_value,valuation_cost,account\n${GSEC_2033},5cr,101,MAIN\n${GSEC_2033},1cr,99,AFS\n${HDFC_NCD},1cr,99,AFS\n`,
    });
    if (upload.statusCode !== 201) throw new Error(`upload: ${upload.statusCode} ${upload.body}`);
    const [row] = await sqlRows<{ client_id: string }>(t.app.deps.database.db, sql`SELECT client_id FROM inventory_positions LIMIT 1`);
    demo = { clientId: row!.client_id } as Principal;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.app.deps.database.db;
  const execute = (query: ReturnType<typeof sql>) => db().execute(query);
  const noMarket = { createQuote: () => Promise.reject(new Error('not offered here')) };
  /** A node that just started: its own bond cache and books, over the same database. */
  const newNode = () => createInventoryService(t.app.deps, noMarket);
  const firstValuation = async () =>
    JSON.parse((await newNode().listJson(demo, { page: 1, page_size: 1000 })).toString('utf8')) as Inventory;
  /** The running node's book (its own valuation, brought up to date by deltas). */
  const book = async (): Promise<Inventory> => {
    const response = await call(t, 'demo', 'GET', '/api/inventory/?page_size=1000');
    expect(response.statusCode, response.body).toBe(200);
    return json<Inventory>(response);
  };
  const stored = (id: number) =>
    sqlRows<{ clean_price: number | null; reference_yield: number | null; settlement_date: string; content_hash: string }>(
      db(),
      sql`SELECT clean_price, reference_yield, settlement_date::text AS settlement_date, content_hash
        FROM inventory_bond_valuations WHERE finstrument_id = ${id}`,
    );
  const waitStored = async (ids: number[]) => {
    for (let i = 0; i < 200; i++) {
      const rows = await sqlRows<{ n: number }>(
        db(),
        sql`SELECT count(*)::int AS n FROM inventory_bond_valuations WHERE finstrument_id IN (${sql.join(ids, sql`, `)})`,
      );
      if (rows[0]!.n === ids.length) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`bond figures of ${ids.join(', ')} never stored`);
  };
  /** Moves the bond's reference pick by `bp` basis points (in `on`'s transaction when given). */
  const moveReference = (id: number, bp: number, on: Pick<Tx, 'execute'> = db()) =>
    on.execute(sql`UPDATE reference_prices SET yield_fraction = yield_fraction + ${bp / 10_000}
      WHERE id = (SELECT id FROM reference_prices WHERE finstrument_id = ${id} ORDER BY priority ASC, price_date DESC LIMIT 1)`);
  /**
   * Runs `first` in a transaction held open after it, then starts `second`: whether `second` was still waiting
   * 150 ms later (it must wait for `first`'s commit), after which both finish.
   */
  const waitsForOpenTransaction = async (first: (tx: Tx) => Promise<unknown>, second: () => Promise<unknown>) => {
    let commit!: () => void;
    const open = new Promise<void>((resolve) => (commit = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const held = db().transaction(async (tx) => {
      await first(tx);
      wrote();
      await open;
    });
    await written;
    let done = false;
    const waiting = second().then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 150));
    const waited = !done;
    commit();
    await held;
    await waiting;
    return waited;
  };
  const gsecOf = (inventory: Inventory) => inventory.results.find((p) => p.isin === GSEC_2033 && p.account === 'MAIN')!;

  it('stores what a node priced, and a new node values the book from those figures, the same to the last digit', async () => {
    const running = await book();
    await waitStored([gsecId, hdfcId]);
    const [row] = await stored(gsecId);
    expect(row!.settlement_date).toBe(running.valuation_date);
    expect(Number(row!.reference_yield!.toFixed(6))).toBe(gsecOf(running).valuation.bond_yield);
    expect(row!.clean_price).toBe(gsecOf(running).valuation.clean_price);
    const fresh = await firstValuation();
    expect(fresh.results).toEqual(running.results);
    expect(fresh.totals).toEqual(running.totals);
    expect(fresh.breakdowns).toEqual(running.breakdowns);

    // The stored row is what the new node reads (not a pricing of its own): a marked figure shows through.
    await execute(sql`UPDATE inventory_bond_valuations SET clean_price = ${MARKER} WHERE finstrument_id = ${gsecId}`);
    expect(gsecOf(await firstValuation()).valuation.clean_price).toBe(MARKER);
  });

  it('never serves a stored figure of another valuing code or settlement date', async () => {
    const running = await book();
    for (const mismatch of [sql`settlement_date = settlement_date - 1`, sql`method = ${valuationMethod() ^ 1}`]) {
      await execute(sql`UPDATE inventory_bond_valuations SET clean_price = ${MARKER} WHERE finstrument_id = ${gsecId}`);
      await execute(sql`UPDATE inventory_bond_valuations SET ${mismatch} WHERE finstrument_id = ${gsecId}`);
      const fresh = await firstValuation();
      expect(gsecOf(fresh)).toEqual(gsecOf(running));
      // The node priced it and stored it again for the next one.
      await expect.poll(async () => (await stored(gsecId))[0]?.clean_price, { timeout: 5_000 }).toBe(gsecOf(running).valuation.clean_price);
    }
  });

  it('stores figures only for the bond’s current reference yield and terms, and never around a writer of them', async () => {
    const running = await book();
    await waitStored([hdfcId]);
    const repo = createInventoryRepository(db());
    const [hdfc] = await repo.bondsForBook([hdfcId], running.valuation_date, valuationMethod());
    const figures = { reason: 'priced from other inputs' };
    const storeAt = (tx: Tx, version: number, change: object = {}) =>
      createInventoryRepository(tx).storeValuations(
        [{ finstrumentId: hdfcId, contentHash: hdfc!.bond.contentHash, referenceYield: hdfc!.ref!.yieldFraction, figures, ...change }],
        running.valuation_date,
        valuationMethod(),
        version,
      );
    const reasonStored = async () =>
      (
        await sqlRows<{ reason: string | null }>(db(), sql`SELECT reason FROM inventory_bond_valuations WHERE finstrument_id = ${hdfcId}`)
      )[0]?.reason;
    const now = await repo.inputsVersion();
    // Not the yield of the bond's reference pick, or not its terms: nothing stored (the row stays as it was).
    await db().transaction((tx) => storeAt(tx, now, { referenceYield: hdfc!.ref!.yieldFraction + 0.0001 }));
    await db().transaction((tx) => storeAt(tx, now, { contentHash: 'another' }));
    expect(await reasonStored()).toBeNull();

    // A writer of a reference price in flight: the store waits for it (on PGlite as every transaction waits for the
    // one open), then sees the change and stores nothing.
    expect(
      await waitsForOpenTransaction(
        (tx) => moveReference(hdfcId, 2, tx),
        () => db().transaction((tx) => storeAt(tx, now, { referenceYield: hdfc!.ref!.yieldFraction + 0.0002 })),
      ),
    ).toBe(true);
    expect(await stored(hdfcId)).toEqual([]);

    // A store first, a writer after it: the writer waits for the store, then drops what it stored.
    const [moved] = await repo.bondsForBook([hdfcId], running.valuation_date, valuationMethod());
    const after = await repo.inputsVersion();
    expect(
      await waitsForOpenTransaction(
        (tx) => storeAt(tx, after, { referenceYield: moved!.ref!.yieldFraction }),
        () => db().transaction((tx) => moveReference(hdfcId, -2, tx)),
      ),
    ).toBe(true);
    expect(await stored(hdfcId)).toEqual([]);
    // A new node prices it again and stores it, for the tests after this one.
    expect(gsecOf(await firstValuation())).toEqual(gsecOf(running));
    await waitStored([gsecId, hdfcId]);
  });

  it('drops a bond’s figures with any change of its inputs, and a store whose inputs moved meanwhile stores nothing', async () => {
    await book();
    await waitStored([gsecId, hdfcId]);
    await moveReference(gsecId, 5);
    expect(await stored(gsecId)).toEqual([]);
    expect(await stored(hdfcId)).toHaveLength(1);
    const running = await book();
    expect(gsecOf(await firstValuation())).toEqual(gsecOf(running));

    // A term fixed by hand, with the content hash left as it was, drops the figures too.
    await waitStored([gsecId]);
    await execute(sql`UPDATE finstruments SET coupon_rate = coupon_rate WHERE id = ${gsecId}`);
    expect(await stored(gsecId)).toHaveLength(1);
    await execute(sql`UPDATE finstruments SET display_name = display_name || ' ' WHERE id = ${gsecId}`);
    expect(await stored(gsecId)).toEqual([]);
    await execute(sql`UPDATE finstruments SET display_name = rtrim(display_name) WHERE id = ${gsecId}`);

    // Figures priced from inputs read before a change (inputs version `before`) are not stored after it.
    const repo = createInventoryRepository(db());
    const before = await repo.inputsVersion();
    const [hdfc] = await repo.bondsForBook([hdfcId], running.valuation_date, valuationMethod());
    await moveReference(hdfcId, 3);
    await db().transaction((tx) =>
      createInventoryRepository(tx).storeValuations(
        [
          {
            finstrumentId: hdfcId,
            contentHash: hdfc!.bond.contentHash,
            referenceYield: hdfc!.ref!.yieldFraction,
            figures: { reason: 'stale' },
          },
        ],
        running.valuation_date,
        valuationMethod(),
        before,
      ),
    );
    expect(await stored(hdfcId)).toEqual([]);
  });

  it('the elected node’s pass stores every held bond missing, and after a change the changed ones', async () => {
    await execute(sql`DELETE FROM inventory_bond_valuations`);
    const node = newNode();
    expect(await node.storeHeldValuations('all')).toBe(2);
    expect(await node.storeHeldValuations('all')).toBe(0);
    const notices = createRevaluationNotices(t.app.deps, (ids) => node.storeHeldValuations(ids));
    await notices.noticeOnce();
    await moveReference(hdfcId, -2);
    expect(await stored(hdfcId)).toEqual([]);
    expect(await notices.noticeOnce()).toBe(1);
    const [row] = await stored(hdfcId);
    const running = await book();
    expect(Number(row!.reference_yield!.toFixed(6))).toBe(running.results.find((p) => p.isin === HDFC_NCD)!.valuation.bond_yield);
    expect((await firstValuation()).results).toEqual(running.results);
  });

  it('a starting node stores the held bonds’ missing figures before it listens; a failed store is logged and the node starts', async () => {
    await execute(sql`DELETE FROM inventory_bond_valuations`);
    const logged: Array<{ level: string; fields: unknown; message: string }> = [];
    const log = {
      info: (fields: unknown, message: string) => void logged.push({ level: 'info', fields, message }),
      warn: (fields: unknown, message: string) => void logged.push({ level: 'warn', fields, message }),
    } as unknown as Parameters<typeof storeHeldOnStart>[1];
    expect(await storeHeldOnStart(newNode(), log)).toBe(2);
    expect((await stored(gsecId)).length + (await stored(hdfcId)).length).toBe(2);
    expect(logged).toEqual([
      {
        level: 'info',
        fields: expect.objectContaining({ priced: 2, kept: 2 }),
        message: 'inventory bond figures stored and read before listening',
      },
    ]);
    // The next node to start finds every figure stored: nothing priced.
    expect(await storeHeldOnStart(newNode(), log)).toBe(0);
    const failing = { fillNodeBonds: () => Promise.reject(new Error('database gone')) };
    expect(await storeHeldOnStart(failing, log)).toBe(0);
    expect(logged.at(-1)).toEqual({
      level: 'warn',
      fields: { err: { message: 'database gone' } },
      message: 'inventory bond figures not stored before listening',
    });
  });

  it('an upload answers with its bonds’ figures stored: the first valuation of the uploaded book prices none of them', async () => {
    await execute(sql`DELETE FROM inventory_bond_valuations`);
    const actors = await postTradeActors(t);
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/inventory/upload/',
      headers: { authorization: `Bearer ${actors.demo.token}`, 'content-type': 'text/csv' },
      payload: `isin,face_value,valuation_cost,account\n${HDFC_NCD},2cr,98,HTM\n`,
    });
    expect(upload.statusCode, upload.body).toBe(201);
    // At the answer, no wait: the uploaded bond's figures are there; the bond the upload did not touch is not.
    const [row] = await stored(hdfcId);
    expect(await stored(gsecId)).toEqual([]);
    expect(row?.settlement_date).toBe((await book()).valuation_date);
    // A marked figure shows through on a new node: it read the stored row rather than pricing the bond.
    await execute(sql`UPDATE inventory_bond_valuations SET clean_price = ${MARKER} WHERE finstrument_id = ${hdfcId}`);
    const fresh = await firstValuation();
    expect(fresh.results.filter((p) => p.isin === HDFC_NCD).map((p) => p.valuation.clean_price)).toEqual([MARKER, MARKER]);
  });
  it('a started node values each firm’s first read from the bond figures it read at its start, reading again only a changed bond', async () => {
    const actors = await postTradeActors(t);
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/inventory/upload/',
      headers: { authorization: `Bearer ${actors.second.token}`, 'content-type': 'text/csv' },
      payload: `isin,face_value,valuation_cost,account\n${GSEC_2033},2cr,100,MAIN\n${HDFC_NCD},1cr,98,HTM\n`,
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const second = { clientId: actors.second.clientId } as Principal;
    await execute(sql`DELETE FROM inventory_bond_valuations`);
    const quiet = { info: () => undefined, warn: () => undefined } as unknown as Parameters<typeof storeHeldOnStart>[1];
    const node = newNode();
    await storeHeldOnStart(node, quiet);
    const read = async (p: Principal) => JSON.parse((await node.listJson(p, { page: 1, page_size: 1000 })).toString('utf8')) as Inventory;
    const demoBook = await read(demo);
    expect(demoBook.results).toEqual((await book()).results);

    // Behind the node's back (no writer does this): a stored figure it would show if it read the stored rows again.
    await execute(sql`UPDATE inventory_bond_valuations SET clean_price = ${MARKER}`);
    // A writer moves the HDFC NCD's reference price: its stored row goes (migration 0033), and the change log says so.
    await moveReference(hdfcId, 3);
    const secondBook = await read(second);
    const of = (inventory: Inventory, isin: string) => inventory.results.find((p) => p.isin === isin)!.valuation;
    // The G-sec from the node's figures (not the marked row), the NCD read again at its new reference yield.
    expect(of(secondBook, GSEC_2033)).toEqual(of(demoBook, GSEC_2033));
    expect(of(secondBook, HDFC_NCD).bond_yield).toBeCloseTo(of(demoBook, HDFC_NCD).bond_yield! + 0.0003, 6);
    // The same book a node knowing nothing values, every bond from its terms.
    await execute(sql`DELETE FROM inventory_bond_valuations`);
    const alone = JSON.parse((await newNode().listJson(second, { page: 1, page_size: 1000 })).toString('utf8')) as Inventory;
    expect(secondBook.results).toEqual(alone.results);
    expect(secondBook.totals).toEqual(alone.totals);
  });
});
