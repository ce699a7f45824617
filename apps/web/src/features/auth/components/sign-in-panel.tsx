import type { SessionUser } from '@dart/contracts';
import { Tabs } from '@mantine/core';
import { OtpSignInForm } from './otp-sign-in-form';
import { PasswordSignInForm } from './password-sign-in-form';

/** Sign-in with a password or with a one-time password (spec §7). */
export function SignInPanel({ onSignedIn }: { onSignedIn: (user: SessionUser) => void }) {
  return (
    <Tabs defaultValue="password" keepMounted={false}>
      <Tabs.List grow mb="lg">
        <Tabs.Tab value="password">Password</Tabs.Tab>
        <Tabs.Tab value="otp">One-time password</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="password">
        <PasswordSignInForm onSignedIn={onSignedIn} />
      </Tabs.Panel>
      <Tabs.Panel value="otp">
        <OtpSignInForm onSignedIn={onSignedIn} />
      </Tabs.Panel>
    </Tabs>
  );
}
