import { INVENTORY_PAGE_SIZE_MAX, type CashflowCalendar, type Inventory } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

/** Every inventory query lives under this key (a change to the book refetches all of them). */
export const INVENTORY_KEY = ['inventory'] as const;

/**
 * GET api/inventory/: the firm's book valued, with totals and breakdowns over all of it. The screen groups and
 * totals on the client, so it reads the largest page (1,000 holdings); a larger book says so and pages.
 */
export function getInventory(page: number, signal?: AbortSignal): Promise<Inventory> {
  return http.get<Inventory>('/api/inventory/', {
    query: { page, page_size: INVENTORY_PAGE_SIZE_MAX },
    ...(signal ? { signal } : {}),
  });
}

export const inventoryQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...INVENTORY_KEY, 'book', page] as const,
    queryFn: ({ signal }) => getInventory(page, signal),
    placeholderData: keepPreviousData,
    // The book changes by this screen's own writes (which refetch) and by new reference prices of held bonds
    // (the `inventory.revalued` push refetches: hooks/use-inventory-live-updates.ts).
    staleTime: 60_000,
  });

export function useInventory(page: number) {
  return useQuery(inventoryQueryOptions(page));
}

/** GET api/inventory/cashflows/?days=30|90: coupons and redemptions the book is paid in the next days. */
export function getCashflows(days: 30 | 90, signal?: AbortSignal): Promise<CashflowCalendar> {
  return http.get<CashflowCalendar>('/api/inventory/cashflows/', { query: { days }, ...(signal ? { signal } : {}) });
}

export function useCashflows(days: 30 | 90, enabled = true) {
  return useQuery({
    queryKey: [...INVENTORY_KEY, 'cashflows', days] as const,
    queryFn: ({ signal }) => getCashflows(days, signal),
    staleTime: 60_000,
    enabled,
  });
}
