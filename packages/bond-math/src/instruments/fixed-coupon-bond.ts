/**
 * Fixed-coupon bonds of any frequency (1, 2, 4, 12), generated backward from
 * maturity: the builder every other instrument builder reuses.
 */
import type { CalendarDate } from '../time/calendar-date';
import { formatDate } from '../time/calendar-date';
import type { HolidayCalendar } from '../time/holiday-calendar';
import { INDIA_SETTLEMENT_CALENDAR } from '../time/india-holidays';
import type { StubType } from '../time/schedule';
import { createScheduleDateFields, generateScheduleDates } from '../time/schedule';
import type { CouponFrequency } from '../day-count/day-count';
import { getDayCount } from '../day-count/registry';
import type { BondConvention } from '../conventions/market-conventions';
import type { CouponStep, PrincipalRepayment } from '../cashflows/coupon-periods';
import { computeCouponColumns } from '../cashflows/coupon-periods';
import type { GeneratedPeriods } from './bond-periods';
import { getColumnPeriods } from './bond-periods';
import type { Bond, BondCashflowColumns, CouponPeriod, ExerciseDate, InstrumentKind } from './bond';
import { buildCashflowColumns } from './bond';
import { getCompoundingForFrequency } from '../pricing/quote';
import { getExcelBasis, isPeriodicMethod } from '../pricing/named-yield-modes';
import { BondMathError, requireArgument } from '../errors';

/** Fields every bond builder accepts. */
export interface BondIdentity {
  /** ISIN, e.g. "IN0020230085". */
  readonly identifier?: string;
  /** Human description, e.g. "7.18% GS 2033". */
  readonly description?: string;
  /** Face value of one unit in ₹ (default ₹100). */
  readonly faceValuePerUnit?: number;
  /** Calendar for payment dates (default {@link INDIA_SETTLEMENT_CALENDAR}). */
  readonly calendar?: HolidayCalendar;
  /** Issuer call schedule. */
  readonly callSchedule?: readonly ExerciseDate[];
  /** Investor put schedule. */
  readonly putSchedule?: readonly ExerciseDate[];
}

/** Inputs of {@link createFixedCouponBond}. */
export interface FixedCouponBondSpec extends BondIdentity {
  /** Instrument kind label (default `fixed-coupon-bond`). */
  readonly kind?: InstrumentKind;
  /** Interest accrues from this date. */
  readonly issueDate: CalendarDate;
  /** Final due date. */
  readonly maturityDate: CalendarDate;
  /** Annual coupon rate, decimal (0.0718 = 7.18 %). */
  readonly couponRate: number;
  /** Coupons per year: 1, 2, 4 or 12. */
  readonly frequency: CouponFrequency;
  /** Market convention preset. */
  readonly convention: BondConvention;
  /** End-of-month rule (default: the convention's). */
  readonly endOfMonth?: boolean;
  /** Stub type when the issue date is off the roll (default short front). */
  readonly stub?: StubType;
  /** First coupon date, if the term sheet fixes it. */
  readonly firstCouponDate?: CalendarDate;
  /** Step-up / step-down coupons. */
  readonly couponSteps?: readonly CouponStep[];
  /** Explicit coupon rate per period (length = number of periods). */
  readonly couponRatesPerPeriod?: readonly number[];
  /** Partial redemptions (amortisation) before maturity, per ₹100 original face. */
  readonly principalRepayments?: readonly PrincipalRepayment[];
  /** Redemption price at maturity per ₹100 outstanding (default 100). */
  readonly redemptionPer100?: number;
  /** Marks a perpetual whose `maturityDate` is deemed. */
  readonly isPerpetual?: boolean;
}

const FREQUENCIES: readonly number[] = [1, 2, 4, 12];

/** Validates fields shared by every builder. */
export function validateBondInputs(spec: {
  readonly frequency: number;
  readonly faceValuePerUnit?: number;
  readonly couponRate?: number;
}): void {
  // Each message is made only for a bad value: writing a double into a string costs more than
  // the rest of the check, and this runs for every bond built.
  if (!FREQUENCIES.includes(spec.frequency)) {
    requireArgument(false, 'frequency', `must be 1, 2, 4 or 12, got ${spec.frequency}`);
  }
  const face = spec.faceValuePerUnit;
  if (face !== undefined && !(Number.isFinite(face) && face > 0)) {
    requireArgument(false, 'faceValuePerUnit', `must be a positive number of rupees, got ${face}`);
  }
  const couponRate = spec.couponRate;
  if (couponRate !== undefined && !(Number.isFinite(couponRate) && couponRate >= 0 && couponRate < 1)) {
    requireArgument(false, 'couponRate', `must be a decimal in [0, 1) (0.0718 = 7.18 %), got ${couponRate}`);
  }
}

const NO_EXERCISES: readonly ExerciseDate[] = [];

function sortExercises(
  list: readonly ExerciseDate[] | undefined,
  field: string,
  issueDate: CalendarDate,
  maturityDate: CalendarDate,
): readonly ExerciseDate[] {
  if (!list || list.length === 0) return NO_EXERCISES;
  const sorted = [...(list ?? [])].sort((a, b) => a.date - b.date);
  for (const exercise of sorted) {
    requireArgument(
      Number.isFinite(exercise.pricePer100) && exercise.pricePer100 > 0,
      field,
      `exercise price must be a positive price per 100, got ${exercise.pricePer100}`,
    );
    if (exercise.date <= issueDate || exercise.date > maturityDate) {
      throw new BondMathError('INVALID_ARGUMENT', `${field}: ${formatDate(exercise.date)} is outside the bond's life`, field);
    }
  }
  return sorted;
}

/** Assembles a {@link Bond} from built periods (shared by every instrument builder). */
export function assembleBond(fields: {
  readonly kind: InstrumentKind;
  readonly identifier?: string | undefined;
  readonly description?: string | undefined;
  readonly frequency: CouponFrequency;
  readonly faceValuePerUnit?: number | undefined;
  readonly convention: BondConvention;
  /** The periods, or a generated schedule's columns to make them from when asked for. */
  readonly periods: readonly CouponPeriod[] | Omit<GeneratedPeriods, 'convention'>;
  readonly callSchedule?: readonly ExerciseDate[] | undefined;
  readonly putSchedule?: readonly ExerciseDate[] | undefined;
  readonly isPerpetual?: boolean | undefined;
}): Bond {
  const { convention } = fields;
  const source = fields.periods;
  let columns: BondCashflowColumns;
  let issueDate: CalendarDate;
  let maturityDate: CalendarDate;
  if (isPeriodList(source)) {
    const first = source[0];
    const last = source[source.length - 1];
    if (!first || !last) throw new BondMathError('INVALID_SCHEDULE', 'a bond needs at least one period', 'maturityDate');
    issueDate = first.accrualStartDate;
    maturityDate = last.dueDate;
    columns = buildCashflowColumns(source);
  } else {
    const { schedule, columns: computed, calendar } = source;
    const dueDates = schedule.dueDates;
    if (dueDates.length === 0) throw new BondMathError('INVALID_SCHEDULE', 'a bond needs at least one period', 'maturityDate');
    issueDate = schedule.issueDate;
    maturityDate = dueDates[dueDates.length - 1] as CalendarDate;
    columns = {
      dueDates,
      amounts: computed.amounts,
      interest: computed.interest,
      outstanding: computed.outstanding,
      couponYearFractions: computed.yearFractions,
      periodList: null,
      periodSource: { schedule, columns: computed, convention, calendar } satisfies GeneratedPeriods,
      settlementMemo: null,
    };
  }
  if (convention.yieldMethod === 'excel') getExcelBasis(convention.accrualDayCount);
  const yieldCompounding = isPeriodicMethod(convention.yieldMethod)
    ? getCompoundingForFrequency(fields.frequency)
    : convention.yieldMethod === 'xirr'
      ? 'annual'
      : 'simple';
  const bond = {
    kind: fields.kind,
    identifier: fields.identifier ?? null,
    description: fields.description ?? '',
    issueDate,
    maturityDate,
    frequency: fields.frequency,
    faceValuePerUnit: fields.faceValuePerUnit ?? 100,
    convention,
    dayCount: getDayCount(convention.accrualDayCount, convention.sebiLeapYearRule),
    yieldCompounding,
    columns,
    callSchedule: sortExercises(fields.callSchedule, 'callSchedule', issueDate, maturityDate),
    putSchedule: sortExercises(fields.putSchedule, 'putSchedule', issueDate, maturityDate),
    isPerpetual: fields.isPerpetual ?? false,
  };
  // `periods` is an enumerable accessor (spread and JSON see the list) whose getter is ONE shared
  // function, so every bond keeps one hidden class; a getter in the literal would be a new
  // closure per bond, giving each bond its own hidden class and every pricing read a megamorphic load.
  return Object.defineProperty(bond, 'periods', PERIODS_PROPERTY) as Bond;
}

/** The `periods` accessor of every bond: the columns make the list once, on first access. */
const PERIODS_PROPERTY: PropertyDescriptor = {
  get(this: Bond): readonly CouponPeriod[] {
    return getColumnPeriods(this.columns);
  },
  enumerable: true,
  configurable: false,
};

function isPeriodList(source: readonly CouponPeriod[] | Omit<GeneratedPeriods, 'convention'>): source is readonly CouponPeriod[] {
  return Array.isArray(source);
}

/** The due dates' civil fields of the schedule being built (SPEC SP7); filled and read within one build. */
const scheduleFields = createScheduleDateFields();

/**
 * Creates a fixed-coupon bond (any frequency) whose schedule is generated backward
 * from maturity, with optional stubs, step coupons, amortisation, calls and puts.
 * @param overrides - fields that replace those of `spec` (used by the preset builders
 *   so they need not copy the spec).
 * @throws BondMathError INVALID_ARGUMENT / INVALID_SCHEDULE naming the bad field.
 */
export function createFixedCouponBond(
  spec: Omit<FixedCouponBondSpec, 'frequency' | 'convention'> & Partial<Pick<FixedCouponBondSpec, 'frequency' | 'convention'>>,
  overrides?: Partial<Pick<FixedCouponBondSpec, 'kind' | 'frequency' | 'convention'>>,
): Bond {
  const frequency = overrides?.frequency ?? spec.frequency;
  const convention = overrides?.convention ?? spec.convention;
  if (frequency === undefined) throw new BondMathError('INVALID_ARGUMENT', 'frequency is required', 'frequency');
  if (convention === undefined) throw new BondMathError('INVALID_ARGUMENT', 'convention is required', 'convention');
  validateBondInputs({ frequency, faceValuePerUnit: spec.faceValuePerUnit, couponRate: spec.couponRate });
  const schedule = generateScheduleDates(
    {
      issueDate: spec.issueDate,
      maturityDate: spec.maturityDate,
      frequency,
      endOfMonth: spec.endOfMonth ?? convention.endOfMonth,
      stub: spec.stub,
      firstCouponDate: spec.firstCouponDate,
    },
    scheduleFields,
  );
  const dayCount = getDayCount(convention.accrualDayCount, convention.sebiLeapYearRule);
  const calendar = spec.calendar ?? INDIA_SETTLEMENT_CALENDAR;
  const columns = computeCouponColumns({
    schedule,
    couponRate: spec.couponRate,
    couponSteps: spec.couponSteps,
    couponRatesPerPeriod: spec.couponRatesPerPeriod,
    principalRepayments: spec.principalRepayments,
    redemptionPer100: spec.redemptionPer100,
    frequency,
    dayCount,
    convention,
    calendar,
    dueDateFields: scheduleFields,
  });
  return assembleBond({
    kind: overrides?.kind ?? spec.kind ?? 'fixed-coupon-bond',
    identifier: spec.identifier,
    description: spec.description,
    frequency,
    faceValuePerUnit: spec.faceValuePerUnit,
    convention,
    periods: { schedule, columns, calendar },
    callSchedule: spec.callSchedule,
    putSchedule: spec.putSchedule,
    isPerpetual: spec.isPerpetual,
  });
}
