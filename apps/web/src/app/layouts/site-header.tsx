import { Burger, Container, Drawer, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link } from '@tanstack/react-router';
import { BrandLogo } from '../../components/ui/brand-logo';
import { ButtonLink } from '../../components/ui/router-links';
import { ThemeToggle } from '../../components/ui/theme-toggle';
import { homePathFor, useSession } from '../../lib/session';
import classes from './layouts.module.css';

const SITE_NAV = [
  { to: '/product/dart', label: 'Dart' },
  { to: '/product/find', label: 'Find' },
  { to: '/about', label: 'About' },
  { to: '/best-practices', label: 'Best practices' },
  { to: '/contact', label: 'Contact' },
] as const;

/** The public site header. 'inverse' sits on the blue hero of the landing pages. */
export function SiteHeader({ variant = 'default' }: { variant?: 'default' | 'inverse' }) {
  const { user, status } = useSession();
  const [opened, { toggle, close }] = useDisclosure(false);
  const inverse = variant === 'inverse';

  const actions =
    status === 'loading' ? null : user ? (
      <ButtonLink to={homePathFor(user)} variant={inverse ? 'white' : 'filled'}>
        Open Dart
      </ButtonLink>
    ) : (
      <>
        <ButtonLink to="/auth/login" variant={inverse ? 'white' : 'default'}>
          Sign in
        </ButtonLink>
        <ButtonLink to="/client/register" variant={inverse ? 'outline' : 'filled'} color={inverse ? 'white' : undefined} visibleFrom="sm">
          Register
        </ButtonLink>
      </>
    );

  return (
    <header className={classes.siteHeader} data-variant={variant}>
      <Container size="xl" h="100%">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="xl" wrap="nowrap">
            <BrandLogo variant={inverse ? 'inverse' : 'default'} />
            <Group gap={2} component="nav" aria-label="Site" visibleFrom="md">
              {SITE_NAV.map((item) => (
                <Link key={item.to} to={item.to} className={classes.siteNavLink}>
                  {item.label}
                </Link>
              ))}
            </Group>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <ThemeToggle variant={inverse ? 'inverse' : 'default'} />
            <Group gap="sm" wrap="nowrap" visibleFrom="xs">
              {actions}
            </Group>
            <Burger opened={opened} onClick={toggle} hiddenFrom="md" aria-label="Open navigation" color={inverse ? 'white' : undefined} />
          </Group>
        </Group>
      </Container>
      <Drawer opened={opened} onClose={close} title="Dart" size="xs" position="right" hiddenFrom="md">
        <Stack gap={4} component="nav" aria-label="Site">
          {SITE_NAV.map((item) => (
            <Link key={item.to} to={item.to} className={classes.siteNavLink} onClick={close}>
              {item.label}
            </Link>
          ))}
          <Group mt="md" gap="sm">
            {user ? (
              <ButtonLink to={homePathFor(user)} onClick={close}>
                Open Dart
              </ButtonLink>
            ) : (
              <>
                <ButtonLink to="/auth/login" variant="default" onClick={close}>
                  Sign in
                </ButtonLink>
                <ButtonLink to="/client/register" onClick={close}>
                  Register
                </ButtonLink>
              </>
            )}
          </Group>
        </Stack>
      </Drawer>
    </header>
  );
}
