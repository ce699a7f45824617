import { OtpLoginSchema, RequestOtpSchema, type AuthMode, type SessionUser } from '@dart/contracts';
import { Alert, Anchor, Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { MailIcon } from '../../../components/ui/icons';
import { applyServerErrors } from '../../../lib/form-errors';
import { payloadResolver } from '../../../lib/form-resolver';
import { useRequestOtp } from '../../../lib/otp/request-otp';
import { useSignInWithOtp } from '../api/sign-in-with-otp';

const RESEND_AFTER_SECONDS = 30;

interface IdentityValues {
  identity: string;
}
interface CodeValues {
  otp: string;
}

/** Mobile numbers are typed with spaces or dashes; the rule checks the digits. */
const normaliseIdentity = (mode: AuthMode, identity: string): string =>
  mode === 'mobile' ? identity.replace(/[\s-]/g, '') : identity.trim();

const identityPayload = (mode: AuthMode) => (values: IdentityValues) => ({
  ...(mode === 'email' ? { email: normaliseIdentity(mode, values.identity) } : { mobile: normaliseIdentity(mode, values.identity) }),
  request_type: 'login' as const,
  auth_mode: mode,
  client_mode: 'SOFTWARE' as const,
});

/** Sign-in with a one-time password sent by e-mail or SMS (spec §7: request-otp, then token/otp). */
export function OtpSignInForm({ onSignedIn }: { onSignedIn: (user: SessionUser) => void }) {
  const [mode, setMode] = useState<AuthMode>('email');
  const [sentTo, setSentTo] = useState<{ identity: string; mode: AuthMode; expiresIn: number } | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [resendIn, setResendIn] = useState(0);
  const requestOtp = useRequestOtp();
  const signIn = useSignInWithOtp();

  const identityForm = useForm<IdentityValues>({
    resolver: payloadResolver(RequestOtpSchema, identityPayload(mode), { email: 'identity', mobile: 'identity' }),
    defaultValues: { identity: '' },
  });
  const codeForm = useForm<CodeValues>({
    resolver: payloadResolver(
      OtpLoginSchema,
      (values) => ({
        ...(sentTo?.mode === 'mobile' ? { mobile: sentTo.identity } : { email: sentTo?.identity }),
        otp: values.otp,
        auth_mode: sentTo?.mode ?? 'email',
      }),
      { otp: 'otp' },
    ),
    defaultValues: { otp: '' },
  });

  useEffect(() => {
    if (resendIn <= 0) return undefined;
    const timer = window.setTimeout(() => setResendIn((value) => value - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [resendIn]);

  async function sendCode(identity: string, authMode: AuthMode) {
    setFormError(null);
    try {
      const result = await requestOtp.mutateAsync(identityPayload(authMode)({ identity }));
      setSentTo({ identity: normaliseIdentity(authMode, identity), mode: authMode, expiresIn: result.expires_in });
      setResendIn(RESEND_AFTER_SECONDS);
      codeForm.reset({ otp: '' });
    } catch (error) {
      setFormError(applyServerErrors(error, identityForm.setError, ['identity'], { email: 'identity', mobile: 'identity' }));
    }
  }

  const onRequest = identityForm.handleSubmit((values) => sendCode(values.identity, mode));

  const onVerify = codeForm.handleSubmit(async (values) => {
    if (!sentTo) return;
    setFormError(null);
    try {
      onSignedIn(
        await signIn.mutateAsync({
          ...(sentTo.mode === 'mobile' ? { mobile: sentTo.identity } : { email: sentTo.identity }),
          otp: values.otp.trim(),
          auth_mode: sentTo.mode,
        }),
      );
    } catch (error) {
      setFormError(applyServerErrors(error, codeForm.setError, ['otp']));
    }
  });

  if (sentTo) {
    const minutes = Math.max(1, Math.round(sentTo.expiresIn / 60));
    return (
      <form onSubmit={onVerify} noValidate aria-label="Enter one-time password">
        <Stack gap="md">
          <Alert variant="light" icon={<MailIcon />} title="Check your inbox" role="status">
            We sent a 6-digit code to <strong>{sentTo.identity}</strong>. It expires in {minutes} minute
            {minutes === 1 ? '' : 's'}.
          </Alert>
          <FormErrorAlert message={formError} />
          <TextInput
            label="One-time password"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder="6-digit code"
            required
            autoFocus
            styles={{ input: { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' } }}
            error={codeForm.formState.errors.otp?.message}
            {...codeForm.register('otp')}
          />
          <Button type="submit" loading={codeForm.formState.isSubmitting} fullWidth size="md">
            Verify and sign in
          </Button>
          <Group justify="space-between">
            <Anchor component="button" type="button" size="sm" onClick={() => setSentTo(null)}>
              Use a different {sentTo.mode === 'email' ? 'e-mail' : 'number'}
            </Anchor>
            {resendIn > 0 ? (
              <Text size="sm" c="dimmed" aria-live="polite">
                Resend in {resendIn}s
              </Text>
            ) : (
              <Anchor component="button" type="button" size="sm" onClick={() => void sendCode(sentTo.identity, sentTo.mode)}>
                Resend code
              </Anchor>
            )}
          </Group>
        </Stack>
      </form>
    );
  }

  return (
    <form onSubmit={onRequest} noValidate aria-label="Request one-time password">
      <Stack gap="md">
        <FormErrorAlert message={formError} />
        <SegmentedControl
          fullWidth
          value={mode}
          onChange={(value) => {
            setMode(value as AuthMode);
            identityForm.reset({ identity: '' });
          }}
          data={[
            { value: 'email', label: 'E-mail' },
            { value: 'mobile', label: 'Mobile' },
          ]}
          aria-label="Send the code by"
        />
        {mode === 'email' ? (
          <TextInput
            key="email"
            label="Email"
            type="email"
            autoComplete="username"
            placeholder="you@company.com"
            required
            error={identityForm.formState.errors.identity?.message}
            {...identityForm.register('identity')}
          />
        ) : (
          <TextInput
            key="mobile"
            label="Mobile number"
            type="tel"
            autoComplete="tel"
            placeholder="98765 43210"
            leftSection={<Text size="sm">+91</Text>}
            required
            error={identityForm.formState.errors.identity?.message}
            {...identityForm.register('identity')}
          />
        )}
        <Button type="submit" loading={identityForm.formState.isSubmitting} fullWidth size="md">
          Send code
        </Button>
      </Stack>
    </form>
  );
}
