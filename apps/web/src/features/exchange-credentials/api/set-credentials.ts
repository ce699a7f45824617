import { CREDENTIALS_PATH, type ExchangeCredentialStatus, type ExchangeCredentialsSet } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { sessionQueryOptions } from '../../../lib/session';
import { credentialsQueryOptions } from './get-credentials';

/** POST api/client/credentials/ {participant_code, username, password, corp, participant_name?}: the new status. */
export function setCredentials(body: ExchangeCredentialsSet): Promise<ExchangeCredentialStatus> {
  return http.post<ExchangeCredentialStatus>(CREDENTIALS_PATH, body);
}

/** Saves, then refreshes the status list and the session (its `nsccl_credentials`, names and exchanges follow). */
export function useSetCredentials() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setCredentials,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: credentialsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: sessionQueryOptions().queryKey }),
      ]);
    },
  });
}
