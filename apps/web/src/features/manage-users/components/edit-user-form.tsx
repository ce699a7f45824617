import { ROLES, UserRolesUpdateSchema, type Permission, type Role } from '@dart/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { applyServerErrors } from '../../../lib/form-errors';
import { showToast } from '../../../lib/toast';
import { AccessFields } from './access-fields';
import type { ClientUser } from '../api/get-client-users';
import { useUpdateUser } from '../api/update-user';

/**
 * One member's roles and permissions (PUT api/client/user/). The spec's role rules (application §6) are checked
 * here with the contracts' schema before the call, and the server's field errors (the last OpsAdmin) land on the
 * same fields.
 */
export function EditUserForm({ user, onDone }: { user: ClientUser; onDone: () => void }) {
  const form = useForm({
    resolver: zodResolver(UserRolesUpdateSchema),
    defaultValues: { user_id: user.id, roles: [...user.roles] as Role[], permissions: [...user.permissions] as Permission[] },
  });
  const [roles, permissions] = useWatch({ control: form.control, name: ['roles', 'permissions'] });
  const update = useUpdateUser();
  const [formError, setFormError] = useState<string | null>(null);
  const { errors, isSubmitting } = form.formState;
  const name = `${user.first_name} ${user.last_name}`.trim() || user.email;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await update.mutateAsync(values);
      showToast({ summary: 'Roles saved', detail: `${name} now has the roles you chose.`, severity: 'success' });
      onDone();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['roles', 'permissions', 'status']));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Edit roles of ${name}`}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {user.email}. A compliance user has exactly two roles, one of them Compliance Officer; a viewer has only the Viewer role.
        </Text>
        <FormErrorAlert message={formError} />
        <AccessFields
          roles={ROLES}
          value={{ roles, permissions: permissions ?? [] }}
          onRolesChange={(next) => form.setValue('roles', next, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
          onPermissionsChange={(next) =>
            form.setValue('permissions', next, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })
          }
          errors={{ roles: errors.roles?.message ?? errors.status?.message, permissions: errors.permissions?.message }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Save roles
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
