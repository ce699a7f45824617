/**
 * The blotter's filters as the page holds them, and as `GET api/orders/unified/` (and its export) take them: state,
 * kind, search, and the spec's numeric and date filters as the `filters` JSON array (`OrderFilterSchema`). Values
 * are typed the market's way — yields in %, sizes with lakh/crore shorthand, amounts with Indian grouping — and
 * sent in the wire's units. Checked with the server's own schema. Pure, unit-tested beside.
 */
import {
  DATE_FILTER_TYPES,
  NUMERIC_FILTER_TYPES,
  ORDER_DATE_FIELDS,
  ORDER_NUMERIC_FIELDS,
  OrderUnifiedQuerySchema,
  parseFaceValue,
  type OrderFilter,
  type OrderKind,
  type OrderState,
} from '@dart/contracts';

export type OrderNumericField = (typeof ORDER_NUMERIC_FIELDS)[number];
export type OrderDateField = (typeof ORDER_DATE_FIELDS)[number];
export type OrderFilterField = OrderNumericField | OrderDateField;
export type NumericFilterType = (typeof NUMERIC_FILTER_TYPES)[number];
export type DateFilterType = (typeof DATE_FILTER_TYPES)[number];

/** One condition of the filter editor, as typed. */
export interface FilterCondition {
  /** Stable key of the row in the editor. */
  id: number;
  field: OrderFilterField;
  type: NumericFilterType | DateFilterType;
  /** As typed: `7.25` (yield %), `5cr` (size), `1,00,00,000` (₹), `2026-05-04` (date). */
  value: string;
}

export interface OrderFilters {
  /** null: every state. */
  state: OrderState | null;
  /** null: orders and procurement orders. */
  kind: OrderKind | null;
  /** ISIN or bond name. */
  search: string;
  conditions: FilterCondition[];
}

export const EMPTY_ORDER_FILTERS: OrderFilters = { state: null, kind: null, search: '', conditions: [] };

export const FILTER_FIELD_LABELS: Record<OrderFilterField, string> = {
  price: 'Price',
  yield: 'Yield (%)',
  quantum: 'Face value (₹)',
  consideration: 'Consideration (₹)',
  trade_date: 'Trade date',
  settlement_date: 'Settlement date',
};

export const FILTER_TYPE_LABELS: Record<NumericFilterType | DateFilterType, string> = {
  equals: '=',
  lessThan: '<',
  lessThanOrEqual: '≤',
  greaterThan: '>',
  greaterThanOrEqual: '≥',
  is: 'on',
  after: 'after',
  before: 'before',
};

export const isDateField = (field: OrderFilterField): field is OrderDateField => (ORDER_DATE_FIELDS as readonly string[]).includes(field);

/** The comparisons a field takes. */
export function filterTypesFor(field: OrderFilterField): readonly (NumericFilterType | DateFilterType)[] {
  return isDateField(field) ? DATE_FILTER_TYPES : NUMERIC_FILTER_TYPES;
}

/** A new condition on `field` with its first comparison that makes sense (≥ for numbers, after for dates). */
export function newCondition(id: number, field: OrderFilterField = 'settlement_date'): FilterCondition {
  return { id, field, type: isDateField(field) ? 'after' : 'greaterThanOrEqual', value: '' };
}

/** A condition moved to another field keeps its comparison only when the new field takes it. */
export function withField(condition: FilterCondition, field: OrderFilterField): FilterCondition {
  const type = filterTypesFor(field).includes(condition.type) ? condition.type : newCondition(condition.id, field).type;
  return { ...condition, field, type, value: isDateField(field) === isDateField(condition.field) ? condition.value : '' };
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** One condition on the wire, or why its value cannot be read; null while its value is empty (not applied yet). */
export function readCondition(condition: FilterCondition): { filter: OrderFilter } | { message: string } | null {
  const text = condition.value.trim();
  if (text === '') return null;
  if (isDateField(condition.field)) {
    if (!ISO_DATE.test(text)) return { message: 'Please enter a valid date.' };
    return { filter: { field: condition.field, type: condition.type as DateFilterType, value: text } };
  }
  const field = condition.field as OrderNumericField;
  const type = condition.type as NumericFilterType;
  if (field === 'quantum') {
    const rupees = parseFaceValue(text);
    return rupees === null
      ? { message: 'Enter a face value such as 5cr, 50L or 5,00,00,000.' }
      : { filter: { field, type, value: rupees } };
  }
  const plain = text.replace(/[,₹\s%]/g, '');
  if (!NUMBER.test(plain)) return { message: 'Should be number' };
  const value = Number(plain);
  // Yields are typed in % and travel as fractions (6 dp, like quotes).
  return { filter: { field, type, value: field === 'yield' ? Number((value / 100).toFixed(6)) : value } };
}

/** The wire's filter list and the message of each condition that cannot be read (by condition id). */
export function readConditions(conditions: readonly FilterCondition[]): { filters: OrderFilter[]; errors: Record<number, string> } {
  const filters: OrderFilter[] = [];
  const errors: Record<number, string> = {};
  for (const condition of conditions) {
    const read = readCondition(condition);
    if (!read) continue;
    if ('message' in read) errors[condition.id] = read.message;
    else filters.push(read.filter);
  }
  return { filters, errors };
}

/** The query string shared by the list and the export (without the page); empty parts are left out. */
export type OrderQuery = Record<string, string | undefined>;

export function toOrderQuery(filters: OrderFilters): OrderQuery {
  const { filters: list } = readConditions(filters.conditions);
  const search = filters.search.trim();
  return {
    ...(filters.state ? { state: filters.state } : {}),
    ...(filters.kind ? { kind: filters.kind } : {}),
    ...(search ? { search } : {}),
    ...(list.length > 0 ? { filters: JSON.stringify(list) } : {}),
  };
}

export interface FilterProblems {
  /** By condition id. */
  conditions: Record<number, string>;
  search?: string;
  /** Anything else the server's schema refuses (e.g. more than 10 filters). */
  form?: string;
}

/** What stops the filters from being sent (empty when they can be), checked with the server's own schema. */
export function filterProblems(filters: OrderFilters): FilterProblems {
  const { errors } = readConditions(filters.conditions);
  const problems: FilterProblems = { conditions: errors };
  const parsed = OrderUnifiedQuerySchema.safeParse(toOrderQuery(filters));
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      if (issue.path[0] === 'search') problems.search ??= issue.message;
      else if (issue.path[0] === 'filters' && issue.code === 'too_big') problems.form ??= 'At most 10 filters.';
      else problems.form ??= issue.message;
    }
  return problems;
}

export const hasProblems = (problems: FilterProblems) =>
  Object.keys(problems.conditions).length > 0 || problems.search !== undefined || problems.form !== undefined;

/** How many filters are set beyond the state tab (for "Clear filters" and the no-match message). */
export function countActiveFilters(filters: OrderFilters): number {
  return (filters.kind ? 1 : 0) + (filters.search.trim() ? 1 : 0) + filters.conditions.filter((c) => c.value.trim() !== '').length;
}
