import { ROLE_LABELS } from '@dart/contracts';
import { Alert, Badge, Group, Paper, ScrollArea, Skeleton, Table, Text } from '@mantine/core';
import { AlertIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { usePendingInvites } from '../api/get-pending-invites';
import { formatDate } from '../../../lib/format';

/** Outstanding invitations: who was invited, with which roles, and until when the link works. */
export function PendingInvites() {
  const query = usePendingInvites();
  if (query.isError) {
    return (
      <Alert color="red" variant="light" icon={<AlertIcon />} title="Could not load invitations" role="alert">
        {describeError(query.error)}
      </Alert>
    );
  }
  if (!query.data) return <Skeleton height={64} radius="lg" aria-busy="true" />;
  if (query.data.results.length === 0) return null;
  return (
    <Paper withBorder radius="lg" p={0} style={{ overflow: 'hidden' }}>
      <Group px="lg" py="md">
        <div>
          <Text fw={600}>Pending invitations</Text>
          <Text size="sm" c="dimmed">
            Sent and not yet accepted. Links work for seven days.
          </Text>
        </div>
      </Group>
      <ScrollArea>
        <Table verticalSpacing="sm" horizontalSpacing="lg" miw={640} aria-label="Pending invitations">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Email</Table.Th>
              <Table.Th>Roles</Table.Th>
              <Table.Th>Sent</Table.Th>
              <Table.Th>Expires</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {query.data.results.map((invite) => (
              <Table.Tr key={invite.id}>
                <Table.Td>{invite.email}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {invite.roles.map((role) => (
                      <Badge key={role} variant="light" color="yellow" radius="sm" tt="none">
                        {ROLE_LABELS[role]}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>{formatDate(invite.created_at)}</Table.Td>
                <Table.Td>{formatDate(invite.expires_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Paper>
  );
}
