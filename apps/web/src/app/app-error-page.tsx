import { useLocation, type ErrorComponentProps } from '@tanstack/react-router';
import { ErrorPage } from '../features/errors';
import { RequestUpgradeButton } from '../features/support';
import { statusOf } from '../lib/errors';
import { homePathFor, useSession } from '../lib/session';
import { DartLayout, NofooterLayout } from './layouts/layouts';

/** An error page for a status, with the 402 page's 'Request Upgrade' for signed-in users. */
export function StatusPage({ status }: { status: number }) {
  const { user } = useSession();
  const location = useLocation();
  return (
    <ErrorPage
      status={status}
      path={location.pathname}
      homePath={homePathFor(user)}
      action={status === 402 && user ? <RequestUpgradeButton page={location.pathname} /> : undefined}
    />
  );
}

/** errorComponent of every page route: rendered inside the route's own layout. */
export function RouteErrorPage({ error }: ErrorComponentProps) {
  return <StatusPage status={statusOf(error)} />;
}

/** Pages without a route layout (unknown routes, root failures): the logged-in layout, else nofooter. */
export function StandaloneStatusPage({ status }: { status: number }) {
  const { user } = useSession();
  const Layout = user ? DartLayout : NofooterLayout;
  return (
    <Layout>
      <StatusPage status={status} />
    </Layout>
  );
}

export function NotFoundPage() {
  return <StandaloneStatusPage status={404} />;
}

export function RootErrorPage({ error }: ErrorComponentProps) {
  return <StandaloneStatusPage status={statusOf(error)} />;
}
