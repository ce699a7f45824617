/**
 * SQL of the inventory module: positions (always under the caller's firm: every query takes `clientId`),
 * their movements, the book date, and the bonds and reference prices the valuation reads. Each function takes
 * the database or a transaction (`createInventoryRepository(tx)`).
 */
import { and, asc, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { sqlRows, type DbOrTx } from '../../db/client';
import { rowDecoder } from '../../db/row-decoder';
import {
  custodians,
  finstruments,
  inventoryBooks,
  inventoryMovements,
  inventoryPositions,
  inventoryVersions,
  referencePrices,
} from '../../db/schema';

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

export function createInventoryRepository(db: DbOrTx) {
  return {
    /** The firm's holdings with their bonds (zero holdings are kept for their realised P&L but not listed). */
    /**
     * The firm's holdings with their bonds and each bond's reference price waterfall pick (lowest priority,
     * latest date; finstruments README "Reference prices"), in one statement: the pick is a lateral lookup on
     * `reference_prices_pick_idx` per holding. Raw SQL decoded by the columns' own decoders: for a book of
     * 10,000 holdings the query builder's per-field mapping cost more than the query (README "Speed").
     */
    async book(clientId: string, account?: string): Promise<Array<{ position: PositionRow; bond: BookBond; ref: ReferenceRow | null }>> {
      const rows = await sqlRows(
        db,
        sql`SELECT ${POSITION_ROW.select('p')}, ${BOND_ROW.select('f')}, ${REFERENCE_ROW.select('r')}
          FROM ${inventoryPositions} p
          JOIN ${finstruments} f ON f.id = p.finstrument_id
          LEFT JOIN LATERAL (
            SELECT * FROM ${referencePrices} pick WHERE pick.finstrument_id = p.finstrument_id
            ORDER BY pick.priority ASC, pick.price_date DESC LIMIT 1
          ) r ON true
          WHERE p.client_id = ${clientId} AND p.face_value > 0 ${account ? sql`AND p.account = ${account}` : sql``}
          ORDER BY f.maturity_date ASC, f.isin ASC, p.account ASC`,
      );
      const refId = REFERENCE_ROW.nameOf('id');
      return rows.map((raw) => ({
        position: POSITION_ROW.decode(raw),
        bond: BOND_ROW.decode(raw),
        ref: raw[refId] === null || raw[refId] === undefined ? null : REFERENCE_ROW.decode(raw),
      }));
    },

    /** The firm's book row and its version (0 before its first change), in one statement. */
    async bookState(clientId: string): Promise<{ book: BookRow | undefined; version: number }> {
      const [row] = await db
        .select({ book: inventoryBooks, version: inventoryVersions.version })
        .from(sql`(select ${clientId}::uuid as client_id) as firm`)
        .leftJoin(inventoryBooks, sql`${inventoryBooks.clientId} = firm.client_id`)
        .leftJoin(inventoryVersions, sql`${inventoryVersions.clientId} = firm.client_id`);
      return { book: row?.book ?? undefined, version: row?.version ?? 0 };
    },

    /** Raises the firm's book version: call in the transaction of every change of its holdings. */
    async bumpVersion(clientId: string): Promise<void> {
      await db
        .insert(inventoryVersions)
        .values({ clientId, version: 1 })
        .onConflictDoUpdate({ target: inventoryVersions.clientId, set: { version: sql`${inventoryVersions.version} + 1` } });
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
      set: Partial<Pick<PositionRow, 'faceValue' | 'costPaise' | 'realisedPnlPaise' | 'asOf'>>,
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

    /** Confirm-previous: the firm's holdings are today's book. */
    async carryForward(clientId: string, today: string): Promise<void> {
      await db
        .update(inventoryPositions)
        .set({ asOf: today, updatedAt: new Date() })
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
