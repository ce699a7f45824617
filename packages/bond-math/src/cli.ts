/**
 * Batch calculator: one JSON request per line on stdin, one JSON result per line
 * on stdout. A bad line produces `{"ok":false,"error":{code,field,message}}` and
 * processing continues. The request format is documented in ../README.md.
 *
 * This module is the only one in the package that does I/O, and only in `runCli`;
 * `handleRequest` is pure and is what the tests call.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { CalendarDate } from './time/calendar-date';
import { addMonths, formatDate, parseDate } from './time/calendar-date';
import { INDIA_SETTLEMENT_CALENDAR } from './time/india-holidays';
import { getSettlementDate } from './time/settlement';
import type { CouponFrequency, DayCountName } from './day-count/day-count';
import { getDayCount, DAY_COUNT_NAMES } from './day-count/registry';
import type { SebiLeapYearRule } from './day-count/actual-365-366-sebi';
import type { Bond, ExerciseDate } from './instruments/bond';
import type { BondConvention, YieldMethod } from './conventions/market-conventions';
import { BOND_CONVENTIONS, INDIAN_GOVERNMENT_SECURITY, SEBI_CORPORATE_BOND } from './conventions/market-conventions';
import { createGovernmentSecurity } from './instruments/government-security';
import { createCorporateBond } from './instruments/corporate-bond';
import { createDiscountInstrument } from './instruments/discount-instrument';
import { createZeroCouponBond } from './instruments/zero-coupon-bond';
import { createFixedCouponBond } from './instruments/fixed-coupon-bond';
import { createFloatingRateGovernmentBond } from './instruments/floating-rate-bond';
import { createPerpetualBond } from './instruments/perpetual-bond';
import type { TermSheetCashflow } from './cashflows/term-sheet';
import { getCashflowSchedule } from './cashflows/cashflow-schedule';
import type { BondPrice, Compounding, Yield } from './pricing/quote';
import { getPriceFromYield, getYieldFromPrice, getAccruedInterest } from './pricing/price-yield';
import { getRiskMeasures } from './pricing/risk';
import { describeWorkouts } from './cli-workouts';
import { getConsideration } from './pricing/consideration';
import { formatPaise } from './pricing/money';
import { isInShutPeriod } from './pricing/settlement-checks';
import { BondMathError } from './errors';

type Json = Record<string, unknown>;

function fail(field: string, message: string): never {
  throw new BondMathError('INVALID_ARGUMENT', `${field}: ${message}`, field);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readNumber(source: Json, key: string, path: string): number | undefined {
  const value = source[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(`${path}${key}`, `must be a finite number, got ${JSON.stringify(value)}`);
  return value;
}

function requireNumber(source: Json, key: string, path: string): number {
  const value = readNumber(source, key, path);
  if (value === undefined) fail(`${path}${key}`, 'is required');
  return value;
}

function readDate(source: Json, key: string, path: string): CalendarDate | undefined {
  const value = source[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') fail(`${path}${key}`, 'must be a date string YYYY-MM-DD');
  return parseDate(value, `${path}${key}`);
}

function requireDate(source: Json, key: string, path: string): CalendarDate {
  const value = readDate(source, key, path);
  if (value === undefined) fail(`${path}${key}`, 'is required');
  return value;
}

function readString<T extends string>(source: Json, key: string, path: string, allowed: readonly T[]): T | undefined {
  const value = source[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    fail(`${path}${key}`, `must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`);
  }
  return value as T;
}

function readArray(source: Json, key: string, path: string): Json[] | undefined {
  const value = source[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every(isObject)) fail(`${path}${key}`, 'must be an array of objects');
  return value as Json[];
}

function readFrequency(source: Json, path: string, fallback?: CouponFrequency): CouponFrequency {
  const value = readNumber(source, 'frequency', path) ?? fallback;
  if (value !== 1 && value !== 2 && value !== 4 && value !== 12) fail(`${path}frequency`, 'must be 1, 2, 4 or 12');
  return value;
}

function readExercises(source: Json, key: string, path: string): ExerciseDate[] | undefined {
  return readArray(source, key, path)?.map((row, i) => ({
    date: requireDate(row, 'date', `${path}${key}[${i}].`),
    pricePer100: readNumber(row, 'price', `${path}${key}[${i}].`) ?? 100,
  }));
}

const INSTRUMENT_TYPES = ['gsec', 'sdl', 'tbill', 'cmb', 'cp', 'cd', 'corporate', 'zero', 'fixed', 'frb', 'perpetual'] as const;
type InstrumentType = (typeof INSTRUMENT_TYPES)[number];
const LEAP_RULES: readonly SebiLeapYearRule[] = ['year-ending-on-due-date', 'period-contains-29-feb', 'calendar-year-of-due-date'];
const YIELD_METHODS: readonly YieldMethod[] = ['street', 'xirr', 'money-market', 'quantlib', 'excel'];
const LAST_PERIODS = ['simple', 'compounded'] as const;
const COMPOUNDINGS: readonly Compounding[] = ['simple', 'annual', 'semi-annual', 'quarterly', 'monthly'];

/** Default issue date when a request omits it: the last regular coupon date on or before settlement. */
function defaultIssueDate(maturity: CalendarDate, frequency: CouponFrequency, settlement: CalendarDate): CalendarDate {
  for (let k = 1; k < 2400; k++) {
    const candidate = addMonths(maturity, (-k * 12) / frequency);
    if (candidate <= settlement) return candidate;
  }
  return fail('instrument.issueDate', 'is required');
}

/** `recordDateDays`: calendar days before each due date after which a trade is ex-interest (AI4). */
function readRecordDateDays(source: Json, path: string): number | undefined {
  const days = readNumber(source, 'recordDateDays', path);
  if (days !== undefined && !(Number.isInteger(days) && days >= 0 && days <= 366)) {
    fail(`${path}recordDateDays`, `must be a whole number of days 0–366, got ${days}`);
  }
  return days;
}

/** `lastPeriod` of a corporate bond as a convention override (PY2/PY3: `simple` is the SEBI default). */
function lastPeriodOverride(source: Json, path: string): { conventionOverrides?: { lastPeriodSimpleInterest: boolean } } {
  const lastPeriod = readString(source, 'lastPeriod', path, LAST_PERIODS);
  return lastPeriod === undefined ? {} : { conventionOverrides: { lastPeriodSimpleInterest: lastPeriod === 'simple' } };
}

/** Builds a bond from the `instrument` object of a request. */
export function buildInstrument(source: unknown, settlement: CalendarDate): Bond {
  if (!isObject(source)) fail('instrument', 'must be an object');
  const p = 'instrument.';
  const type = readString(source, 'type', p, INSTRUMENT_TYPES) ?? fail('instrument.type', `is required (${INSTRUMENT_TYPES.join(', ')})`);
  const identifier = typeof source['isin'] === 'string' ? source['isin'] : undefined;
  const description = typeof source['description'] === 'string' ? source['description'] : undefined;
  const faceValuePerUnit = readNumber(source, 'faceValue', p);
  const callSchedule = readExercises(source, 'callSchedule', p);
  const putSchedule = readExercises(source, 'putSchedule', p);
  const identity = { identifier, description, faceValuePerUnit, callSchedule, putSchedule };
  const maturityFor = () => requireDate(source, 'maturityDate', p);
  switch (type as InstrumentType) {
    case 'tbill':
    case 'cmb':
    case 'cp':
    case 'cd': {
      const kinds = { tbill: 'treasury-bill', cmb: 'cash-management-bill', cp: 'commercial-paper', cd: 'certificate-of-deposit' } as const;
      return createDiscountInstrument({
        ...identity,
        kind: kinds[type as 'tbill' | 'cmb' | 'cp' | 'cd'],
        issueDate: readDate(source, 'issueDate', p) ?? settlement,
        maturityDate: maturityFor(),
      });
    }
    case 'gsec':
    case 'sdl': {
      const maturityDate = maturityFor();
      return createGovernmentSecurity({
        ...identity,
        kind: type === 'sdl' ? 'state-development-loan' : 'government-security',
        issueDate: readDate(source, 'issueDate', p) ?? defaultIssueDate(maturityDate, 2, settlement),
        maturityDate,
        couponRate: requireNumber(source, 'couponRate', p),
        lastPeriod: readString(source, 'lastPeriod', p, ['simple', 'compounded'] as const) ?? 'simple',
      });
    }
    case 'frb': {
      const maturityDate = maturityFor();
      const known = readArray(source, 'knownCoupons', p) ?? fail('instrument.knownCoupons', 'is required');
      return createFloatingRateGovernmentBond({
        ...identity,
        issueDate: readDate(source, 'issueDate', p) ?? defaultIssueDate(maturityDate, 2, settlement),
        maturityDate,
        knownCoupons: known.map((row, i) => ({
          dueDate: requireDate(row, 'dueDate', `${p}knownCoupons[${i}].`),
          couponRate: requireNumber(row, 'couponRate', `${p}knownCoupons[${i}].`),
        })),
        assumedCouponRate: readNumber(source, 'assumedCouponRate', p),
      });
    }
    case 'corporate': {
      const frequency = readFrequency(source, p);
      const cashflowRows = readArray(source, 'cashflows', p);
      const cashflows: TermSheetCashflow[] | undefined = cashflowRows?.map((row, i) => {
        const q = `${p}cashflows[${i}].`;
        return {
          dueDate: requireDate(row, 'dueDate', q),
          paymentDate: readDate(row, 'paymentDate', q),
          recordDate: readDate(row, 'recordDate', q),
          couponRate: readNumber(row, 'couponRate', q),
          interestPerUnit: readNumber(row, 'interestPerUnit', q),
          principalPerUnit: readNumber(row, 'principalPerUnit', q),
          premiumPerUnit: readNumber(row, 'premiumPerUnit', q),
        };
      });
      const maturityDate = cashflows ? undefined : maturityFor();
      const issueDate =
        readDate(source, 'issueDate', p) ??
        (maturityDate !== undefined
          ? defaultIssueDate(maturityDate, frequency, settlement)
          : fail('instrument.issueDate', 'is required with cashflows'));
      return createCorporateBond({
        ...identity,
        issueDate,
        maturityDate,
        couponRate: cashflows ? undefined : requireNumber(source, 'couponRate', p),
        frequency,
        recordDateDaysBeforeDue: readRecordDateDays(source, p) ?? null,
        sebiLeapYearRule: readString(source, 'sebiLeapYearRule', p, LEAP_RULES),
        couponSteps: readArray(source, 'couponSteps', p)?.map((row, i) => ({
          fromDate: requireDate(row, 'fromDate', `${p}couponSteps[${i}].`),
          couponRate: requireNumber(row, 'couponRate', `${p}couponSteps[${i}].`),
        })),
        principalRepayments: readArray(source, 'principalRepayments', p)?.map((row, i) => ({
          date: requireDate(row, 'date', `${p}principalRepayments[${i}].`),
          principalPer100: requireNumber(row, 'principalPer100', `${p}principalRepayments[${i}].`),
        })),
        redemptionPer100: readNumber(source, 'redemption', p),
        cashflows,
        ...lastPeriodOverride(source, p),
      });
    }
    case 'zero':
      return createZeroCouponBond({
        ...identity,
        issueDate: requireDate(source, 'issueDate', p),
        maturityDate: maturityFor(),
        redemptionPer100: readNumber(source, 'redemption', p),
      });
    case 'perpetual':
      if (!callSchedule || callSchedule.length === 0) fail('instrument.callSchedule', 'a perpetual needs at least one call');
      return createPerpetualBond({
        ...identity,
        callSchedule,
        issueDate: requireDate(source, 'issueDate', p),
        couponRate: requireNumber(source, 'couponRate', p),
        frequency: readFrequency(source, p),
        recordDateDaysBeforeDue: readRecordDateDays(source, p) ?? null,
        deemedMaturityYears: readNumber(source, 'deemedMaturityYears', p),
        rollDate: readDate(source, 'rollDate', p),
      });
    case 'fixed': {
      const frequency = readFrequency(source, p);
      const maturityDate = maturityFor();
      const presetName = typeof source['convention'] === 'string' ? source['convention'] : undefined;
      const preset = presetName === undefined ? undefined : BOND_CONVENTIONS[presetName];
      if (presetName !== undefined && !preset) {
        fail('instrument.convention', `unknown preset; one of ${Object.keys(BOND_CONVENTIONS).join(', ')}`);
      }
      const base = preset ?? INDIAN_GOVERNMENT_SECURITY;
      const yieldMethod = readString(source, 'yieldMethod', p, YIELD_METHODS) ?? base.yieldMethod;
      const convention: BondConvention = {
        ...base,
        name: `${base.name}+custom`,
        accrualDayCount: readString(source, 'dayCount', p, DAY_COUNT_NAMES) ?? base.accrualDayCount,
        yieldMethod,
        couponAmount:
          readString(source, 'couponAmount', p, ['fixed-per-period', 'day-count'] as const) ??
          (yieldMethod === 'xirr' ? SEBI_CORPORATE_BOND.couponAmount : base.couponAmount),
        lastPeriodSimpleInterest:
          (readString(source, 'lastPeriod', p, LAST_PERIODS) ?? (base.lastPeriodSimpleInterest ? 'simple' : 'compounded')) === 'simple',
        endOfMonth: typeof source['endOfMonth'] === 'boolean' ? source['endOfMonth'] : base.endOfMonth,
        recordDateDaysBeforeDue: readRecordDateDays(source, p) ?? base.recordDateDaysBeforeDue,
      };
      return createFixedCouponBond({
        ...identity,
        issueDate: readDate(source, 'issueDate', p) ?? defaultIssueDate(maturityDate, frequency, settlement),
        maturityDate,
        couponRate: requireNumber(source, 'couponRate', p),
        frequency,
        convention,
        firstCouponDate: readDate(source, 'firstCouponDate', p),
        redemptionPer100: readNumber(source, 'redemption', p),
      });
    }
  }
}

function handleDayCount(request: Json): Json {
  const name = readString(request, 'dayCount', '', DAY_COUNT_NAMES) as DayCountName;
  const startDate = requireDate(request, 'startDate', '');
  const endDate = requireDate(request, 'endDate', '');
  const dayCount = getDayCount(name, readString(request, 'sebiLeapYearRule', '', LEAP_RULES));
  const referenceStart = readDate(request, 'referenceStartDate', '') ?? startDate;
  const referenceEnd = readDate(request, 'referenceEndDate', '') ?? endDate;
  const frequency = readFrequency(request, '', 2);
  return {
    dayCount: name,
    startDate: formatDate(startDate),
    endDate: formatDate(endDate),
    days: dayCount.getDayCountDays(startDate, endDate),
    yearFraction: dayCount.getYearFraction(startDate, endDate, { referenceStart, referenceEnd, frequency }),
  };
}

function money(paise: number): string {
  return formatPaise(paise);
}

/**
 * Answers one request object (already parsed from JSON). Pure; throws BondMathError on bad input.
 */
export function handleRequest(request: unknown): Json {
  if (!isObject(request)) fail('request', 'must be a JSON object');
  if (request['dayCount'] !== undefined && request['instrument'] === undefined) return handleDayCount(request);
  if (request['instrument'] === undefined) fail('instrument', 'is required (or dayCount for a day-count question)');

  let settlementDate = readDate(request, 'settlementDate', '');
  const tradeDate = readDate(request, 'tradeDate', '');
  const settlementDays = readNumber(request, 'settlementDays', '');
  if (settlementDate !== undefined && (tradeDate !== undefined || settlementDays !== undefined)) {
    fail('settlementDate', 'give either settlementDate or tradeDate with settlementDays, not both');
  }
  if (settlementDate === undefined) {
    if (tradeDate === undefined) fail('settlementDate', 'is required (or tradeDate with settlementDays)');
    settlementDate = getSettlementDate(tradeDate, settlementDays ?? 1, INDIA_SETTLEMENT_CALENDAR);
  }
  const settlement = settlementDate;
  const bond = buildInstrument(request['instrument'], settlement);

  const yieldRate = readNumber(request, 'yield', '');
  const clean = readNumber(request, 'cleanPrice', '');
  const dirty = readNumber(request, 'dirtyPrice', '');
  const given = [yieldRate, clean, dirty].filter((value) => value !== undefined).length;
  if (given > 1) fail('yield', 'give exactly one of yield, cleanPrice, dirtyPrice');
  const compounding = readString(request, 'yieldCompounding', '', COMPOUNDINGS) ?? bond.yieldCompounding;

  const warnings: string[] = [];
  if (isInShutPeriod(bond, settlement)) warnings.push('settlement falls in the shut period before a coupon date (no settlement allowed)');
  if (!INDIA_SETTLEMENT_CALENDAR.isBusinessDay(settlement)) warnings.push('settlement date is not a business day');

  const result: Json = {
    settlementDate: formatDate(settlement),
    instrument: {
      kind: bond.kind,
      isin: bond.identifier,
      issueDate: formatDate(bond.issueDate),
      maturityDate: formatDate(bond.maturityDate),
      frequency: bond.frequency,
      convention: bond.convention.name,
      yieldCompounding: bond.yieldCompounding,
    },
  };
  const accrued = getAccruedInterest(bond, settlement);
  result['accruedInterest'] = accrued.per100;
  result['accruedDays'] = accrued.accruedDays;
  result['exInterest'] = accrued.exInterest;

  if (given === 0) {
    if (request['cashflows'] !== true) fail('yield', 'give one of yield, cleanPrice, dirtyPrice (or cashflows: true)');
  } else {
    let yieldValue: Yield;
    if (yieldRate !== undefined) {
      yieldValue = { rate: yieldRate, compounding };
    } else {
      const price: BondPrice = clean !== undefined ? { kind: 'clean', per100: clean } : { kind: 'dirty', per100: dirty as number };
      yieldValue = getYieldFromPrice(bond, settlement, price);
    }
    const prices = getPriceFromYield(bond, settlement, yieldValue);
    const risk = getRiskMeasures(bond, settlement, yieldValue);
    // A quoted price is echoed exactly; the other side is quoted ± accrued (doc §1: dirty = clean + AI).
    result['cleanPrice'] = clean ?? (dirty !== undefined ? dirty - prices.accruedInterestPer100 : prices.cleanPrice.per100);
    result['dirtyPrice'] = dirty ?? (clean !== undefined ? clean + prices.accruedInterestPer100 : prices.dirtyPrice.per100);
    result['yield'] =
      yieldValue.compounding === bond.yieldCompounding ? yieldValue.rate : getYieldFromPrice(bond, settlement, prices.cleanPrice).rate;
    result['yieldCompounding'] = bond.yieldCompounding;
    result['macaulayDuration'] = risk.macaulayDurationYears;
    result['modifiedDuration'] = risk.modifiedDuration;
    result['convexity'] = risk.convexity;
    result['pv01'] = risk.pv01Per100;
    const quote: BondPrice = { kind: 'clean', per100: result['cleanPrice'] as number };
    Object.assign(result, describeWorkouts(bond, settlement, quote, yieldValue));
    const units = readNumber(request, 'units', '');
    if (units !== undefined) {
      const trade = getConsideration(bond, settlement, units, quote);
      result['consideration'] = {
        units,
        faceValuePerUnit: trade.faceValuePerUnit,
        principal: money(trade.principalPaise),
        accruedInterest: money(trade.accruedInterestPaise),
        total: money(trade.totalPaise),
        stampDuty: money(trade.stampDutyPaise),
        buyerPays: money(trade.buyerPaysPaise),
        totalPaise: trade.totalPaise,
      };
    }
  }
  if (request['cashflows'] === true) {
    const units = readNumber(request, 'units', '') ?? 1;
    result['cashflows'] = getCashflowSchedule(bond, settlement, units).map((row) => ({
      dueDate: formatDate(row.dueDate),
      paymentDate: formatDate(row.paymentDate),
      couponRate: row.couponRate,
      interest: money(row.interestPaise),
      principal: money(row.principalPaise),
      total: money(row.totalPaise),
    }));
  }
  if (warnings.length > 0) result['warnings'] = warnings;
  return result;
}

/** Handles one input line; never throws. */
export function handleLine(line: string, lineNumber: number): Json {
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch {
    return { line: lineNumber, ok: false, error: { code: 'INVALID_JSON', field: 'line', message: `line ${lineNumber} is not valid JSON` } };
  }
  const id = isObject(request) ? request['id'] : undefined;
  try {
    return { ...(id !== undefined ? { id } : {}), line: lineNumber, ok: true, ...handleRequest(request) };
  } catch (error) {
    if (error instanceof BondMathError) {
      return {
        ...(id !== undefined ? { id } : {}),
        line: lineNumber,
        ok: false,
        error: { code: error.code, field: error.field ?? null, message: error.message },
      };
    }
    return {
      ...(id !== undefined ? { id } : {}),
      line: lineNumber,
      ok: false,
      error: { code: 'INTERNAL_ERROR', field: null, message: error instanceof Error ? error.message : String(error) },
    };
  }
}

/** Reads JSON lines from `input` and writes JSON lines to `output` until the input ends. */
export async function runCli(input: Readable, output: Writable): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    if (line.trim() === '') continue;
    output.write(`${JSON.stringify(handleLine(line, lineNumber))}\n`);
  }
}
