import { CREDENTIALS_PATH, type ExchangeCredentialStatusList } from '@dart/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

/** GET api/client/credentials/: the firm's NSCCL and ICCL status (set on, by whom), never the secrets (ops admins only). */
export function getCredentials(): Promise<ExchangeCredentialStatusList> {
  return http.get<ExchangeCredentialStatusList>(CREDENTIALS_PATH);
}

export const credentialsQueryOptions = () =>
  queryOptions({ queryKey: ['client', 'exchange-credentials'] as const, queryFn: getCredentials, staleTime: 30_000 });

export function useCredentials() {
  return useQuery(credentialsQueryOptions());
}
