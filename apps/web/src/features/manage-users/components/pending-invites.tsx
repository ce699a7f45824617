import { ROLE_LABELS } from '@dart/contracts';
import { Alert, Badge, Button, Group, Modal, Paper, ScrollArea, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { AlertIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { usePendingInvites, type PendingInviteList } from '../api/get-pending-invites';
import { useResendInvite } from '../api/resend-invite';
import { useRevokeInvite } from '../api/revoke-invite';

type PendingInvite = PendingInviteList['results'][number];

/** Asks before revoking: the link in the e-mail stops working at once. */
function RevokeInvite({ invite, onDone }: { invite: PendingInvite; onDone: () => void }) {
  const revoke = useRevokeInvite();
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    setError(null);
    try {
      await revoke.mutateAsync(invite.id);
      showToast({ summary: 'Invitation revoked', detail: `The link sent to ${invite.email} no longer works.`, severity: 'success' });
      onDone();
    } catch (failure) {
      setError(describeError(failure));
    }
  }
  return (
    <Stack gap="md">
      <Text size="sm">The link sent to {invite.email} stops working at once. You can invite them again later.</Text>
      <FormErrorAlert message={error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button color="red" loading={revoke.isPending} onClick={() => void confirm()} data-autofocus>
          Revoke invitation
        </Button>
      </Group>
    </Stack>
  );
}

/** Outstanding invitations: who was invited, with which roles, until when the link works; resend or revoke them. */
export function PendingInvites() {
  const query = usePendingInvites();
  const resend = useResendInvite();
  const [revoking, setRevoking] = useState<PendingInvite | null>(null);

  async function resendInvite(invite: PendingInvite) {
    try {
      const renewed = await resend.mutateAsync(invite.id);
      showToast({
        summary: 'Invitation sent again',
        detail: `We e-mailed ${renewed.email} a new link, valid until ${formatDate(renewed.expires_at)}. The earlier link no longer works.`,
        severity: 'success',
      });
    } catch (failure) {
      showToast({ summary: 'Could not send the invitation again', detail: describeError(failure), severity: 'error' });
    }
  }

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
            Sent and not yet accepted. Links work for seven days; sending again makes a new link.
          </Text>
        </div>
      </Group>
      <ScrollArea>
        <Table verticalSpacing="sm" horizontalSpacing="lg" miw={800} aria-label="Pending invitations">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Email</Table.Th>
              <Table.Th>Roles</Table.Th>
              <Table.Th>Sent</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {query.data.results.map((invite) => (
              <Table.Tr key={invite.id} data-testid={`invite-row-${invite.email}`}>
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
                <Table.Td>
                  <Group gap="xs" wrap="nowrap" justify="flex-end">
                    <Button
                      size="compact-sm"
                      variant="light"
                      loading={resend.isPending && resend.variables === invite.id}
                      onClick={() => void resendInvite(invite)}
                      aria-label={`Send the invitation to ${invite.email} again`}
                    >
                      Resend
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      onClick={() => setRevoking(invite)}
                      aria-label={`Revoke the invitation to ${invite.email}`}
                    >
                      Revoke
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <Modal opened={revoking !== null} onClose={() => setRevoking(null)} title="Revoke this invitation?" centered>
        {revoking ? <RevokeInvite key={revoking.id} invite={revoking} onDone={() => setRevoking(null)} /> : null}
      </Modal>
    </Paper>
  );
}
