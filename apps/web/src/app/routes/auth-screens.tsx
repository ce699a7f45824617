import type { SessionUser } from '@dart/contracts';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useRouter } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { AnchorLink } from '../../components/ui/router-links';
import { ForgotPasswordForm, ResetPasswordForm, SignInPanel } from '../../features/auth';
import { homePathFor, safeRedirectPath } from '../../lib/session';

function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <Paper radius="lg" p={{ base: 'lg', sm: 32 }} shadow="xl" withBorder>
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz={24}>
            {title}
          </Title>
          {subtitle ? (
            <Text c="dimmed" size="sm">
              {subtitle}
            </Text>
          ) : null}
        </Stack>
        {children}
        {footer}
      </Stack>
    </Paper>
  );
}

/** /auth/login: after sign-in go to the redirect parameter, else the role's home (spec §4). */
export function LoginScreen({ redirect }: { redirect: string | undefined }) {
  const router = useRouter();
  const onSignedIn = (user: SessionUser) => {
    void router.navigate({ href: safeRedirectPath(redirect) ?? homePathFor(user), replace: true });
  };
  return (
    <AuthCard
      title="Sign in to Dart"
      subtitle="Welcome back. Use your password or a one-time code."
      footer={
        <Text size="sm" ta="center" c="dimmed">
          New to Dart? <AnchorLink to="/client/register">Register your organisation</AnchorLink>
        </Text>
      }
    >
      <SignInPanel onSignedIn={onSignedIn} />
    </AuthCard>
  );
}

export function ForgotPasswordScreen() {
  return (
    <AuthCard title="Forgot your password?">
      <ForgotPasswordForm />
    </AuthCard>
  );
}

export function ResetPasswordScreen({ uid, token }: { uid: string | undefined; token: string | undefined }) {
  return (
    <AuthCard title="Choose a new password">
      <ResetPasswordForm userId={uid} token={token} />
    </AuthCard>
  );
}
