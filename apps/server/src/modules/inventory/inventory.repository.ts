/**
 * SQL of the inventory module: positions (always under the caller's firm: every query takes `clientId`),
 * their movements, the book date, and the bonds and reference prices the valuation reads. Each function takes
 * the database or a transaction (`createInventoryRepository(tx)`).
 */
import { and, asc, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { sqlRows, type DbOrTx } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { rowDecoder } from '../../db/row-decoder';
import {
  bondInputs,
  PICK_OF,
  readBookBonds,
  readBookPart,
  readHoldingsPart,
  type BondFiguresToStore,
  type BookBondInputs,
  type BookPart,
  type BookPosition,
  type HeldBondInputs,
} from './inventory.book-read';
import {
  custodians,
  finstruments,
  inventoryBondValuations,
  inventoryBooks,
  inventoryMovements,
  inventoryPositions,
  inventoryVersions,
  referencePrices,
  valuationInputChanges,
  valuationInputVersions,
} from '../../db/schema';

export {
  bookPartOf,
  pricedBondOf,
  type BondColumns,
  type BondFiguresToStore,
  type BondTermsRow,
  type BookBondInputs,
  type BookPart,
  type BookPosition,
  type HeldBond,
  type HeldBondInputs,
  type HeldReference,
  type HoldingColumns,
  type StoredFigures,
} from './inventory.book-read';

export type PositionRow = typeof inventoryPositions.$inferSelect;
export type MovementRow = typeof inventoryMovements.$inferSelect;
export type BondRow = typeof finstruments.$inferSelect;
export type ReferenceRow = typeof referencePrices.$inferSelect;
export type BookRow = typeof inventoryBooks.$inferSelect;

/** The bond columns valuing a holding reads (terms, names, grouping; the content hash keys the node's caches). */
const BOOK_BOND_COLUMNS = {
  id: finstruments.id,
  isin: finstruments.isin,
  displayName: finstruments.displayName,
  issuerName: finstruments.issuerName,
  creditRating: finstruments.creditRating,
  securityType: finstruments.securityType,
  couponRate: finstruments.couponRate,
  couponFrequency: finstruments.couponFrequency,
  faceValue: finstruments.faceValue,
  issueDate: finstruments.issueDate,
  listingDate: finstruments.listingDate,
  maturityDate: finstruments.maturityDate,
  perpetual: finstruments.perpetual,
  tenorDays: finstruments.tenorDays,
  callSchedule: finstruments.callSchedule,
  putSchedule: finstruments.putSchedule,
  contentHash: finstruments.contentHash,
};
export type BookBond = Pick<BondRow, keyof typeof BOOK_BOND_COLUMNS>;
const POSITION_ROW = rowDecoder<PositionRow>(getTableColumns(inventoryPositions), 'p_');
const BOND_ROW = rowDecoder<BookBond>(BOOK_BOND_COLUMNS, 'b_');
const REFERENCE_ROW = rowDecoder<ReferenceRow>(getTableColumns(referencePrices), 'r_');
const BOOK_ROW = rowDecoder<BookRow>(getTableColumns(inventoryBooks), 'b_');

export type BookRowSet = Array<{ position: PositionRow; bond: BookBond; ref: ReferenceRow | null }>;

const REFERENCE_ID = REFERENCE_ROW.nameOf('id');
const referenceOf = (raw: Record<string, unknown>) =>
  raw[REFERENCE_ID] === null || raw[REFERENCE_ID] === undefined ? null : REFERENCE_ROW.decode(raw);

/** Holdings matching `where` (on `p`) with their bonds and reference picks, in one statement. */
async function bookRows(db: DbOrTx, where: SQL): Promise<BookRowSet> {
  const rows = await sqlRows(
    db,
    sql`SELECT ${POSITION_ROW.select('p')}, ${BOND_ROW.select('f')}, ${REFERENCE_ROW.select('r')}
      FROM ${inventoryPositions} p
      JOIN ${finstruments} f ON f.id = p.finstrument_id
      LEFT JOIN LATERAL (${PICK_OF(sql`p.finstrument_id`)}) r ON true
      WHERE ${where}`,
  );
  return rows.map((raw) => ({ position: POSITION_ROW.decode(raw), bond: BOND_ROW.decode(raw), ref: referenceOf(raw) }));
}

export function createInventoryRepository(db: DbOrTx) {
  return {
    /**
     * The firm's holdings above zero with their bonds and each bond's reference price waterfall pick (lowest
     * priority, latest date; finstruments README "Reference prices"), in one statement: the pick is a lateral
     * lookup on `reference_prices_pick_idx` per holding. Raw SQL decoded by the columns' own decoders: for a book
     * of 10,000 holdings the query builder's per-field mapping cost more than the query (README "Speed").
     */
    async book(clientId: string, account?: string): Promise<BookRowSet> {
      return bookRows(db, sql`p.client_id = ${clientId} AND p.face_value > 0 ${account ? sql`AND p.account = ${account}` : sql``}`);
    },

    /** Bonds by id with their reference picks and stored figures valid for `settlement` and `method`. */
    async bondsForBook(ids: readonly number[], settlement: string, method: number): Promise<BookBondInputs[]> {
      return bondInputs(db, ids, settlement, method);
    },

    /** Part `[index, of]` of the firm's book valued from the start, holdings and bonds (`readBookPart`). */
    bookPart: (clientId: string, settlement: string, method: number, part: [index: number, of: number]): Promise<BookPart> =>
      readBookPart(db, clientId, settlement, method, part),

    /** Part `[index, of]` of the firm's holdings above zero alone (`readHoldingsPart`). */
    bookHoldingsPart: (clientId: string, part: [index: number, of: number]): Promise<BookPosition[]> =>
      readHoldingsPart(db, clientId, part),

    /** Bonds as a book valued from the start reads them, or every held bond's (`readBookBonds`). */
    bookBonds: (ids: readonly number[] | 'held', settlement: string, method: number): Promise<HeldBondInputs[]> =>
      readBookBonds(db, ids, settlement, method),

    /**
     * The bonds any firm holds above zero (of `ids`, or all) that have no stored figures valid for `settlement`
     * and `method`: what the elected node prices and stores after a change of valuation inputs or on a new date.
     */
    async heldBondsWithoutFigures(ids: readonly number[] | 'all', settlement: string, method: number): Promise<BookBondInputs[]> {
      const held = await sqlRows<{ id: number }>(
        db,
        sql`SELECT DISTINCT finstrument_id AS id FROM ${inventoryPositions} WHERE face_value > 0 ${
          ids === 'all' ? sql`` : sql`AND finstrument_id = ANY(${pgArray(ids)}::int[])`
        }`,
      );
      // Only the bonds without valid figures come back (`onlyUnstored`): none is read to be dropped here.
      return bondInputs(
        db,
        held.map((h) => Number(h.id)),
        settlement,
        method,
        true,
      );
    },

    /**
     * Stores bonds' figures for one unit (migrations 0032, 0033) with what they were computed from and what a book's
     * read shows of the bond and its reference pick; call in a transaction. `inputsVersion`: the valuation inputs'
     * version read before the bonds were (`bookState`, `inputsVersion`). A stored row is trusted by the reader
     * (README "Speed" 2), so a bond is stored only when its figures are those of its current inputs:
     * - the inputs' version row is taken FOR SHARE first: a writer of reference prices or terms in flight (its
     *   trigger holds that row) commits before this reads on, and a writer after it waits for this transaction and
     *   then deletes what it stored;
     * - a bond whose inputs changed after `inputsVersion` (or a log cut short, so that cannot be known), whose
     *   content hash moved, or whose reference pick's yield is not the one priced is left out;
     * - the bond's and the pick's columns are copied as they are now, which is as they were read.
     */
    async storeValuations(rows: readonly BondFiguresToStore[], settlement: string, method: number, inputsVersion: number): Promise<void> {
      if (rows.length === 0) return;
      // In id order (and inserted so): two stores of overlapping bonds cannot wait for each other's rows.
      const sorted = [...rows].sort((a, b) => a.finstrumentId - b.finstrumentId);
      const col = (pick: (r: BondFiguresToStore) => string | number | null) => pgArray(sorted.map(pick));
      const num = (key: 'clean' | 'bondYield' | 'modifiedDuration' | 'pv01Per100' | 'faceValuePerUnit' | 'accruedPer100') =>
        col((r) => ('reason' in r.figures ? null : r.figures[key]));
      const ids = col((r) => r.finstrumentId);
      await db.execute(sql`SELECT version FROM ${valuationInputVersions} WHERE id = 1 FOR SHARE`);
      await db.execute(sql`INSERT INTO ${inventoryBondValuations} AS t (finstrument_id, method, content_hash, settlement_date,
          reference_yield, clean_price, bond_yield, modified_duration, pv01_per_100, face_value_per_unit, accrued_per_100, reason,
          isin, display_name, issuer_name, credit_rating, security_type, face_value, maturity_date, perpetual,
          reference_id, reference_price_date, reference_source)
        SELECT s.id, ${method}, s.content_hash, ${settlement}::date, s.reference_yield, s.clean_price, s.bond_yield,
          s.modified_duration, s.pv01_per_100, s.face_value_per_unit, s.accrued_per_100, s.reason,
          f.isin, f.display_name, f.issuer_name, f.credit_rating, f.security_type, f.face_value, f.maturity_date, f.perpetual,
          r.id, r.price_date, r.source
        FROM unnest(${ids}::int[], ${col((r) => r.contentHash)}::text[], ${col((r) => r.referenceYield)}::float8[],
          ${num('clean')}::float8[], ${num('bondYield')}::float8[], ${num('modifiedDuration')}::float8[], ${num('pv01Per100')}::float8[],
          ${num('faceValuePerUnit')}::float8[], ${num('accruedPer100')}::float8[],
          ${col((r) => ('reason' in r.figures ? r.figures.reason : null))}::text[])
          AS s(id, content_hash, reference_yield, clean_price, bond_yield, modified_duration, pv01_per_100, face_value_per_unit,
            accrued_per_100, reason)
        JOIN ${finstruments} f ON f.id = s.id AND f.content_hash = s.content_hash
        LEFT JOIN LATERAL (${PICK_OF(sql`f.id`)}) r ON true
        WHERE r.yield_fraction IS NOT DISTINCT FROM s.reference_yield
          AND NOT EXISTS (SELECT 1 FROM ${valuationInputChanges} c WHERE c.finstrument_id = s.id AND c.version > ${inputsVersion})
          AND (SELECT version FROM ${valuationInputVersions} WHERE id = 1) <= ${inputsVersion}
            + (SELECT count(DISTINCT version) FROM ${valuationInputChanges} WHERE version > ${inputsVersion})
        ORDER BY s.id
        ON CONFLICT (finstrument_id) DO UPDATE SET method = excluded.method, content_hash = excluded.content_hash,
          settlement_date = excluded.settlement_date, reference_yield = excluded.reference_yield, clean_price = excluded.clean_price,
          bond_yield = excluded.bond_yield, modified_duration = excluded.modified_duration, pv01_per_100 = excluded.pv01_per_100,
          face_value_per_unit = excluded.face_value_per_unit, accrued_per_100 = excluded.accrued_per_100, reason = excluded.reason,
          valued_at = now(), isin = excluded.isin, display_name = excluded.display_name, issuer_name = excluded.issuer_name,
          credit_rating = excluded.credit_rating, security_type = excluded.security_type, face_value = excluded.face_value,
          maturity_date = excluded.maturity_date, perpetual = excluded.perpetual, reference_id = excluded.reference_id,
          reference_price_date = excluded.reference_price_date, reference_source = excluded.reference_source`);
    },

    /**
     * The firm's holdings changed after book version `version` (README "Speed": a node's delta), zero ones
     * included (a holding sold out leaves the book), with their bonds and reference picks as `book`.
     */
    async holdingsSince(clientId: string, version: number): Promise<BookRowSet> {
      return bookRows(db, sql`p.client_id = ${clientId} AND p.version > ${version}`);
    },

    /** Bonds by id with their reference price waterfall picks (a node re-values the bonds whose inputs changed). */
    async bondsWithReferences(ids: readonly number[]): Promise<Array<{ bond: BookBond; ref: ReferenceRow | null }>> {
      if (ids.length === 0) return [];
      const rows = await sqlRows(
        db,
        sql`SELECT ${BOND_ROW.select('f')}, ${REFERENCE_ROW.select('r')}
          FROM ${finstruments} f
          LEFT JOIN LATERAL (${PICK_OF(sql`f.id`)}) r ON true
          WHERE f.id = ANY(${pgArray(ids)}::int[])`,
      );
      return rows.map((raw) => ({ bond: BOND_ROW.decode(raw), ref: referenceOf(raw) }));
    },

    /**
     * The bonds whose valuation inputs changed after version `after` of the change log (migration 0031), each with
     * the latest version that changed it (`latest`, in the same order), and whether the log still holds every
     * version since (it keeps the last 1,000, each with at least one bond): when it does not, the caller values its
     * books from the start. Call only when the inputs' version is past `after`.
     */
    async inputChangesSince(after: number): Promise<{ complete: boolean; finstrumentIds: number[]; latest: number[] }> {
      const rows = await sqlRows<{ finstrument_id: number | null; version: string | number | null; oldest: string | number | null }>(
        db,
        sql`SELECT c.finstrument_id, c.version, (SELECT min(version) FROM ${valuationInputChanges}) AS oldest
          FROM (SELECT 1) one
          LEFT JOIN (SELECT finstrument_id, max(version) AS version FROM ${valuationInputChanges} WHERE version > ${after}
            GROUP BY finstrument_id) c ON true`,
      );
      const oldest = rows[0]?.oldest === null || rows[0]?.oldest === undefined ? null : Number(rows[0].oldest);
      const changed = rows.filter((r) => r.finstrument_id !== null);
      return {
        // Called when the version moved past `after`, so the log is not empty unless it was cut.
        complete: oldest !== null && oldest <= after + 1,
        finstrumentIds: changed.map((r) => Number(r.finstrument_id)),
        latest: changed.map((r) => Number(r.version)),
      };
    },

    /** The valuation inputs' version (migration 0031): raised by every write of a reference price or a bond's terms. */
    async inputsVersion(): Promise<number> {
      const [row] = await db.select({ version: valuationInputVersions.version }).from(valuationInputVersions);
      return row?.version ?? 0;
    },

    /**
     * Firms holding any of the bonds above zero, with how many of them each holds (`all`: every firm with a
     * book, and all its bonds): the books a change of these bonds' valuation inputs re-values.
     */
    async firmsHolding(ids: readonly number[] | 'all'): Promise<Array<{ clientId: string; bonds: number }>> {
      const rows = await sqlRows<{ client_id: string; bonds: string | number }>(
        db,
        sql`SELECT client_id, count(DISTINCT finstrument_id) AS bonds FROM ${inventoryPositions}
          WHERE face_value > 0 ${ids === 'all' ? sql`` : sql`AND finstrument_id = ANY(${pgArray(ids)}::int[])`}
          GROUP BY client_id ORDER BY client_id`,
      );
      return rows.map((r) => ({ clientId: r.client_id, bonds: Number(r.bonds) }));
    },

    /**
     * The firm's book row, its version (0 before its first change) and the valuation inputs' version, in one
     * statement: every read of the book starts here, so it is raw SQL (the query builder cost more than the query).
     */
    async bookState(clientId: string): Promise<{ book: BookRow | undefined; version: number; inputs: number }> {
      const [raw] = await sqlRows(
        db,
        sql`SELECT ${BOOK_ROW.select('b')}, v.version AS "version", i.version AS "inputs"
          FROM (SELECT ${clientId}::uuid AS client_id) firm
          LEFT JOIN ${inventoryBooks} b ON b.client_id = firm.client_id
          LEFT JOIN ${inventoryVersions} v ON v.client_id = firm.client_id
          LEFT JOIN ${valuationInputVersions} i ON i.id = 1`,
      );
      const bookId = raw?.[BOOK_ROW.nameOf('clientId')];
      return {
        book: bookId === null || bookId === undefined ? undefined : BOOK_ROW.decode(raw!),
        version: Number(raw?.version ?? 0),
        inputs: Number(raw?.inputs ?? 0),
      };
    },

    /**
     * Raises the firm's book version and returns it: call in the transaction of every change of its holdings,
     * after the firm's book row lock (`lockBook`), and stamp the changed holdings with it.
     */
    async bumpVersion(clientId: string): Promise<number> {
      const [row] = await db
        .insert(inventoryVersions)
        .values({ clientId, version: 1 })
        .onConflictDoUpdate({ target: inventoryVersions.clientId, set: { version: sql`${inventoryVersions.version} + 1` } })
        .returning({ version: inventoryVersions.version });
      return row!.version;
    },

    /** The reference price waterfall's pick per bond (finstruments README "Reference prices": lowest priority, latest date). */
    async bestReferences(finstrumentIds: number[]): Promise<Map<number, ReferenceRow>> {
      if (finstrumentIds.length === 0) return new Map();
      const rows = await db
        .selectDistinctOn([referencePrices.finstrumentId])
        .from(referencePrices)
        .where(inArray(referencePrices.finstrumentId, finstrumentIds))
        .orderBy(asc(referencePrices.finstrumentId), asc(referencePrices.priority), desc(referencePrices.priceDate));
      return new Map(rows.map((r) => [r.finstrumentId, r]));
    },

    async bondsByIsin(isins: string[]): Promise<Map<string, BondRow>> {
      if (isins.length === 0) return new Map();
      const rows = await db
        .select()
        .from(finstruments)
        .where(inArray(finstruments.isin, [...new Set(isins)]));
      return new Map(rows.map((r) => [r.isin, r]));
    },

    async bond(id: number): Promise<BondRow | undefined> {
      const [row] = await db.select().from(finstruments).where(eq(finstruments.id, id));
      return row;
    },

    /** One holding of the firm, locked for update when `lock` (inside a transaction). */
    async position(clientId: string, id: string, lock = false): Promise<PositionRow | undefined> {
      const query = db
        .select()
        .from(inventoryPositions)
        .where(and(eq(inventoryPositions.id, id), eq(inventoryPositions.clientId, clientId)));
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },

    /** The holding of a bond in an account, locked; created empty (zero face, zero cost) when absent. */
    async lockOrCreate(clientId: string, finstrumentId: number, account: string, asOf: string): Promise<PositionRow> {
      await db
        .insert(inventoryPositions)
        .values({ clientId, finstrumentId, account, faceValue: 0, costPaise: 0, asOf })
        .onConflictDoNothing({ target: [inventoryPositions.clientId, inventoryPositions.finstrumentId, inventoryPositions.account] });
      const [row] = await db
        .select()
        .from(inventoryPositions)
        .where(
          and(
            eq(inventoryPositions.clientId, clientId),
            eq(inventoryPositions.finstrumentId, finstrumentId),
            eq(inventoryPositions.account, account),
          ),
        )
        .for('update');
      return row!;
    },

    async updatePosition(
      id: string,
      set: Partial<Pick<PositionRow, 'faceValue' | 'costPaise' | 'realisedPnlPaise' | 'asOf'>> & { version: number },
    ): Promise<PositionRow> {
      const [row] = await db
        .update(inventoryPositions)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(inventoryPositions.id, id))
        .returning();
      return row!;
    },

    async insertMovement(values: typeof inventoryMovements.$inferInsert): Promise<MovementRow> {
      const [row] = await db.insert(inventoryMovements).values(values).returning();
      return row!;
    },

    /** The holding of a bond in an account, locked, or undefined when the firm has none there. */
    async holdingIn(clientId: string, finstrumentId: number, account: string): Promise<PositionRow | undefined> {
      const [row] = await db
        .select()
        .from(inventoryPositions)
        .where(
          and(
            eq(inventoryPositions.clientId, clientId),
            eq(inventoryPositions.finstrumentId, finstrumentId),
            eq(inventoryPositions.account, account),
          ),
        )
        .for('update');
      return row;
    },

    async custodianName(id: string): Promise<string | undefined> {
      const [row] = await db.select({ name: custodians.name }).from(custodians).where(eq(custodians.id, id));
      return row?.name;
    },

    async movementOfOrder(orderId: string): Promise<MovementRow | undefined> {
      const [row] = await db.select().from(inventoryMovements).where(eq(inventoryMovements.orderId, orderId));
      return row;
    },

    async bookDate(clientId: string): Promise<BookRow | undefined> {
      const [row] = await db.select().from(inventoryBooks).where(eq(inventoryBooks.clientId, clientId));
      return row;
    },

    /** The firm's book row, created at `today` when it has none yet; locked. */
    async lockBook(clientId: string, today: string): Promise<BookRow> {
      await db.insert(inventoryBooks).values({ clientId, bookDate: today }).onConflictDoNothing({ target: inventoryBooks.clientId });
      const [row] = await db.select().from(inventoryBooks).where(eq(inventoryBooks.clientId, clientId)).for('update');
      return row!;
    },

    async setBook(clientId: string, set: Partial<Pick<BookRow, 'bookDate' | 'confirmedAt' | 'confirmedBy'>>): Promise<BookRow> {
      const [row] = await db
        .update(inventoryBooks)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(inventoryBooks.clientId, clientId))
        .returning();
      return row!;
    },

    /** Confirm-previous: the firm's holdings are today's book (stamped with the book version `version`). */
    async carryForward(clientId: string, today: string, version: number): Promise<void> {
      await db
        .update(inventoryPositions)
        .set({ asOf: today, version, updatedAt: new Date() })
        .where(
          and(
            eq(inventoryPositions.clientId, clientId),
            sql`${inventoryPositions.faceValue} > 0`,
            sql`${inventoryPositions.asOf} < ${today}`,
          ),
        );
    },

    /** Every holding of the firm above zero (the snapshot confirm-previous records). */
    async holdings(clientId: string): Promise<PositionRow[]> {
      return db
        .select()
        .from(inventoryPositions)
        .where(and(eq(inventoryPositions.clientId, clientId), sql`${inventoryPositions.faceValue} > 0`));
    },
  };
}
export type InventoryRepository = ReturnType<typeof createInventoryRepository>;
