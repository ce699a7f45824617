import { NOT_RATED, SECURITY_TYPES, type CategoryValues, type FindCategory } from '@dart/contracts';
import type { CategoriesRequest, FindCategoryFacet } from '../api/find-categories';
import type { FinstrumentListRequest } from '../api/list-finstruments';

export type SecurityType = (typeof SECURITY_TYPES)[number];

/** The Find page filters as the user sets them (yields and coupons in %, dates yyyy-mm-dd). */
export interface FindFilters {
  search: string;
  securityTypes: SecurityType[];
  ratings: string[];
  maturityFrom: string;
  maturityTo: string;
  couponMin: number | null;
  couponMax: number | null;
  yieldMin: number | null;
  yieldMax: number | null;
  listed: 'all' | 'listed' | 'unlisted';
  exchange: 'any' | 'NSE' | 'BSE';
  includeMatured: boolean;
}

export const EMPTY_FIND_FILTERS: FindFilters = {
  search: '',
  securityTypes: [],
  ratings: [],
  maturityFrom: '',
  maturityTo: '',
  couponMin: null,
  couponMax: null,
  yieldMin: null,
  yieldMax: null,
  listed: 'all',
  exchange: 'any',
  includeMatured: false,
};

type ListFilter = NonNullable<FinstrumentListRequest['filters']>[number];

/**
 * The categories /find filters by, from `POST /api/categories/`. The grid's list call can narrow by these three
 * (security_types, ratings, exchange); a price-source filter waits for the list call to take it.
 */
export const FILTER_CATEGORIES = ['security_type', 'credit_rating', 'exchange'] as const satisfies readonly FindCategory[];
export type FilterCategory = (typeof FILTER_CATEGORIES)[number];

/** The range filters (maturity, coupon, yield) shared by the list and the category counts. */
function rangeFilters(filters: FindFilters): ListFilter[] {
  const list: ListFilter[] = [];
  if (filters.maturityFrom) list.push({ field: 'maturity_date', type: 'after', value: filters.maturityFrom });
  if (filters.maturityTo) list.push({ field: 'maturity_date', type: 'before', value: filters.maturityTo });
  if (filters.couponMin !== null) list.push({ field: 'coupon_rate', type: 'greaterThanOrEqual', value: filters.couponMin });
  if (filters.couponMax !== null) list.push({ field: 'coupon_rate', type: 'lessThanOrEqual', value: filters.couponMax });
  // Yields are fractions on the wire.
  if (filters.yieldMin !== null)
    list.push({ field: 'bond_yield', type: 'greaterThanOrEqual', value: Number((filters.yieldMin / 100).toFixed(6)) });
  if (filters.yieldMax !== null)
    list.push({ field: 'bond_yield', type: 'lessThanOrEqual', value: Number((filters.yieldMax / 100).toFixed(6)) });
  return list;
}

/** The request body (without pagination and sort) of `POST /api/finstruments/` for these filters. */
export function toListRequest(filters: FindFilters): Omit<FinstrumentListRequest, 'pagination' | 'sort'> {
  const request: Omit<FinstrumentListRequest, 'pagination' | 'sort'> = {
    filters: rangeFilters(filters),
    include_matured: filters.includeMatured,
  };
  if (filters.search.trim()) request.search = filters.search.trim();
  if (filters.securityTypes.length) request.security_types = filters.securityTypes;
  if (filters.ratings.length) request.ratings = filters.ratings;
  if (filters.listed !== 'all') request.listed = filters.listed === 'listed';
  if (filters.exchange !== 'any') request.exchange = filters.exchange;
  return request;
}

/**
 * The `POST /api/categories/` body for these filters: the selections and ranges, so each value's count is the
 * bonds it would leave given everything else chosen (a category's own selection does not narrow its own counts).
 * The name search and the listing switch are not category filters and do not narrow the counts.
 */
export function toCategoriesRequest(filters: FindFilters): CategoriesRequest {
  const values: CategoryValues = {};
  if (filters.securityTypes.length) values.security_type = filters.securityTypes;
  if (filters.ratings.length) values.credit_rating = filters.ratings;
  if (filters.exchange !== 'any') values.exchange = [filters.exchange];
  return {
    category_list: [...FILTER_CATEGORIES],
    category_values: values,
    filters: rangeFilters(filters),
    include_matured: filters.includeMatured,
  };
}

/** One choice of a category filter; `count` is null when the server's answer has no count for it. */
export interface CategoryOption {
  value: string;
  label: string;
  count: number | null;
}

/**
 * A category's choices from the server's answer. Values already chosen stay listed (count 0 when the other
 * filters leave none) so they can be seen and removed; "not rated" is left out of the ratings, which the grid's
 * list call matches by name only.
 */
export function categoryOptions(facet: FindCategoryFacet | undefined, selected: readonly string[]): CategoryOption[] {
  const options: CategoryOption[] = (facet?.values ?? [])
    .filter((v) => !(facet?.name === 'credit_rating' && v.value === NOT_RATED))
    .map((v) => ({ value: v.value, label: v.label, count: v.count }));
  for (const value of selected)
    if (!options.some((option) => option.value === value)) options.push({ value, label: value, count: facet ? 0 : null });
  return options;
}

/** How many filters differ from the defaults (for the 'Clear filters' button). */
export function countActiveFilters(filters: FindFilters): number {
  return (Object.keys(EMPTY_FIND_FILTERS) as (keyof FindFilters)[]).filter(
    (key) => JSON.stringify(filters[key]) !== JSON.stringify(EMPTY_FIND_FILTERS[key]),
  ).length;
}
