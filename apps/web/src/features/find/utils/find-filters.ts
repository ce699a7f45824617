import { SECURITY_TYPES } from '@dart/contracts';
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

export const RATING_OPTIONS = [
  'SOVEREIGN',
  'AAA',
  'AA+',
  'AA',
  'AA-',
  'A+',
  'A',
  'A-',
  'BBB+',
  'BBB',
  'BBB-',
  'A1+',
  'A1',
  'AAA(CE)',
  'AA(CE)',
  'D',
];

type ListFilter = NonNullable<FinstrumentListRequest['filters']>[number];

/** The request body (without pagination and sort) of `POST /api/finstruments/` for these filters. */
export function toListRequest(filters: FindFilters): Omit<FinstrumentListRequest, 'pagination' | 'sort'> {
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
  const request: Omit<FinstrumentListRequest, 'pagination' | 'sort'> = { filters: list, include_matured: filters.includeMatured };
  if (filters.search.trim()) request.search = filters.search.trim();
  if (filters.securityTypes.length) request.security_types = filters.securityTypes;
  if (filters.ratings.length) request.ratings = filters.ratings;
  if (filters.listed !== 'all') request.listed = filters.listed === 'listed';
  if (filters.exchange !== 'any') request.exchange = filters.exchange;
  return request;
}

/** How many filters differ from the defaults (for the 'Clear filters' button). */
export function countActiveFilters(filters: FindFilters): number {
  return (Object.keys(EMPTY_FIND_FILTERS) as (keyof FindFilters)[]).filter(
    (key) => JSON.stringify(filters[key]) !== JSON.stringify(EMPTY_FIND_FILTERS[key]),
  ).length;
}
