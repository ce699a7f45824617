import { ERROR_PAGES, pageNotFoundText } from '@dart/contracts';
import { Anchor, Badge, Code, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { AlertIcon, BoxIcon, ChartIcon, CompassIcon, LinkOffIcon, LockIcon, ReceiptIcon, StarIcon } from '../../../components/ui/icons';
import { ButtonLink } from '../../../components/ui/router-links';
import { SITE_LINKS } from '../../../config/site';

export interface ErrorPageProps {
  status: number;
  /** The path that was asked for (404). */
  path?: string;
  /** Where 'Back to Home' goes: the signed-in user's home, else '/'. */
  homePath: string;
  /** Extra action, e.g. the 402 page's 'Request Upgrade'. */
  action?: ReactNode;
}

type KnownStatus = 401 | 402 | 404 | 410 | 500;
const isKnown = (status: number): status is KnownStatus => status in ERROR_PAGES && status !== 200;

const ICONS: Record<KnownStatus | 'other', ReactNode> = {
  401: <LockIcon size={30} />,
  402: <StarIcon size={30} />,
  404: <CompassIcon size={30} />,
  410: <LinkOffIcon size={30} />,
  500: <AlertIcon size={30} />,
  other: <AlertIcon size={30} />,
};
const COLORS: Record<KnownStatus | 'other', string> = {
  401: 'red',
  402: 'yellow',
  404: 'dart',
  410: 'orange',
  500: 'red',
  other: 'gray',
};

const PREMIUM_FEATURES = [
  { icon: <ChartIcon size={18} />, text: 'Manage your portfolio efficiently' },
  { icon: <BoxIcon size={18} />, text: 'Execute trades from a single screen' },
  { icon: <ReceiptIcon size={18} />, text: 'Record external trades' },
];

/** The error pages of spec application §2, by status code, with their texts and buttons. */
export function ErrorPage({ status, path, homePath, action }: ErrorPageProps) {
  const key = isKnown(status) ? status : 'other';
  const page = key === 'other' ? ERROR_PAGES.other : ERROR_PAGES[key];

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'lg', sm: 48 }}
      maw={640}
      mx="auto"
      my={{ base: 24, sm: 56 }}
      shadow="sm"
      data-testid="error-page"
      data-status={status}
    >
      <Stack align="center" gap="md" ta="center">
        <ThemeIcon size={64} radius="xl" variant="light" color={COLORS[key]}>
          {ICONS[key]}
        </ThemeIcon>
        {status > 200 ? (
          <Badge variant="outline" color={COLORS[key]} radius="sm" size="lg">
            Error {status}
          </Badge>
        ) : null}
        <Title order={1} fz={30}>
          {page.title}
        </Title>
        {page.body ? (
          <Text c="dimmed" maw={480}>
            {page.body}
          </Text>
        ) : null}
        {status === 404 && path ? (
          <Text size="sm">
            <Code fz="sm">{pageNotFoundText(path)}</Code>
          </Text>
        ) : null}
        {status === 402 ? (
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" w="100%" mt="xs">
            {PREMIUM_FEATURES.map((feature) => (
              <Paper key={feature.text} withBorder radius="md" p="sm">
                <Stack gap={6} align="center">
                  <ThemeIcon variant="light" color="yellow" radius="md">
                    {feature.icon}
                  </ThemeIcon>
                  <Text size="sm" fw={500}>
                    {feature.text}
                  </Text>
                </Stack>
              </Paper>
            ))}
          </SimpleGrid>
        ) : null}
        {status === 410 ? (
          <Group gap="lg" justify="center">
            <Anchor href={SITE_LINKS.website}>Website</Anchor>
            <Anchor href={SITE_LINKS.blog}>Blog</Anchor>
            <Anchor href={SITE_LINKS.learnMore}>Learn more</Anchor>
          </Group>
        ) : null}
        <Group gap="sm" justify="center" mt="sm">
          {action}
          {status > 200 ? (
            <ButtonLink to={homePath} variant={action ? 'default' : 'filled'} size="md">
              Back to Home
            </ButtonLink>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}
