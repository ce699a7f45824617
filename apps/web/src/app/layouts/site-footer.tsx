import { Container, Divider, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { BrandLogo } from '../../components/ui/brand-logo';
import classes from './layouts.module.css';

const COLUMNS = [
  {
    title: 'Products',
    links: [
      { to: '/product/dart', label: 'Dart workspace' },
      { to: '/product/find', label: 'Find' },
    ],
  },
  {
    title: 'Company',
    links: [
      { to: '/about', label: 'About' },
      { to: '/contact', label: 'Contact' },
      { to: '/best-practices', label: 'Best practices' },
    ],
  },
  {
    title: 'Policies',
    links: [
      { to: '/terms', label: 'Terms of use' },
      { to: '/privacy', label: 'Privacy' },
      { to: '/chat-policy', label: 'Chat policy' },
    ],
  },
] as const;

/** Read once when the bundle loads; a footer does not need to tick over at midnight on New Year's Eve. */
const CURRENT_YEAR = new Date().getFullYear();

export function SiteFooter() {
  return (
    <footer className={classes.footer}>
      <Container size="xl">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="xl">
          <Stack gap="sm">
            <BrandLogo size="sm" />
            <Text size="sm" c="dimmed" maw={280}>
              Bond trading and market data for India&apos;s debt market: corporate bonds, government securities and money-market
              instruments.
            </Text>
          </Stack>
          {COLUMNS.map((column) => (
            <Stack key={column.title} gap={8} component="nav" aria-label={column.title}>
              <Text size="sm" fw={600}>
                {column.title}
              </Text>
              {column.links.map((link) => (
                <Link key={link.to} to={link.to} className={classes.footerLink}>
                  {link.label}
                </Link>
              ))}
            </Stack>
          ))}
        </SimpleGrid>
        <Divider my="lg" />
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            © {CURRENT_YEAR} Dart. Software for market participants; trades are executed, reported and settled on the exchanges&apos;
            platforms.
          </Text>
          <Text size="xs" c="dimmed">
            Made for the Indian debt market.
          </Text>
        </Group>
      </Container>
    </footer>
  );
}
