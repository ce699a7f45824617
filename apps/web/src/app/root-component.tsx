import { findWebRoute } from '@dart/contracts';
import { Center, Loader, Stack, Text } from '@mantine/core';
import { Outlet, useRouter, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { PRODUCT_NAME } from '../config/site';
import { useConnectivityToasts, useNewBuildNotice, useVersionCheck } from '../features/app-status';
import { useSessionRefresh } from '../features/auth';
import { useDisplayPreferencesSync } from '../features/profile';
import { onSessionLost } from '../lib/api-client';

function useDocumentTitle(): void {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  useEffect(() => {
    const route = findWebRoute(pathname);
    document.title = route && route.path !== '/' ? `${route.title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [pathname]);
}

/** Spec §8: when the session cannot be recovered, log out and go to /auth/logout. */
function useSessionLostRedirect(): void {
  const router = useRouter();
  useEffect(() => {
    onSessionLost(() => {
      if (router.state.location.pathname !== '/auth/logout') void router.navigate({ to: '/auth/logout' });
    });
  }, [router]);
}

export function RootComponent() {
  useSessionLostRedirect();
  useSessionRefresh();
  useVersionCheck();
  useNewBuildNotice();
  useConnectivityToasts();
  useDisplayPreferencesSync();
  useDocumentTitle();
  return <Outlet />;
}

export function PendingPage() {
  return (
    <Center mih="60vh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader />
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      </Stack>
    </Center>
  );
}
