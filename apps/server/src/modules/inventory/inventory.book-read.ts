/**
 * How a book valued from the start is read (inventory README "Speed"): a firm's holdings and their bonds' figures
 * as a few JSON arrays per statement, decoded into the objects the book keeper values (`bookPartOf`), and the
 * reference price waterfall's pick the reads share. The repository's `bookPart`, `bookHoldingsPart`, `bookBonds`,
 * `bondsForBook` and `heldBondsWithoutFigures` are these functions on its database or transaction.
 */
import { sql, type SQL } from 'drizzle-orm';
import { sqlRows, type DbOrTx } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { finstruments, inventoryBondValuations, inventoryPositions, referencePrices } from '../../db/schema';
import type { BookBond, PositionRow, ReferenceRow } from './inventory.repository';

/** The reference price waterfall's pick of one bond (lowest priority, latest date) on `reference_prices_pick_idx`. */
export const PICK_OF = (finstrumentId: SQL) =>
  sql`SELECT * FROM ${referencePrices} pick WHERE pick.finstrument_id = ${finstrumentId} ORDER BY pick.priority ASC, pick.price_date DESC LIMIT 1`;

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
export async function bondInputs(
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

/** A part of the firm's holdings above zero: those of the bonds whose id is `index` modulo `of` (`bookPart`). */
const holdingsOfPart = (clientId: string, index: number, of: number) =>
  sql`SELECT id, finstrument_id, account, face_value, cost_paise, realised_pnl_paise, as_of, updated_at FROM ${inventoryPositions}
    WHERE client_id = ${clientId} AND face_value > 0 AND finstrument_id % ${of}::int = ${index}::int`;
/** The holdings of CTE `h` as `HoldingColumns`. */
const HOLDING_COLUMNS = sql`(SELECT json_build_array(json_agg(id), json_agg(finstrument_id), json_agg(account), json_agg(face_value),
    json_agg(cost_paise), json_agg(realised_pnl_paise), json_agg(as_of),
    json_agg((extract(epoch FROM updated_at) * 1000000)::bigint)) FROM h)`;
/**
 * The bonds of `ids` (a one-column select) with their stored figures valid for `settlement` and `method`, when
 * any: the `held` CTE of `bookPart` and `bookBonds` (why a CTE and a lateral lookup: `bookPart`).
 */
const heldBonds = (ids: SQL, settlement: string, method: number) =>
  sql`SELECT ids.id, v.finstrument_id IS NOT NULL AS stored, v.isin, v.display_name, v.issuer_name, v.credit_rating,
      v.security_type, v.face_value, v.maturity_date, v.perpetual, v.reference_id, v.reference_price_date, v.reference_yield,
      v.reference_source, v.clean_price, v.bond_yield, v.modified_duration, v.pv01_per_100, v.face_value_per_unit,
      v.accrued_per_100, v.reason
    FROM (${ids}) ids(id)
    LEFT JOIN LATERAL (SELECT * FROM ${inventoryBondValuations} v
      WHERE v.finstrument_id = ids.id AND ${storedFor(method, settlement)} LIMIT 1) v ON true`;
/**
 * The bonds of CTE `held` as `BondColumns`, in book order: a stored bond from its stored row alone, the others
 * looked up in `finstruments` and `reference_prices` with their terms.
 */
const BOND_COLUMNS = sql`(SELECT json_build_array(json_agg(id), json_agg(isin), json_agg(display_name), json_agg(issuer_name),
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
    ) u ORDER BY maturity_date NULLS LAST, isin COLLATE "C") b)`;

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
export async function readBookPart(
  db: DbOrTx,
  clientId: string,
  settlement: string,
  method: number,
  [index, of]: [index: number, of: number],
): Promise<BookPart> {
  const [row] = await sqlRows<{ holdings: unknown; bonds: unknown }>(
    db,
    sql`WITH h AS MATERIALIZED (${holdingsOfPart(clientId, index, of)}),
      held AS MATERIALIZED (${heldBonds(sql`SELECT DISTINCT finstrument_id FROM h`, settlement, method)})
      SELECT ${HOLDING_COLUMNS} AS holdings, ${BOND_COLUMNS} AS bonds`,
  );
  return bookPartOf(jsonOf<HoldingColumns | null>(row?.holdings), jsonOf<BondColumns | null>(row?.bonds));
}

/**
 * Part `[index, of]` of the firm's holdings above zero alone (as `readBookPart` reads them): a node that has the
 * bonds' figures already (`inventory.bonds.ts`) reads only these, about a third of `readBookPart`'s work.
 */
export async function readHoldingsPart(db: DbOrTx, clientId: string, [index, of]: [index: number, of: number]): Promise<BookPosition[]> {
  const [row] = await sqlRows<{ holdings: unknown }>(
    db,
    sql`WITH h AS (${holdingsOfPart(clientId, index, of)}) SELECT ${HOLDING_COLUMNS} AS holdings`,
  );
  return bookPartOf(jsonOf<HoldingColumns | null>(row?.holdings), null).holdings;
}

/**
 * Bonds (`ids`, or every bond any firm holds above zero: `'held'`) as `readBookPart` reads a part's bonds: in
 * book order, with their reference picks and the stored figures valid for `settlement` and `method`, the
 * terms of those without. What a node lacks of a book's bonds, and the start's fill of its figures.
 */
export async function readBookBonds(
  db: DbOrTx,
  ids: readonly number[] | 'held',
  settlement: string,
  method: number,
): Promise<HeldBondInputs[]> {
  if (ids !== 'held' && ids.length === 0) return [];
  const source =
    ids === 'held'
      ? sql`SELECT DISTINCT finstrument_id FROM ${inventoryPositions} WHERE face_value > 0`
      : sql`SELECT unnest(${pgArray(ids)}::int[])`;
  const [row] = await sqlRows<{ bonds: unknown }>(
    db,
    sql`WITH held AS MATERIALIZED (${heldBonds(source, settlement, method)}) SELECT ${BOND_COLUMNS} AS bonds`,
  );
  return bookPartOf(null, jsonOf<BondColumns | null>(row?.bonds)).bonds;
}
