/**
 * From a finstrument row to a `@dart/bond-math` Bond, and the pricing calls the API makes. Every
 * number (accrued, price↔yield, consideration, cash flows, settlement dates) comes from bond-math;
 * this file only chooses the builder and fills documented defaults (see README.md "Assumptions").
 */
import {
  addDays,
  addMonths,
  adjustDate,
  assertSettlementAllowed,
  BondMathError,
  cleanPrice,
  convertYield,
  createCorporateBond,
  createDiscountInstrument,
  createGovernmentSecurity,
  createPerpetualBond,
  createZeroCouponBond,
  formatDate,
  getAccruedInterest,
  getBondSettlementDate,
  getCashflowSchedule,
  getMonth,
  getConsideration,
  getPriceFromYield,
  getRiskMeasures,
  getYieldFromPrice,
  getYear,
  INDIA_SETTLEMENT_CALENDAR,
  INDIAN_GOVERNMENT_SECURITY,
  isInShutPeriod,
  makeYield,
  parseDate,
  toDirtyPrice,
  type Bond,
  type CalendarDate,
  type Compounding,
  type CouponFrequency,
} from '@dart/bond-math';

/** What pricing needs of a finstrument (a subset of the row). */
export interface PricingTerms {
  isin: string;
  displayName: string;
  securityType: string;
  /** Percent a year (7.26), as in the data. */
  couponRate: number | null;
  couponFrequency: number | null;
  faceValue: number | null;
  issueDate: string | null;
  listingDate: string | null;
  maturityDate: string | null;
  perpetual: boolean;
  tenorDays: number | null;
  callSchedule: Array<{ date: string; price: number }>;
  putSchedule: Array<{ date: string; price: number }>;
}

export type BuildResult = { ok: true; bond: Bond } | { ok: false; reason: string };

const GOVERNMENT_COUPON_TYPES = new Set(['G-Sec', 'SDL']);
const DISCOUNT_KINDS: Record<string, 'treasury-bill' | 'commercial-paper' | 'certificate-of-deposit'> = {
  'T-Bill': 'treasury-bill',
  'Commercial Paper': 'commercial-paper',
  'Certificate of Deposit': 'certificate-of-deposit',
};
const CORPORATE_TYPES = new Set(['Bond/NCD', 'Municipal Bond', 'Securitised Debt (PTC)', 'ZCZP (Social Stock Exchange)']);

/** Reasons a type can never be priced as a bond here (shown as the 'NA' tooltip detail). */
const NEVER_PRICEABLE: Record<string, string> = {
  SGB: 'Sovereign gold bonds are priced per gram of gold, not per ₹100 of face value.',
  'Security Receipt': 'Security receipts have no contractual cash flows.',
  'G-Sec FRB': 'The floating-rate coupon is not known.',
};

/** Day-count label per type (the bond-math preset decides the actual convention). */
export function dayCountFor(securityType: string): string | null {
  if (
    GOVERNMENT_COUPON_TYPES.has(securityType) ||
    securityType === 'G-Sec STRIPS' ||
    securityType === 'G-Sec FRB' ||
    securityType === 'SGB'
  )
    return '30E/360';
  if (DISCOUNT_KINDS[securityType]) return 'ACT/365F';
  if (CORPORATE_TYPES.has(securityType)) return 'ACT/365-366-SEBI';
  return null;
}

/** How many coupon periods back from maturity `lastRollDate` looks before it gives up (settlement instead). */
const MAX_ROLLS_BACK = 2400;

/**
 * The last date on the maturity's coupon roll on or before `settlement` (issue date unknown in the data): the
 * first k = 1, 2, … with maturity − k periods ≤ settlement. The roll dates fall as k grows, so the walk starts at
 * the whole periods between the two months and steps to the answer (a 30-year bond took 60 calendar steps from
 * maturity; a fifth of the CPU of valuing a book from nothing). Held to the walk from k = 1 by the unit test.
 */
export function lastRollDate(maturity: CalendarDate, frequency: number, settlement: CalendarDate): CalendarDate {
  const rollBack = (k: number) => addMonths(maturity, (-k * 12) / frequency);
  const monthsApart = (getYear(maturity) - getYear(settlement)) * 12 + getMonth(maturity) - getMonth(settlement);
  let k = Math.min(MAX_ROLLS_BACK - 1, Math.max(1, Math.floor((monthsApart * frequency) / 12)));
  while (k > 1 && rollBack(k - 1) <= settlement) k--;
  while (k < MAX_ROLLS_BACK && rollBack(k) > settlement) k++;
  return k < MAX_ROLLS_BACK ? rollBack(k) : settlement;
}

function knownDate(text: string | null, before: CalendarDate, notAfter: CalendarDate): CalendarDate | null {
  if (!text) return null;
  const d = parseDate(text);
  return d < before && d <= notAfter ? d : null;
}

/**
 * Builds the bond-math instrument for pricing on `settlement`.
 * @returns the bond, or the reason it cannot be priced (the 'NA' case).
 */
export function buildBond(terms: PricingTerms, settlement: CalendarDate): BuildResult {
  const never = NEVER_PRICEABLE[terms.securityType];
  if (never) return { ok: false, reason: never };
  if (terms.perpetual && terms.callSchedule.length === 0) return { ok: false, reason: 'Perpetual bond without a known call schedule.' };
  if (!terms.maturityDate && !terms.perpetual) return { ok: false, reason: 'The maturity date is not known.' };
  // Each builder's spec is one literal with every field named (an absent face value is `undefined`, which every
  // builder reads as ₹100): a spread of a shared identity object made each spec a slow-path copy, and the
  // builders' every read of it a slow load — 60 % of building 5,000 SDLs (README "Speed", issue 14).
  const identifier = terms.isin;
  const description = terms.displayName;
  const faceValuePerUnit = terms.faceValue || undefined;
  const calls = terms.callSchedule.map((c) => ({ date: parseDate(c.date), pricePer100: c.price }));
  const puts = terms.putSchedule.map((c) => ({ date: parseDate(c.date), pricePer100: c.price }));
  try {
    if (terms.perpetual) {
      const issueDate = terms.issueDate ? parseDate(terms.issueDate) : addMonths(calls[0]!.date, -60);
      return {
        ok: true,
        bond: createPerpetualBond({
          identifier,
          description,
          faceValuePerUnit,
          issueDate,
          couponRate: (terms.couponRate ?? 0) / 100,
          frequency: (terms.couponFrequency ?? 1) as CouponFrequency,
          callSchedule: calls,
        }),
      };
    }
    const maturity = parseDate(terms.maturityDate!);
    if (maturity <= settlement) return { ok: false, reason: 'The bond matures on or before the settlement date.' };
    const discountKind = DISCOUNT_KINDS[terms.securityType];
    if (discountKind) {
      const issueDate =
        knownDate(terms.issueDate, maturity, settlement) ??
        knownDate(terms.listingDate, maturity, settlement) ??
        (terms.tenorDays && addDays(maturity, -terms.tenorDays) <= settlement ? addDays(maturity, -terms.tenorDays) : settlement);
      return {
        ok: true,
        bond: createDiscountInstrument({
          identifier,
          description,
          faceValuePerUnit,
          kind: discountKind,
          issueDate,
          maturityDate: maturity,
        }),
      };
    }
    if (terms.securityType === 'G-Sec STRIPS') {
      const issueDate = knownDate(terms.listingDate, maturity, settlement) ?? settlement;
      // STRIPS are quoted on the G-sec street convention (semi-annual yield, 30E/360).
      return {
        ok: true,
        bond: createZeroCouponBond({
          identifier,
          description,
          faceValuePerUnit,
          issueDate,
          maturityDate: maturity,
          convention: INDIAN_GOVERNMENT_SECURITY,
        }),
      };
    }
    if (terms.couponRate === null) return { ok: false, reason: 'The coupon rate is not known.' };
    if (GOVERNMENT_COUPON_TYPES.has(terms.securityType)) {
      if (terms.couponRate <= 0) return { ok: false, reason: 'The coupon rate is not known.' };
      return {
        ok: true,
        bond: createGovernmentSecurity({
          identifier,
          description,
          faceValuePerUnit,
          kind: terms.securityType === 'SDL' ? 'state-development-loan' : 'government-security',
          issueDate: lastRollDate(maturity, 2, settlement),
          maturityDate: maturity,
          couponRate: terms.couponRate / 100,
        }),
      };
    }
    if (CORPORATE_TYPES.has(terms.securityType)) {
      if (terms.couponRate <= 0) return { ok: false, reason: 'Zero-coupon or market-linked debenture: the redemption value is not known.' };
      const frequency = (terms.couponFrequency ?? 1) as CouponFrequency;
      const issueDate = knownDate(terms.issueDate, maturity, settlement) ?? lastRollDate(maturity, frequency, settlement);
      return {
        ok: true,
        bond: createCorporateBond({
          identifier,
          description,
          faceValuePerUnit,
          issueDate,
          maturityDate: maturity,
          couponRate: terms.couponRate / 100,
          frequency,
          callSchedule: calls,
          putSchedule: puts,
        }),
      };
    }
    return { ok: false, reason: `No pricing convention for ${terms.securityType}.` };
  } catch (error) {
    if (error instanceof BondMathError) return { ok: false, reason: `The terms cannot be priced (${error.code}).` };
    throw error;
  }
}

/** Today's date in India (IST, UTC+5:30), rolled to the next settlement business day. */
export function getTradeDate(now: Date): CalendarDate {
  const ist = new Date(now.getTime() + 330 * 60_000).toISOString().slice(0, 10);
  return adjustDate(parseDate(ist), 'following', INDIA_SETTLEMENT_CALENDAR);
}

export function getSettlementForDelta(bond: Bond | null, tradeDate: CalendarDate, delta: number): CalendarDate {
  if (bond) return getBondSettlementDate(bond, tradeDate, delta);
  // No bond to carry a convention: T+n on the same Indian settlement calendar.
  let date = tradeDate;
  for (let i = 0; i < delta; i++) date = adjustDate(addDays(date, 1), 'following', INDIA_SETTLEMENT_CALENDAR);
  return date;
}

export function isBusinessDay(date: CalendarDate): boolean {
  return INDIA_SETTLEMENT_CALENDAR.isBusinessDay(date);
}

export { assertSettlementAllowed, formatDate, isInShutPeriod, parseDate };

export interface PricePoint {
  cleanPer100: number;
  dirtyPer100: number;
  accruedPer100: number;
  /** Fraction in the bond's compounding. */
  yieldRate: number;
  compounding: Compounding;
}

/** Prices from a yield (fraction, in the bond's own compounding) or yields from a clean price. */
export function priceBond(bond: Bond, settlement: CalendarDate, input: { yield: number } | { price: number }): PricePoint {
  if ('yield' in input) {
    const result = getPriceFromYield(bond, settlement, makeYield(input.yield, bond.yieldCompounding));
    return {
      cleanPer100: result.cleanPrice.per100,
      dirtyPer100: result.dirtyPrice.per100,
      accruedPer100: result.accruedInterestPer100,
      yieldRate: input.yield,
      compounding: bond.yieldCompounding,
    };
  }
  const clean = cleanPrice(input.price);
  const y = getYieldFromPrice(bond, settlement, clean);
  return {
    cleanPer100: input.price,
    dirtyPer100: toDirtyPrice(bond, settlement, clean).per100,
    accruedPer100: getAccruedInterest(bond, settlement).per100,
    yieldRate: y.rate,
    compounding: y.compounding,
  };
}

/** A yield quoted in another compounding (e.g. the semi-annual G-sec curve) in the bond's own. */
export function toBondCompounding(bond: Bond, rate: number, from: Compounding): number {
  return convertYield(makeYield(rate, from), bond.yieldCompounding).rate;
}

export function getConsiderationRupees(bond: Bond, settlement: CalendarDate, units: number, clean: number) {
  const c = getConsideration(bond, settlement, units, cleanPrice(clean));
  return {
    quantity: units,
    face_value_per_unit: c.faceValuePerUnit,
    face_amount: c.faceAmountPaise / 100,
    clean_price: c.cleanPricePer100,
    accrued_interest_per_100: c.accruedInterestPer100,
    accrued_days: c.accruedDays,
    principal: c.principalPaise / 100,
    accrued_interest: c.accruedInterestPaise / 100,
    consideration: c.totalPaise / 100,
    stamp_duty: c.stampDutyPaise / 100,
    total: c.buyerPaysPaise / 100,
  };
}

export function getCashflowsRupees(bond: Bond, settlement: CalendarDate, units: number) {
  return getCashflowSchedule(bond, settlement, units).map((row) => ({
    due_date: formatDate(row.dueDate),
    payment_date: formatDate(row.paymentDate),
    record_date: row.recordDate === null ? null : formatDate(row.recordDate),
    coupon_rate: row.couponRate,
    interest: row.interestPaise / 100,
    principal: row.principalPaise / 100,
    total: row.totalPaise / 100,
  }));
}

/** Years from `from` to `to` on an actual/365.25 count: a tenor for the curve and filters, not a price. */
export function yearsBetween(from: CalendarDate, to: CalendarDate): number {
  return (to - from) / 365.25;
}

/** A yield in the bond's own compounding as a semi-annual one (the G-sec curve's). */
export function toSemiAnnual(bond: Bond, rate: number): number {
  return convertYield(makeYield(rate, bond.yieldCompounding), 'semi-annual').rate;
}

/** Durations, convexity and PV01 per ₹100 at a yield (fraction, the bond's own compounding), from bond-math. */
export function riskAt(bond: Bond, settlement: CalendarDate, rate: number) {
  const r = getRiskMeasures(bond, settlement, makeYield(rate, bond.yieldCompounding));
  return { macaulay: r.macaulayDurationYears, modified: r.modifiedDuration, convexity: r.convexity, pv01Per100: r.pv01Per100 };
}
