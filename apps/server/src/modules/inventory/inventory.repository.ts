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

/** The reference price waterfall's pick of one bond (lowest priority, latest date) on `reference_prices_pick_idx`. */
const PICK_OF = (finstrumentId: SQL) =>
  sql`SELECT * FROM ${referencePrices} pick WHERE pick.finstrument_id = ${finstrumentId} ORDER BY pick.priority ASC, pick.price_date DESC LIMIT 1`;
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

/** A bond's stored figures for one unit, as the valuation reads them (null: none valid for these inputs). */
export type StoredFigures =
  | { clean: number; bondYield: number; modifiedDuration: number; pv01Per100: number; faceValuePerUnit: number; accruedPer100: number }
  | { reason: string };

/** One bond of a book being valued from the start: its row, reference pick and stored figures valid for them. */
export interface BookBondInputs {
  bond: BookBond;
  ref: ReferenceRow | null;
  stored: StoredFigures | null;
}

/** What a node stores of a bond it valued itself (`storeValuations`). */
export interface BondFiguresToStore {
  finstrumentId: number;
  contentHash: string;
  referenceYield: number | null;
  figures: StoredFigures;
}

/** A `json` column as the driver gives it: node-postgres parses it, the embedded driver may hand the text. */
const jsonOf = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

/**
 * Whether a stored figure row `v` is one for this valuing code and settlement date: all a reader checks. A row is
 * otherwise valid by construction (migration 0033; `storeValuations`): a change of the bond's terms, of what a book
 * shows of it or of its reference pick deletes it in the writer's transaction, and a store is serialised with those
 * writers.
 */
const storedFor = (method: number, settlement: string) => sql`v.method = ${method} AND v.settlement_date = ${settlement}::date`;

/**
 * Bonds (`ids`) with their reference picks and the stored figures valid for them on `settlement` with `method`
 * (`storedFor`).
 * The rows come as one JSON array (README "Speed"): one parse of one value costs a fraction of the driver's
 * per-row, per-field decoding of 5,000 rows of 30 columns, and of the garbage it leaves. JSON keeps every value:
 * dates as their text, float8 in its shortest exact form, jsonb as itself.
 */
async function bondInputs(
  db: DbOrTx,
  ids: readonly number[],
  settlement: string,
  method: number,
  onlyUnstored = false,
): Promise<BookBondInputs[]> {
  if (ids.length === 0) return [];
  const valid = storedFor(method, settlement);
  const [row] = await sqlRows<{ bonds: unknown }>(
    db,
    sql`SELECT json_agg(json_build_array(f.id, f.isin, f.display_name, f.issuer_name, f.credit_rating, f.security_type,
        f.coupon_rate, f.coupon_frequency, f.face_value, f.issue_date, f.listing_date, f.maturity_date, f.perpetual,
        f.tenor_days, f.call_schedule, f.put_schedule, f.content_hash,
        r.id, r.price_date, r.clean_price, r.yield_fraction, r.source, r.priority, r.detail,
        ${valid},
        v.clean_price, v.bond_yield, v.modified_duration, v.pv01_per_100, v.face_value_per_unit, v.accrued_per_100,
        v.reason)) AS bonds
      FROM unnest(${pgArray(ids)}::int[]) AS b(id)
      JOIN ${finstruments} f ON f.id = b.id
      LEFT JOIN LATERAL (${PICK_OF(sql`f.id`)}) r ON true
      LEFT JOIN ${inventoryBondValuations} v ON v.finstrument_id = f.id
      ${onlyUnstored ? sql`WHERE NOT coalesce(${valid}, false)` : sql``}`,
  );
  type Raw = [
    number,
    string,
    string,
    string | null,
    string | null,
    string,
    number | null,
    number | null,
    number | null,
    string | null,
    string | null,
    string | null,
    boolean,
    number | null,
    BookBond['callSchedule'],
    BookBond['putSchedule'],
    string,
    number | null,
    string,
    number | null,
    number,
    string,
    number,
    string | null,
    boolean | null,
    number,
    number,
    number,
    number,
    number,
    number,
    string | null,
  ];
  return (jsonOf<Raw[] | null>(row?.bonds) ?? []).map((r) => ({
    bond: {
      id: r[0],
      isin: r[1],
      displayName: r[2],
      issuerName: r[3],
      creditRating: r[4],
      securityType: r[5],
      couponRate: r[6],
      couponFrequency: r[7],
      faceValue: r[8],
      issueDate: r[9],
      listingDate: r[10],
      maturityDate: r[11],
      perpetual: r[12],
      tenorDays: r[13],
      callSchedule: r[14],
      putSchedule: r[15],
      contentHash: r[16],
    },
    ref:
      r[17] === null
        ? null
        : {
            id: r[17],
            finstrumentId: r[0],
            priceDate: r[18],
            cleanPrice: r[19],
            yieldFraction: r[20],
            source: r[21],
            priority: r[22],
            detail: r[23],
          },
    stored:
      r[24] !== true
        ? null
        : r[31] !== null
          ? { reason: r[31] }
          : { clean: r[25], bondYield: r[26], modifiedDuration: r[27], pv01Per100: r[28], faceValuePerUnit: r[29], accruedPer100: r[30] },
  }));
}

/** What a book valued from the start reads of a holding (`bookPart`; a delta reads the whole row). */
export type BookPosition = Pick<
  PositionRow,
  'id' | 'finstrumentId' | 'account' | 'faceValue' | 'costPaise' | 'realisedPnlPaise' | 'asOf'
> & {
  /** The row's time, or as the book's read gives it, in microseconds since 1970 (made a date for a page only). */
  updatedAt: Date | number;
};
/**
 * What valuing and listing a holding reads of its bond; the terms and their content hash (the rest of `BookBond`)
 * only to price it.
 */
export type HeldBond = Pick<
  BookBond,
  'id' | 'isin' | 'displayName' | 'issuerName' | 'creditRating' | 'securityType' | 'faceValue' | 'maturityDate' | 'perpetual'
>;
/** What valuing reads of a reference pick (the yield, and what the holding shows of its source). */
export type HeldReference = Pick<ReferenceRow, 'id' | 'priceDate' | 'yieldFraction' | 'source'>;

/**
 * A bond of a book valued from the start: stored figures valid for its inputs and no terms, or (none valid) its
 * terms to price it with.
 */
export type HeldBondInputs =
  { bond: HeldBond; ref: HeldReference | null; stored: StoredFigures } | { bond: BookBond; ref: HeldReference | null; stored: null };

/**
 * One part of a book valued from the start (`bookPart`): holdings and their bonds, the bonds in book order
 * (maturity, perpetuals and unknown last, then ISIN in code-point order).
 *
 * Both come column by column (README "Speed", round 4): one JSON array per column (`json_agg` of a column is
 * about half PostgreSQL's work of `json_build_array` per row, and the node parses a few long arrays instead of
 * 15,000 small ones), and only what valuing and the page read: a bond's terms only when it has no stored figures
 * valid for its inputs (the `terms` column: [id, content hash, coupon rate, frequency, issue, listing, tenor, call
 * and put schedules] per such bond, none when all are stored). JSON keeps every value: dates as their text, float8
 * in its shortest exact form, jsonb as itself; paise, face values and times in microseconds are whole numbers far
 * below 2^53.
 */
export interface BookPart {
  holdings: BookPosition[];
  bonds: HeldBondInputs[];
}
/** A part's holdings as its read returns them, column by column: id, bond, account, face, cost, realised P&L, as-of, updated (µs). */
export type HoldingColumns = [string[], number[], string[], number[], number[], number[], string[], number[]];
/** A part's bonds as its read returns them, column by column (`bookPart`'s select list), then the terms of those without figures. */
export type BondColumns = [
  number[],
  string[],
  string[],
  Array<string | null>,
  Array<string | null>,
  string[],
  Array<number | null>,
  Array<string | null>,
  boolean[],
  Array<number | null>,
  Array<string | null>,
  Array<number | null>,
  Array<string | null>,
  Array<number | null>,
  Array<number | null>,
  Array<number | null>,
  Array<number | null>,
  Array<number | null>,
  Array<number | null>,
  Array<string | null>,
  BondTermsRow[] | null,
];

/**
 * A bond's terms as the book's read returns them when it has no valid stored figures (`bookPart`'s
 * `json_build_array`): id, content hash, coupon rate, coupon frequency, issue date, listing date, tenor days,
 * call and put schedules.
 */
export type BondTermsRow = [
  number,
  string,
  number | null,
  number | null,
  string | null,
  string | null,
  number | null,
  BookBond['callSchedule'],
  BookBond['putSchedule'],
];

/**
 * The bond to price, from what the read gave of it and its terms. Every field written out (no spread), always in
 * this order: one object shape for every bond priced from a book's read, and for the valuation warm-up's canaries
 * (`inventory.warm-up.ts`), which give V8 that shape before the first book.
 */
export function pricedBondOf(held: HeldBond, t: BondTermsRow): BookBond {
  return {
    id: held.id,
    isin: held.isin,
    displayName: held.displayName,
    issuerName: held.issuerName,
    creditRating: held.creditRating,
    securityType: held.securityType,
    faceValue: held.faceValue,
    maturityDate: held.maturityDate,
    perpetual: held.perpetual,
    contentHash: t[1],
    couponRate: t[2],
    couponFrequency: t[3],
    issueDate: t[4],
    listingDate: t[5],
    tenorDays: t[6],
    callSchedule: t[7],
    putSchedule: t[8],
  };
}

/** A part's objects from its columns (`bookPart`; the valuation warm-up's canary books). */
export function bookPartOf(holdingColumns: HoldingColumns | null, bondColumns: BondColumns | null): BookPart {
  const holdings: BookPosition[] = [];
  // No holdings: every aggregate is null.
  const [ids, finstrumentIds, accounts, faces, costs, realised, asOfs, updated] = holdingColumns ?? [];
  for (let i = 0; i < (ids?.length ?? 0); i++)
    holdings.push({
      id: ids![i]!,
      finstrumentId: finstrumentIds![i]!,
      account: accounts![i]!,
      faceValue: faces![i]!,
      costPaise: costs![i]!,
      realisedPnlPaise: realised![i]!,
      asOf: asOfs![i]!,
      updatedAt: updated![i]!,
    });
  const bonds: HeldBondInputs[] = [];
  if (!bondColumns || bondColumns[0] === null) return { holdings, bonds };
  const [
    id,
    isin,
    displayName,
    issuerName,
    creditRating,
    securityType,
    faceValue,
    maturityDate,
    perpetual,
    refId,
    priceDate,
    yieldFraction,
    source,
    clean,
    bondYield,
    modifiedDuration,
    pv01Per100,
    faceValuePerUnit,
    accruedPer100,
    reason,
    termRows,
  ] = bondColumns;
  const terms = new Map((termRows ?? []).map((t) => [t[0], t]));
  for (let i = 0; i < id.length; i++) {
    const held: HeldBond = {
      id: id[i]!,
      isin: isin[i]!,
      displayName: displayName[i]!,
      issuerName: issuerName[i]!,
      creditRating: creditRating[i]!,
      securityType: securityType[i]!,
      faceValue: faceValue[i]!,
      maturityDate: maturityDate[i]!,
      perpetual: perpetual[i]!,
    };
    const ref =
      refId[i] === null ? null : { id: refId[i]!, priceDate: priceDate[i]!, yieldFraction: yieldFraction[i]!, source: source[i]! };
    const t = terms.get(held.id);
    if (t) bonds.push({ bond: pricedBondOf(held, t), ref, stored: null });
    else
      bonds.push({
        bond: held,
        ref,
        stored:
          reason[i] !== null
            ? { reason: reason[i]! }
            : {
                clean: clean[i]!,
                bondYield: bondYield[i]!,
                modifiedDuration: modifiedDuration[i]!,
                pv01Per100: pv01Per100[i]!,
                faceValuePerUnit: faceValuePerUnit[i]!,
                accruedPer100: accruedPer100[i]!,
              },
      });
  }
  return { holdings, bonds };
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

    /**
     * Part `[index, of]` of the firm's book valued from the start (README "Speed"): its holdings above zero of the
     * bonds whose id is `index` modulo `of`, and those bonds with their reference picks and stored figures, in one
     * statement, so one snapshot: every holding's bond is in it. What is read and how: `BookPart`. A bond with
     * stored figures for this code and date (`storedFor`) is read from its stored row alone, which carries what the
     * book shows of it and of its reference pick (migration 0033): one index lookup. Only the others are looked up in
     * `finstruments` and `reference_prices`; the `held` CTE decides which, so the planner cannot look every bond up
     * before filtering (it did, with an anti-join on top). The stored row is a lateral lookup that cannot be
     * flattened (`LIMIT 1`; one row at most by its key): as a plain join, a table without statistics (a new
     * database, or none taken since the figures were stored: no autovacuum) was estimated at one row and joined by
     * rescanning it for every bond, 25 ms a part becoming 380 ms.
     */
    async bookPart(clientId: string, settlement: string, method: number, [index, of]: [index: number, of: number]): Promise<BookPart> {
      const [row] = await sqlRows<{ holdings: unknown; bonds: unknown }>(
        db,
        sql`WITH h AS MATERIALIZED (
            SELECT id, finstrument_id, account, face_value, cost_paise, realised_pnl_paise, as_of, updated_at FROM ${inventoryPositions}
            WHERE client_id = ${clientId} AND face_value > 0 AND finstrument_id % ${of}::int = ${index}::int),
          held AS MATERIALIZED (
            SELECT ids.id, v.finstrument_id IS NOT NULL AS stored, v.isin, v.display_name, v.issuer_name, v.credit_rating,
              v.security_type, v.face_value, v.maturity_date, v.perpetual, v.reference_id, v.reference_price_date, v.reference_yield,
              v.reference_source, v.clean_price, v.bond_yield, v.modified_duration, v.pv01_per_100, v.face_value_per_unit,
              v.accrued_per_100, v.reason
            FROM (SELECT DISTINCT finstrument_id FROM h) ids(id)
            LEFT JOIN LATERAL (SELECT * FROM ${inventoryBondValuations} v
              WHERE v.finstrument_id = ids.id AND ${storedFor(method, settlement)} LIMIT 1) v ON true)
          SELECT
            (SELECT json_build_array(json_agg(id), json_agg(finstrument_id), json_agg(account), json_agg(face_value),
              json_agg(cost_paise), json_agg(realised_pnl_paise), json_agg(as_of),
              json_agg((extract(epoch FROM updated_at) * 1000000)::bigint)) FROM h) AS holdings,
            (SELECT json_build_array(json_agg(id), json_agg(isin), json_agg(display_name), json_agg(issuer_name),
              json_agg(credit_rating), json_agg(security_type), json_agg(face_value), json_agg(maturity_date), json_agg(perpetual),
              json_agg(ref_id), json_agg(price_date), json_agg(yield_fraction), json_agg(source),
              json_agg(clean_price), json_agg(bond_yield), json_agg(modified_duration), json_agg(pv01_per_100),
              json_agg(face_value_per_unit), json_agg(accrued_per_100), json_agg(reason),
              json_agg(terms) FILTER (WHERE terms IS NOT NULL))
            FROM (SELECT * FROM (
              SELECT id, isin, display_name, issuer_name, credit_rating, security_type, face_value, maturity_date, perpetual,
                reference_id AS ref_id, reference_price_date AS price_date, reference_yield AS yield_fraction,
                reference_source AS source, clean_price, bond_yield, modified_duration, pv01_per_100, face_value_per_unit,
                accrued_per_100, reason, NULL::json AS terms
              FROM held WHERE stored
              UNION ALL
              SELECT f.id, f.isin, f.display_name, f.issuer_name, f.credit_rating, f.security_type, f.face_value,
                f.maturity_date, f.perpetual, r.id, r.price_date, r.yield_fraction, r.source,
                NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                json_build_array(f.id, f.content_hash, f.coupon_rate, f.coupon_frequency, f.issue_date, f.listing_date,
                  f.tenor_days, f.call_schedule, f.put_schedule)
              FROM held JOIN ${finstruments} f ON f.id = held.id
              LEFT JOIN LATERAL (${PICK_OF(sql`f.id`)}) r ON true
              WHERE NOT held.stored
              ) u ORDER BY maturity_date NULLS LAST, isin COLLATE "C") b) AS bonds`,
      );
      return bookPartOf(jsonOf<HoldingColumns | null>(row?.holdings), jsonOf<BondColumns | null>(row?.bonds));
    },

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
     * The bonds whose valuation inputs changed after version `after` of the change log (migration 0031), and
     * whether the log still holds every version since (it keeps the last 1,000, each with at least one bond):
     * when it does not, the caller values its books from the start. Call only when the inputs' version is past
     * `after`.
     */
    async inputChangesSince(after: number): Promise<{ complete: boolean; finstrumentIds: number[] }> {
      const rows = await sqlRows<{ finstrument_id: number | null; oldest: string | number | null }>(
        db,
        sql`SELECT c.finstrument_id, (SELECT min(version) FROM ${valuationInputChanges}) AS oldest
          FROM (SELECT 1) one
          LEFT JOIN (SELECT DISTINCT finstrument_id FROM ${valuationInputChanges} WHERE version > ${after}) c ON true`,
      );
      const oldest = rows[0]?.oldest === null || rows[0]?.oldest === undefined ? null : Number(rows[0].oldest);
      return {
        // Called when the version moved past `after`, so the log is not empty unless it was cut.
        complete: oldest !== null && oldest <= after + 1,
        finstrumentIds: rows.flatMap((r) => (r.finstrument_id === null ? [] : [Number(r.finstrument_id)])),
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
