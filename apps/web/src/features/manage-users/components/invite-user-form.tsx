import { InviteCreateSchema, type Permission, type Role } from '@dart/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { CheckIcon } from '../../../components/ui/icons';
import { applyServerErrors } from '../../../lib/form-errors';
import { formatDate } from '../../../lib/format';
import { showToast } from '../../../lib/toast';
import { useCreateInvite, type Invite } from '../api/create-invite';
import { AccessFields } from './access-fields';

/** Roles an ops admin hands out to colleagues ('user' is the implicit basic role). */
const INVITABLE_ROLES: readonly Role[] = ['clientdealer', 'clientviewer', 'clientopsadmin', 'backoffice', 'complianceofficer'];

export function InviteUserForm() {
  const form = useForm({
    resolver: zodResolver(InviteCreateSchema),
    defaultValues: { email: '', roles: ['clientdealer'] as Role[], permissions: [] as Permission[] },
  });
  const [roles, permissions] = useWatch({ control: form.control, name: ['roles', 'permissions'] });
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
        <AccessFields
          roles={INVITABLE_ROLES}
          value={{ roles, permissions: permissions ?? [] }}
          onRolesChange={(next) => form.setValue('roles', next, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
          onPermissionsChange={(next) =>
            form.setValue('permissions', next, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })
          }
          errors={{ roles: errors.roles?.message, permissions: errors.permissions?.message }}
        />
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
