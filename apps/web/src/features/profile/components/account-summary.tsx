import { ROLE_LABELS, type SessionUser } from '@dart/contracts';
import { Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.4}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

/** Read-only facts of the account, straight from the session. */
export function AccountSummary({ user }: { user: SessionUser }) {
  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap="md">
        <Title order={2} fz={18}>
          Account
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg">
          <Item label="Organisation">
            <Text fw={500}>{user.name}</Text>
          </Item>
          <Item label="Roles">
            <Group gap={6}>
              {user.user_info.roles.map((role) => (
                <Badge key={role} variant="light" radius="sm" tt="none">
                  {ROLE_LABELS[role]}
                </Badge>
              ))}
            </Group>
          </Item>
          <Item label="Plan">
            <Badge variant={user.client_tier === 'PREMIUM' ? 'filled' : 'outline'} radius="sm">
              {user.client_tier === 'PREMIUM' ? 'Premium' : 'Basic'}
            </Badge>
          </Item>
          <Item label="Exchanges">
            <Text fw={500}>{user.allowed_exchanges.join(', ') || 'None'}</Text>
          </Item>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
