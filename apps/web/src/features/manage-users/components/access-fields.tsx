import { PERMISSIONS, PERMISSION_LABELS, ROLE_LABELS, type Permission, type Role } from '@dart/contracts';
import { Checkbox, SimpleGrid, Stack } from '@mantine/core';

export interface AccessFieldsProps {
  /** The roles offered (an invitation offers fewer than an edit). */
  roles: readonly Role[];
  value: { roles: Role[]; permissions: Permission[] };
  onRolesChange: (roles: Role[]) => void;
  onPermissionsChange: (permissions: Permission[]) => void;
  errors?: { roles?: string | undefined; permissions?: string | undefined };
}

/** The roles and page permissions of a member, as the invite and edit forms both ask for them. */
export function AccessFields({ roles, value, onRolesChange, onPermissionsChange, errors = {} }: AccessFieldsProps) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
      <Checkbox.Group
        label="Roles"
        withAsterisk
        value={value.roles}
        onChange={(next) => onRolesChange(next as Role[])}
        error={errors.roles}
      >
        <Stack gap={8} mt={6}>
          {roles.map((role) => (
            <Checkbox key={role} value={role} label={ROLE_LABELS[role]} />
          ))}
        </Stack>
      </Checkbox.Group>
      <Checkbox.Group
        label="Permissions"
        value={value.permissions}
        onChange={(next) => onPermissionsChange(next as Permission[])}
        error={errors.permissions}
      >
        <Stack gap={8} mt={6}>
          {PERMISSIONS.map((permission) => (
            <Checkbox key={permission} value={permission} label={PERMISSION_LABELS[permission]} />
          ))}
        </Stack>
      </Checkbox.Group>
    </SimpleGrid>
  );
}
