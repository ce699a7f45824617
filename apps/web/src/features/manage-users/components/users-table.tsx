import { PERMISSION_LABELS, ROLE_LABELS } from '@dart/contracts';
import {
  Alert,
  Badge,
  Button,
  EmptyState,
  Group,
  Modal,
  Paper,
  ScrollArea,
  Skeleton,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { AlertIcon, UsersIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { formatCount } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useClientUsers, type ClientUser } from '../api/get-client-users';
import { useUpdateUser } from '../api/update-user';
import { EditUserForm } from './edit-user-form';

const fullName = (user: ClientUser) => `${user.first_name} ${user.last_name}`.trim() || user.email;

/** Deactivating stops the member's sessions at once (their next request is 401); reactivating lets them sign in again. */
function StatusChange({ user, onDone }: { user: ClientUser; onDone: () => void }) {
  const update = useUpdateUser();
  const [error, setError] = useState<string | null>(null);
  const deactivate = user.status === 'active';
  async function confirm() {
    setError(null);
    try {
      await update.mutateAsync({ user_id: user.id, roles: user.roles, status: deactivate ? 'inactive' : 'active' });
      showToast({
        summary: deactivate ? 'User deactivated' : 'User reactivated',
        detail: deactivate ? `${fullName(user)} can no longer sign in.` : `${fullName(user)} can sign in again.`,
        severity: 'success',
      });
      onDone();
    } catch (failure) {
      setError(describeError(failure));
    }
  }
  return (
    <Stack gap="md">
      <Text size="sm">
        {deactivate
          ? `${fullName(user)} (${user.email}) is signed out everywhere at once and cannot sign in until you reactivate the account.`
          : `${fullName(user)} (${user.email}) can sign in again with the same roles.`}
      </Text>
      <FormErrorAlert message={error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button color={deactivate ? 'red' : 'teal'} loading={update.isPending} onClick={() => void confirm()} data-autofocus>
          {deactivate ? 'Deactivate' : 'Reactivate'}
        </Button>
      </Group>
    </Stack>
  );
}

const STATUS_COLOR: Record<string, string> = { active: 'teal', invited: 'yellow', inactive: 'gray' };

export function UsersTable() {
  const query = useClientUsers();
  const [editing, setEditing] = useState<ClientUser | null>(null);
  const [statusTarget, setStatusTarget] = useState<ClientUser | null>(null);

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
    <>
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
            <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="lg" miw={1020} aria-label="Users">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Roles</Table.Th>
                  <Table.Th>Permissions</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data.results.map((user) => (
                  <Table.Tr key={user.id} data-testid={`user-row-${user.email}`}>
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
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap" justify="flex-end">
                        <Button
                          size="compact-sm"
                          variant="light"
                          onClick={() => setEditing(user)}
                          aria-label={`Edit roles of ${fullName(user)}`}
                        >
                          Edit roles
                        </Button>
                        {user.status === 'active' || user.status === 'inactive' ? (
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            color={user.status === 'active' ? 'red' : 'teal'}
                            onClick={() => setStatusTarget(user)}
                            aria-label={`${user.status === 'active' ? 'Deactivate' : 'Reactivate'} ${fullName(user)}`}
                          >
                            {user.status === 'active' ? 'Deactivate' : 'Reactivate'}
                          </Button>
                        ) : null}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </Paper>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? `Roles of ${fullName(editing)}` : ''}
        size="lg"
        centered
      >
        {editing ? <EditUserForm key={editing.id} user={editing} onDone={() => setEditing(null)} /> : null}
      </Modal>
      <Modal
        opened={statusTarget !== null}
        onClose={() => setStatusTarget(null)}
        title={statusTarget ? `${statusTarget.status === 'active' ? 'Deactivate' : 'Reactivate'} ${fullName(statusTarget)}?` : ''}
        centered
      >
        {statusTarget ? <StatusChange key={statusTarget.id} user={statusTarget} onDone={() => setStatusTarget(null)} /> : null}
      </Modal>
    </>
  );
}
