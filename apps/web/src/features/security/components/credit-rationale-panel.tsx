import { Alert, Badge, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { describeError } from '../../../lib/errors';
import { useCreditRationale } from '../api/get-credit-rationale';
import { AccessPrompt, type SecurityAccess } from './access-prompt';
import { formatDate } from '../../../lib/format';

/** Credit rationale: every rating seen, by agency and date, with its source. */
export function CreditRationalePanel({ finstrumentId, access }: { finstrumentId: number; access: SecurityAccess }) {
  const rationale = useCreditRationale(finstrumentId, access === 'full' || access === 'basic');
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="ratings-title">
      <Stack gap="md">
        <Title order={2} fz="lg" id="ratings-title">
          Credit rationale
        </Title>
        {access === 'visitor' || access === 'no-permission' ? (
          <AccessPrompt access={access} what="ratings history" />
        ) : rationale.isPending ? (
          <Loader size="sm" aria-label="Loading ratings" />
        ) : rationale.isError ? (
          <Alert color="red" variant="light" title="Could not load ratings">
            {describeError(rationale.error)}
          </Alert>
        ) : rationale.data.ratings.length === 0 ? (
          <Text c="dimmed">No ratings recorded for this bond.</Text>
        ) : (
          <Table aria-label="Ratings" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Agency</Table.Th>
                <Table.Th>Rating</Table.Th>
                <Table.Th>As of</Table.Th>
                <Table.Th>Source</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rationale.data.ratings.map((rating, index) => (
                <Table.Tr key={`${rating.agency}-${rating.as_of ?? ''}-${index}`}>
                  <Table.Td fw={600}>{rating.agency}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" radius="sm">
                      {rating.rating}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{rating.as_of ? formatDate(rating.as_of) : '—'}</Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed">
                      {rating.source}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
