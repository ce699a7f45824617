/**
 * The route tree of spec application §2: one pathless layout route per layout, every page route
 * under its layout, each guarded in `beforeLoad` with the contracts' policy functions. Errors a
 * guard throws (401, 402, 410) render through the page's errorComponent inside its layout.
 */
import { HttpError } from '@dart/client';
import { ROUTE_PREFETCH_DELAY_MS } from '@dart/contracts';
import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
  type ParsedLocation,
} from '@tanstack/react-router';
import { SignedOut } from '../features/auth';
import { ChatProvider } from '../features/chat';
import { useSessionRecording } from '../features/recording';
import { inviteQueryOptions, RegistrationFlow } from '../features/registration';
import { RouteError } from '../lib/errors';
import { homePathFor } from '../lib/session';
import { showToast } from '../lib/toast';
import { NotFoundPage, RootErrorPage, RouteErrorPage } from './app-error-page';
import { LAYOUT_COMPONENTS } from './layouts/layouts';
import { lookupRedirect } from './redirect-lookup';
import { guardRoute, loadSession, webRoute, type RouterContext } from './route-guard';
import { ForgotPasswordScreen, LoginScreen, ResetPasswordScreen } from './routes/auth-screens';
import { PendingPage, RootComponent } from './root-component';

// Page bodies load on demand (and are prefetched with their route); the shell above stays in the entry chunk.
const marketing = () => import('../features/marketing');
const appScreens = () => import('./routes/app-screens');
const settingsScreens = () => import('./routes/settings-screens');
const LandingPage = lazyRouteComponent(marketing, 'LandingPage');
const AboutPage = lazyRouteComponent(marketing, 'AboutPage');
const BestPracticesPage = lazyRouteComponent(marketing, 'BestPracticesPage');
const ChatPolicyPage = lazyRouteComponent(marketing, 'ChatPolicyPage');
const PrivacyPage = lazyRouteComponent(marketing, 'PrivacyPage');
const TermsPage = lazyRouteComponent(marketing, 'TermsPage');
const ProductDartPage = lazyRouteComponent(marketing, 'ProductDartPage');
const ProductFindPage = lazyRouteComponent(marketing, 'ProductFindPage');
const ContactScreen = lazyRouteComponent(() => import('./routes/public-screens'), 'ContactScreen');
const DartScreen = lazyRouteComponent(appScreens, 'DartScreen');
const ChatScreen = lazyRouteComponent(() => import('./routes/chat-screens'), 'ChatScreen');
const findScreens = () => import('./routes/find-screens');
const FindScreen = lazyRouteComponent(findScreens, 'FindScreen');
const SecurityScreen = lazyRouteComponent(findScreens, 'SecurityScreen');
const InventoryScreen = lazyRouteComponent(appScreens, 'InventoryScreen');
const TransactionsScreen = lazyRouteComponent(appScreens, 'TransactionsScreen');
const SurveillanceScreen = lazyRouteComponent(appScreens, 'SurveillanceScreen');
const RedirectFallbackScreen = lazyRouteComponent(appScreens, 'RedirectFallbackScreen');
const ProfileScreen = lazyRouteComponent(settingsScreens, 'ProfileScreen');
const ClientProfileScreen = lazyRouteComponent(settingsScreens, 'ClientProfileScreen');
const ManageUsersScreen = lazyRouteComponent(settingsScreens, 'ManageUsersScreen');
const ExchangeCredentialsScreen = lazyRouteComponent(settingsScreens, 'ExchangeCredentialsScreen');
const SupportRequestsScreen = lazyRouteComponent(settingsScreens, 'SupportRequestsScreen');
const SupportQueueScreen = lazyRouteComponent(settingsScreens, 'SupportQueueScreen');
const SessionRecordingsScreen = lazyRouteComponent(() => import('./routes/ops-screens'), 'SessionRecordingsScreen');
const WhatsAppMessagesScreen = lazyRouteComponent(() => import('./routes/whatsapp-screens'), 'WhatsAppMessagesScreen');

const rootRoute = createRootRouteWithContext<RouterContext>()({
  // Load the session once per page load, before any page decides what to show.
  beforeLoad: async ({ context }) => {
    await loadSession(context.queryClient, false);
  },
  component: function RecordedRoot() {
    // Masked session recording (issue 16 §3): only when the server has it on, from sign-in to sign-out.
    useSessionRecording();
    return <RootComponent />;
  },
  notFoundComponent: NotFoundPage,
  errorComponent: RootErrorPage,
});

function layoutComponent(layout: keyof typeof LAYOUT_COMPONENTS) {
  const Layout = LAYOUT_COMPONENTS[layout];
  return function LayoutRoute() {
    return (
      <Layout>
        <Outlet />
      </Layout>
    );
  };
}

const indexLayout = createRoute({ getParentRoute: () => rootRoute, id: 'index-layout', component: layoutComponent('index') });
const noheaderLayout = createRoute({ getParentRoute: () => rootRoute, id: 'noheader-layout', component: layoutComponent('noheader') });
const blueLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: 'independentblue-layout',
  component: layoutComponent('independentblue'),
});
const defaultLayout = createRoute({ getParentRoute: () => rootRoute, id: 'default-layout', component: layoutComponent('default') });
const bareLayout = createRoute({ getParentRoute: () => rootRoute, id: 'bare-layout', component: layoutComponent('bare') });
const DartLayout = layoutComponent('dart');
// The chat session lives as long as the signed-in app (the workspace panel and /chat share it).
const dartLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: 'dart-layout',
  component: function DartLayoutWithChat() {
    return (
      <ChatProvider>
        <DartLayout />
      </ChatProvider>
    );
  },
});
const settingsLayout = createRoute({ getParentRoute: () => rootRoute, id: 'settings-layout', component: layoutComponent('settings') });
const productDartLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: 'productdart-layout',
  component: layoutComponent('productdart'),
});
const productFindLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: 'productfind-layout',
  component: layoutComponent('productfind'),
});

/** beforeLoad + errorComponent of a page route, from its entry in WEB_ROUTES. */
function guarded(path: string) {
  const route = webRoute(path);
  return {
    beforeLoad: ({ context, location }: { context: RouterContext; location: ParsedLocation }) => guardRoute(route, context, location),
    errorComponent: RouteErrorPage,
  };
}

const optionalString = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

// Public pages
const homeRoute = createRoute({ getParentRoute: () => indexLayout, path: '/', ...guarded('/'), component: LandingPage });
const aboutRoute = createRoute({ getParentRoute: () => noheaderLayout, path: '/about', ...guarded('/about'), component: AboutPage });
const bestPracticesRoute = createRoute({
  getParentRoute: () => defaultLayout,
  path: '/best-practices',
  ...guarded('/best-practices'),
  component: BestPracticesPage,
});
const chatPolicyRoute = createRoute({
  getParentRoute: () => defaultLayout,
  path: '/chat-policy',
  ...guarded('/chat-policy'),
  component: ChatPolicyPage,
});
const contactRoute = createRoute({
  getParentRoute: () => defaultLayout,
  path: '/contact',
  ...guarded('/contact'),
  component: ContactScreen,
});
const privacyRoute = createRoute({ getParentRoute: () => defaultLayout, path: '/privacy', ...guarded('/privacy'), component: PrivacyPage });
const termsRoute = createRoute({ getParentRoute: () => defaultLayout, path: '/terms', ...guarded('/terms'), component: TermsPage });
const logoutRoute = createRoute({
  getParentRoute: () => defaultLayout,
  path: '/auth/logout',
  ...guarded('/auth/logout'),
  component: SignedOut,
});
const productDartRoute = createRoute({
  getParentRoute: () => productDartLayout,
  path: '/product/dart',
  ...guarded('/product/dart'),
  component: ProductDartPage,
});
const productFindRoute = createRoute({
  getParentRoute: () => productFindLayout,
  path: '/product/find',
  ...guarded('/product/find'),
  component: ProductFindPage,
});

// Authentication (unauthenticated-only)
const loginRoute = createRoute({
  getParentRoute: () => blueLayout,
  path: '/auth/login',
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => ({ redirect: optionalString(search.redirect) }),
  ...guarded('/auth/login'),
  component: function LoginRoute() {
    const { redirect: target } = loginRoute.useSearch();
    return <LoginScreen redirect={target} />;
  },
});
const forgotPasswordRoute = createRoute({
  getParentRoute: () => blueLayout,
  path: '/auth/forgot-password',
  ...guarded('/auth/forgot-password'),
  component: ForgotPasswordScreen,
});
const resetPasswordRoute = createRoute({
  getParentRoute: () => blueLayout,
  path: '/auth/reset-password',
  validateSearch: (search: Record<string, unknown>): { uid?: string; token?: string } => ({
    uid: optionalString(search.uid) ?? (typeof search.uid === 'number' ? String(search.uid) : undefined),
    token: optionalString(search.token) ?? (typeof search.token === 'number' ? String(search.token) : undefined),
  }),
  ...guarded('/auth/reset-password'),
  component: function ResetPasswordRoute() {
    const { uid, token } = resetPasswordRoute.useSearch();
    return <ResetPasswordScreen uid={uid} token={token} />;
  },
});

// Registration with invite validation (410 page for an invalid invite)
const registerRoute = createRoute({
  getParentRoute: () => bareLayout,
  path: '/client/register',
  validateSearch: (search: Record<string, unknown>): { invite?: string } => ({ invite: optionalString(search.invite) }),
  beforeLoad: async ({ context, location, search }) => {
    await guardRoute(webRoute('/client/register'), context, location);
    if (!search.invite) return { invite: undefined };
    try {
      return { invite: await context.queryClient.ensureQueryData(inviteQueryOptions(search.invite)) };
    } catch (error) {
      if (error instanceof HttpError && error.status >= 400 && error.status < 500) throw new RouteError(410);
      throw error;
    }
  },
  errorComponent: RouteErrorPage,
  component: function RegisterRoute() {
    const { invite } = registerRoute.useRouteContext();
    const navigate = registerRoute.useNavigate();
    return (
      <RegistrationFlow
        {...(invite ? { invite } : {})}
        onRegistered={(user) => {
          showToast({ summary: `Welcome to Dart, ${user.user_info.first_name}`, detail: 'Your account is ready.', severity: 'success' });
          void navigate({ href: homePathFor(user), replace: true });
        }}
      />
    );
  },
});

// The signed-in app
const dartRoute = createRoute({ getParentRoute: () => dartLayout, path: '/dart', ...guarded('/dart'), component: DartScreen });
const findRoute = createRoute({ getParentRoute: () => dartLayout, path: '/find', ...guarded('/find'), component: FindScreen });
const chatRoute = createRoute({ getParentRoute: () => dartLayout, path: '/chat', ...guarded('/chat'), component: ChatScreen });
const securityRoute = createRoute({
  getParentRoute: () => dartLayout,
  path: '/security/$id',
  ...guarded('/security/$id'),
  component: function SecurityRoute() {
    const { id } = securityRoute.useParams();
    return <SecurityScreen id={id} />;
  },
});
const inventoryRoute = createRoute({
  getParentRoute: () => dartLayout,
  path: '/inventory',
  ...guarded('/inventory'),
  component: InventoryScreen,
});
const transactionsRoute = createRoute({
  getParentRoute: () => dartLayout,
  path: '/client/transactions',
  ...guarded('/client/transactions'),
  component: TransactionsScreen,
});
const surveillanceRoute = createRoute({
  getParentRoute: () => dartLayout,
  path: '/surveillance',
  ...guarded('/surveillance'),
  component: SurveillanceScreen,
});

function redirectRoute(path: '/market' | '/trade') {
  const route = webRoute(path);
  return {
    beforeLoad: async ({ context, location }: { context: RouterContext; location: ParsedLocation }) => {
      await guardRoute(route, context, location);
      const target = await lookupRedirect(location.pathname);
      if (target) throw redirect({ href: target });
    },
    errorComponent: RouteErrorPage,
    component: () => <RedirectFallbackScreen title={route.title} />,
  };
}
const marketRoute = createRoute({ getParentRoute: () => dartLayout, path: '/market', ...redirectRoute('/market') });
const tradeRoute = createRoute({ getParentRoute: () => dartLayout, path: '/trade', ...redirectRoute('/trade') });

// Settings
const profileRoute = createRoute({
  getParentRoute: () => settingsLayout,
  path: '/profile',
  ...guarded('/profile'),
  component: ProfileScreen,
});
const clientProfileRoute = createRoute({
  getParentRoute: () => settingsLayout,
  path: '/client/profile',
  ...guarded('/client/profile'),
  component: ClientProfileScreen,
});
const manageUsersRoute = createRoute({
  getParentRoute: () => settingsLayout,
  path: '/manage-users',
  ...guarded('/manage-users'),
  component: ManageUsersScreen,
});
const exchangeCredentialsRoute = createRoute({
  getParentRoute: () => settingsLayout,
  path: '/exchange-credentials',
  ...guarded('/exchange-credentials'),
  component: ExchangeCredentialsScreen,
});
const supportRequestsRoute = createRoute({
  getParentRoute: () => settingsLayout,
  path: '/support/requests',
  ...guarded('/support/requests'),
  component: SupportRequestsScreen,
});
const supportQueueRoute = createRoute({
  getParentRoute: () => settingsLayout,
  path: '/support/queue',
  ...guarded('/support/queue'),
  component: SupportQueueScreen,
});
const sessionRecordingsRoute = createRoute({
  getParentRoute: () => settingsLayout,
  path: '/ops/sessions',
  ...guarded('/ops/sessions'),
  component: SessionRecordingsScreen,
});
const whatsAppMessagesRoute = createRoute({
  getParentRoute: () => settingsLayout,
  path: '/whatsapp/messages',
  ...guarded('/whatsapp/messages'),
  component: WhatsAppMessagesScreen,
});

const routeTree = rootRoute.addChildren([
  indexLayout.addChildren([homeRoute]),
  noheaderLayout.addChildren([aboutRoute]),
  blueLayout.addChildren([loginRoute, forgotPasswordRoute, resetPasswordRoute]),
  defaultLayout.addChildren([bestPracticesRoute, chatPolicyRoute, contactRoute, privacyRoute, termsRoute, logoutRoute]),
  bareLayout.addChildren([registerRoute]),
  dartLayout.addChildren([
    dartRoute,
    chatRoute,
    findRoute,
    securityRoute,
    inventoryRoute,
    transactionsRoute,
    surveillanceRoute,
    marketRoute,
    tradeRoute,
  ]),
  settingsLayout.addChildren([
    profileRoute,
    clientProfileRoute,
    manageUsersRoute,
    exchangeCredentialsRoute,
    supportRequestsRoute,
    supportQueueRoute,
    sessionRecordingsRoute,
    whatsAppMessagesRoute,
  ]),
  productDartLayout.addChildren([productDartRoute]),
  productFindLayout.addChildren([productFindRoute]),
]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    // Spec §2/§9: routes are prefetched after a delay of 1000 ms (hover or focus on a link).
    defaultPreload: 'intent',
    defaultPreloadDelay: ROUTE_PREFETCH_DELAY_MS,
    // Guards read the query cache; the router itself caches nothing extra.
    defaultPreloadStaleTime: 0,
    defaultPendingComponent: PendingPage,
    notFoundMode: 'root',
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
