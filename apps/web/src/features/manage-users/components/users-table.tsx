import { PERMISSION_LABELS, ROLE_LABELS } from '@dart/contracts';
import { Alert, Badge, Button, EmptyState, Group, Paper, ScrollArea, Skeleton, Stack, Table, Text } from '@mantine/core';
import { AlertIcon, UsersIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { formatCount } from '../../../lib/format';
import { useClientUsers } from '../api/get-client-users';

const STATUS_COLOR: Record<string, string> = { active: 'teal', invited: 'yellow', inactive: 'gray' };

export function UsersTable() {
  const query = useClientUsers();

  if (query.isError) {
    return (
      <Alert color="red" variant="light" icon={<AlertIcon />} title="Could not load users" role="alert">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{describeError(query.error)}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }

  return (
    <Paper withBorder radius="lg" p={0} style={{ overflow: 'hidden' }}>
      <Group justify="space-between" px="lg" py="md">
        <div>
          <Text fw={600}>Users</Text>
          <Text size="sm" c="dimmed" aria-live="polite">
            {query.data ? `${formatCount(query.data.count)} in your organisation` : 'Loading users…'}
          </Text>
        </div>
      </Group>
      {!query.data ? (
        <Stack px="lg" pb="lg" gap="xs" aria-busy="true">
          {Array.from({ length: 5 }, (_, index) => (
            <Skeleton key={index} height={28} />
          ))}
        </Stack>
      ) : query.data.results.length === 0 ? (
        <EmptyState
          py="xl"
          icon={<UsersIcon size={28} />}
          withIndicatorBackground
          title="No users yet"
          description="Invite your dealers, viewers and back-office colleagues with the form."
        />
      ) : (
        <ScrollArea>
          <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="lg" miw={860} aria-label="Users">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Roles</Table.Th>
                <Table.Th>Permissions</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.results.map((user) => (
                <Table.Tr key={user.id}>
                  <Table.Td fw={500} style={{ whiteSpace: 'nowrap' }}>
                    {`${user.first_name} ${user.last_name}`.trim() || (
                      <Text span c="dimmed" size="sm">
                        Pending sign-up
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{user.email}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {user.roles.map((role) => (
                        <Badge key={role} variant="light" radius="sm" tt="none" style={{ overflow: 'visible' }}>
                          {ROLE_LABELS[role]}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    {user.permissions.length === 0 ? (
                      <Text size="sm" c="dimmed">
                        None
                      </Text>
                    ) : (
                      <Text size="sm" c="dimmed" maw={260}>
                        {user.permissions.map((permission) => PERMISSION_LABELS[permission]).join(', ')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="dot" color={STATUS_COLOR[user.status] ?? 'gray'} tt="capitalize" w="max-content">
                      {user.status}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </Paper>
  );
}
