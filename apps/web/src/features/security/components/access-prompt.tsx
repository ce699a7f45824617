import { Alert, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { LockIcon, StarIcon } from '../../../components/ui/icons';

/** Who is looking at the security page: decides which panels load and which prompt instead. */
export type SecurityAccess = 'visitor' | 'no-permission' | 'basic' | 'full';

/** An inline prompt in place of a panel the viewer cannot open (sign in, permission, Premium upgrade). */
export function AccessPrompt({ access, what, action }: { access: Exclude<SecurityAccess, 'full'>; what: string; action?: ReactNode }) {
  const premium = access === 'basic';
  const title =
    access === 'visitor'
      ? `Sign in to see ${what}`
      : premium
        ? `${what[0]!.toUpperCase()}${what.slice(1)} are a Premium feature`
        : `No access to ${what}`;
  const body =
    access === 'visitor'
      ? 'Security data is available to signed-in members of Dart.'
      : premium
        ? 'Your organisation is on the Basic plan. Upgrade to Premium to see this.'
        : 'Your role does not include security data access. Ask your organisation admin.';
  return (
    <Alert
      variant="light"
      color={premium ? 'yellow' : 'gray'}
      icon={premium ? <StarIcon size={18} /> : <LockIcon size={18} />}
      title={title}
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm">{body}</Text>
        {action}
      </Group>
    </Alert>
  );
}
