import { HttpError } from '@dart/client';
import { QueryClient } from '@tanstack/react-query';

/**
 * HTTP retries are the HTTP client's job (spec §8: once for GET on 408/409/425/429/5xx); the query
 * layer does not add its own on top.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => !(error instanceof HttpError) && failureCount < 1,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}
