import { InviteCreateSchema, PERMISSIONS, PERMISSION_LABELS, ROLE_LABELS, type Role } from '@dart/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Checkbox, CopyButton, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { CheckIcon } from '../../../components/ui/icons';
import { applyServerErrors } from '../../../lib/form-errors';
import { formatDate } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useCreateInvite, type Invite } from '../api/create-invite';

/** Roles an ops admin hands out to colleagues ('user' is the implicit basic role). */
const INVITABLE_ROLES: readonly Role[] = ['clientdealer', 'clientviewer', 'clientopsadmin', 'backoffice', 'complianceofficer'];

export function InviteUserForm() {
  const form = useForm({
    resolver: zodResolver(InviteCreateSchema),
    defaultValues: { email: '', roles: ['clientdealer'] as Role[], permissions: [] as (typeof PERMISSIONS)[number][] },
  });
  const createInvite = useCreateInvite();
  const [formError, setFormError] = useState<string | null>(null);
  const [invite, setInvite] = useState<Invite | null>(null);
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const created = await createInvite.mutateAsync(values);
      setInvite(created);
      form.reset();
      showToast({ summary: 'Invitation sent', detail: `We e-mailed ${created.email} a link to join.`, severity: 'success' });
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['email', 'roles', 'permissions']));
    }
  });

  const inviteLink = invite?.token ? `${window.location.origin}/client/register?invite=${encodeURIComponent(invite.token)}` : null;

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Invite a user">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          They receive an e-mail link to join your organisation with the roles you choose.
        </Text>
        <FormErrorAlert message={formError} />
        <TextInput
          label="Email"
          type="email"
          placeholder="colleague@company.com"
          required
          error={errors.email?.message}
          {...form.register('email')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <Controller
            control={form.control}
            name="roles"
            render={({ field }) => (
              <Checkbox.Group
                label="Roles"
                withAsterisk
                value={field.value}
                onChange={(value) => field.onChange(value as Role[])}
                error={errors.roles?.message}
              >
                <Stack gap={8} mt={6}>
                  {INVITABLE_ROLES.map((role) => (
                    <Checkbox key={role} value={role} label={ROLE_LABELS[role]} />
                  ))}
                </Stack>
              </Checkbox.Group>
            )}
          />
          <Controller
            control={form.control}
            name="permissions"
            render={({ field }) => (
              <Checkbox.Group label="Permissions" value={field.value ?? []} onChange={field.onChange}>
                <Stack gap={8} mt={6}>
                  {PERMISSIONS.map((permission) => (
                    <Checkbox key={permission} value={permission} label={PERMISSION_LABELS[permission]} />
                  ))}
                </Stack>
              </Checkbox.Group>
            )}
          />
        </SimpleGrid>
        <Button type="submit" loading={isSubmitting}>
          Send invitation
        </Button>
        {invite ? (
          <Alert color="teal" variant="light" icon={<CheckIcon />} title={`Invitation sent to ${invite.email}`} role="status">
            <Stack gap={6}>
              <Text size="sm">Valid until {formatDate(invite.expires_at)}.</Text>
              {inviteLink ? (
                <CopyButton value={inviteLink}>
                  {({ copied, copy }) => (
                    <Group>
                      <Button size="xs" variant="light" color="teal" onClick={copy}>
                        {copied ? 'Link copied' : 'Copy invitation link'}
                      </Button>
                    </Group>
                  )}
                </CopyButton>
              ) : null}
            </Stack>
          </Alert>
        ) : null}
      </Stack>
    </form>
  );
}
