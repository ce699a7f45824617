import type { CategoriesRequestSchema, CategoriesResponse } from '@dart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';

export type CategoriesRequest = z.input<typeof CategoriesRequestSchema>;
export type FindCategoryFacet = CategoriesResponse['categories'][number];

/** POST /api/categories/ (public): each category's values with their bond counts, faceted by the other filters. */
export function findCategories(request: CategoriesRequest): Promise<CategoriesResponse> {
  return http.post<CategoriesResponse>('/api/categories/', request);
}

// No abort signal: a facet request superseded by a newer filter simply finishes and is kept in the cache
// (cancelling it would show as a lost request, and the answer is cheap to keep).
export const findCategoriesQueryOptions = (request: CategoriesRequest) =>
  queryOptions({
    queryKey: ['finstruments', 'categories', request] as const,
    queryFn: () => findCategories(request),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** The Find filters' values and counts; while a new answer loads, the previous one stays on screen. */
export function useFindCategories(request: CategoriesRequest) {
  return useQuery(findCategoriesQueryOptions(request));
}
