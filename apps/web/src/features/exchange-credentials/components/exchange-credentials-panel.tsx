import type { CredentialCorp } from '@dart/contracts';
import { Alert, Loader, SimpleGrid, Stack } from '@mantine/core';
import { useCredentials } from '../api/get-credentials';
import { CredentialCard } from './credential-card';

const CORPS: CredentialCorp[] = ['NSCCL', 'ICCL'];

/** `/exchange-credentials`: the firm's NSCCL (NSE) and ICCL (BSE) credentials, each with its status and form. */
export function ExchangeCredentialsPanel() {
  const credentials = useCredentials();
  if (credentials.isPending) return <Loader aria-label="Loading exchange credentials" />;
  if (credentials.isError)
    return (
      <Alert color="red" title="Exchange credentials could not be loaded">
        {credentials.error.message}
      </Alert>
    );
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        {CORPS.map((corp) => (
          <CredentialCard key={corp} corp={corp} status={credentials.data.results.find((row) => row.corp === corp)} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
