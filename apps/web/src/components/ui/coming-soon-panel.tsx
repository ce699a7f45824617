import { Badge, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { CheckIcon } from './icons';

interface ComingSoonPanelProps {
  icon: ReactNode;
  title: string;
  summary: string;
  /** What the finished screen will offer. */
  features: readonly string[];
  children?: ReactNode;
}

/**
 * A styled, honest placeholder for a screen whose feature arrives in a later release: it names
 * what will be there and shows no invented data.
 */
export function ComingSoonPanel({ icon, title, summary, features, children }: ComingSoonPanelProps) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }} shadow="xs">
      <Stack gap="lg">
        <Group gap="md" align="flex-start" wrap="nowrap">
          <ThemeIcon size={48} radius="md" variant="light">
            {icon}
          </ThemeIcon>
          <Stack gap={6}>
            <Group gap="sm">
              <Title order={2} fz={20}>
                {title}
              </Title>
              <Badge variant="light" color="gray" radius="sm">
                Coming in a later release
              </Badge>
            </Group>
            <Text c="dimmed" maw={680}>
              {summary}
            </Text>
          </Stack>
        </Group>
        <div>
          <Text fw={600} size="sm" mb="xs">
            What you will be able to do here
          </Text>
          <List
            spacing={8}
            size="sm"
            icon={
              <ThemeIcon size={20} radius="xl" variant="light" color="teal">
                <CheckIcon size={13} />
              </ThemeIcon>
            }
          >
            {features.map((feature) => (
              <List.Item key={feature}>{feature}</List.Item>
            ))}
          </List>
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
