/**
 * The ten layouts of spec application §2. Each wraps a page (or an error page rendered in the
 * route's place) and starts with a skip link and a single <main id="main-content">.
 */
import type { Layout } from '@dart/contracts';
import { Anchor, Container, Group, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { BrandLogo } from '../../components/ui/brand-logo';
import { NavLinkLink } from '../../components/ui/router-links';
import { ThemeToggle } from '../../components/ui/theme-toggle';
import { useSession } from '../../lib/session';
import { navVisibility, SETTINGS_NAV } from '../navigation';
import { AppHeader } from './app-header';
import classes from './layouts.module.css';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

interface LayoutProps {
  children: ReactNode;
}

function Main({ children, className = classes.main }: { children: ReactNode; className?: string | undefined }) {
  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className={className}>
      {children}
    </main>
  );
}

/** '/': the site header sits on the landing page's own blue hero. */
export function IndexLayout({ children }: LayoutProps) {
  return (
    <div className={classes.page} data-layout="index">
      <SkipLink />
      <div className={classes.overlayHeader}>
        <SiteHeader variant="inverse" />
      </div>
      <Main>{children}</Main>
      <SiteFooter />
    </div>
  );
}

/** No site header: the page opens with its own hero; only the brand and theme switch sit on it. */
export function NoheaderLayout({ children }: LayoutProps) {
  return (
    <div className={classes.page} data-layout="noheader">
      <SkipLink />
      <div className={classes.overlayHeader}>
        <Container size="xl" h={64}>
          <Group h="100%" justify="space-between">
            <BrandLogo variant="inverse" />
            <ThemeToggle variant="inverse" />
          </Group>
        </Container>
      </div>
      <Main>{children}</Main>
      <SiteFooter />
    </div>
  );
}

/** Public pages: header, content, footer. */
export function DefaultLayout({ children }: LayoutProps) {
  return (
    <div className={classes.page} data-layout="default">
      <SkipLink />
      <SiteHeader />
      <Main>{children}</Main>
      <SiteFooter />
    </div>
  );
}

/** Header without footer: the fallback layout for error pages of visitors. */
export function NofooterLayout({ children }: LayoutProps) {
  return (
    <div className={classes.page} data-layout="nofooter">
      <SkipLink />
      <SiteHeader />
      <Main>
        <Container size="lg" py="xl">
          {children}
        </Container>
      </Main>
    </div>
  );
}

/** Authentication pages on the brand blue, the form in a centred card. */
export function IndependentBlueLayout({ children }: LayoutProps) {
  return (
    <div className={classes.blue} data-layout="independentblue">
      <SkipLink />
      <Container size="lg" w="100%" py="md">
        <Group justify="space-between">
          <BrandLogo variant="inverse" />
          <ThemeToggle variant="inverse" />
        </Group>
      </Container>
      <Main>
        <Stack align="center" justify="center" px="md" py={{ base: 'lg', sm: 48 }} mih="70vh">
          <div className={classes.blueCard}>{children}</div>
        </Stack>
      </Main>
      <Container size="lg" w="100%" py="lg">
        <Group justify="center" gap="lg">
          <Link to="/terms" className={classes.blueFooterLink}>
            Terms
          </Link>
          <Link to="/privacy" className={classes.blueFooterLink}>
            Privacy
          </Link>
          <Link to="/contact" className={classes.blueFooterLink}>
            Contact
          </Link>
        </Group>
      </Container>
    </div>
  );
}

/** Registration: brand and content only, nothing to wander off to. */
export function BareLayout({ children }: LayoutProps) {
  return (
    <div className={classes.bare} data-layout="bare">
      <SkipLink />
      <Container size="md" w="100%" py="md">
        <Group justify="space-between">
          <BrandLogo />
          <ThemeToggle />
        </Group>
      </Container>
      <Main>
        <Container size="md" pb={48}>
          {children}
        </Container>
      </Main>
    </div>
  );
}

/** The signed-in trading app. */
export function DartLayout({ children }: LayoutProps) {
  return (
    <div className={classes.page} data-layout="dart">
      <SkipLink />
      <AppHeader />
      <Main className={classes.appMain}>
        <Container fluid px={{ base: 'sm', sm: 'lg' }} py="lg">
          {children}
        </Container>
      </Main>
    </div>
  );
}

/** Settings: the app header with a section menu on the side. */
export function SettingsLayout({ children }: LayoutProps) {
  const { user } = useSession();
  const items = SETTINGS_NAV.filter((item) => navVisibility(item.path, user) !== 'hidden');
  return (
    <div className={classes.page} data-layout="settings">
      <SkipLink />
      <AppHeader />
      <Main className={classes.appMain}>
        <Container size="xl" py="lg">
          <Group align="flex-start" gap="xl" wrap="nowrap">
            <Stack gap={2} w={220} component="nav" aria-label="Settings" visibleFrom="sm" style={{ flexShrink: 0 }}>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pb={6} lts={0.5}>
                Settings
              </Text>
              {items.map((item) => (
                <NavLinkLink key={item.path} to={item.path} label={item.label} activeProps={{ active: true }} style={{ borderRadius: 8 }} />
              ))}
            </Stack>
            <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
          </Group>
        </Container>
      </Main>
    </div>
  );
}

function ProductLayout({ product, children }: LayoutProps & { product: 'dart' | 'find' }) {
  const links =
    product === 'dart'
      ? {
          name: 'Dart workspace',
          tagline: 'Quote, negotiate and report from one screen',
          other: { to: '/product/find', label: 'See Find' },
        }
      : { name: 'Find', tagline: 'Search and understand every bond', other: { to: '/product/dart', label: 'See the Dart workspace' } };
  return (
    <div className={classes.page} data-layout={`product${product}`}>
      <SkipLink />
      <SiteHeader />
      <div className={classes.productStrip}>
        <Container size="xl" py={10}>
          <Group justify="space-between" gap="xs">
            <Group gap="xs">
              <Text fw={700} size="sm">
                {links.name}
              </Text>
              <Text size="sm" c="dimmed" visibleFrom="sm">
                {links.tagline}
              </Text>
            </Group>
            <Anchor component={Link} to={links.other.to} size="sm">
              {links.other.label}
            </Anchor>
          </Group>
        </Container>
      </div>
      <Main>{children}</Main>
      <SiteFooter />
    </div>
  );
}

export const ProductDartLayout = ({ children }: LayoutProps) => <ProductLayout product="dart">{children}</ProductLayout>;
export const ProductFindLayout = ({ children }: LayoutProps) => <ProductLayout product="find">{children}</ProductLayout>;

export const LAYOUT_COMPONENTS: Record<Layout, (props: LayoutProps) => ReactNode> = {
  index: IndexLayout,
  noheader: NoheaderLayout,
  independentblue: IndependentBlueLayout,
  default: DefaultLayout,
  bare: BareLayout,
  dart: DartLayout,
  settings: SettingsLayout,
  productdart: ProductDartLayout,
  productfind: ProductFindLayout,
  nofooter: NofooterLayout,
};
