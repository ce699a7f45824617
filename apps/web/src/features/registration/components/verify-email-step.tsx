import { emailSchema, loginOtpSchema } from '@dart/contracts';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { MailIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { useRequestOtp } from '../../../lib/otp/request-otp';
import { useValidateOtp } from '../../../lib/otp/validate-otp';

interface VerifyEmailStepProps {
  /** Fixed e-mail when joining through an invite. */
  invitedEmail?: string;
  onVerified: (email: string, verification: string) => void;
}

/** Step 1 of registration: prove the e-mail address with a one-time code (request_type 'register'). */
export function VerifyEmailStep({ invitedEmail, onVerified }: VerifyEmailStepProps) {
  const [email, setEmail] = useState(invitedEmail ?? '');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const requestOtp = useRequestOtp();
  const validateOtp = useValidateOtp();

  async function sendCode(event?: React.FormEvent) {
    event?.preventDefault();
    setFormError(null);
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setEmailError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address.');
      return;
    }
    setEmailError(null);
    try {
      await requestOtp.mutateAsync({ email: parsed.data, request_type: 'register', auth_mode: 'email' });
      setSentTo(parsed.data);
      setCode('');
    } catch (error) {
      setFormError(describeError(error));
    }
  }

  async function verify(event: React.FormEvent) {
    event.preventDefault();
    if (!sentTo) return;
    setFormError(null);
    const parsed = loginOtpSchema.safeParse(code);
    if (!parsed.success) {
      setCodeError(parsed.error.issues[0]?.message ?? 'OTP is required');
      return;
    }
    setCodeError(null);
    try {
      const result = await validateOtp.mutateAsync({
        email: sentTo,
        otp: parsed.data,
        request_type: 'register',
        auth_mode: 'email',
      });
      onVerified(sentTo, result.verification);
    } catch (error) {
      setFormError(describeError(error));
    }
  }

  if (sentTo) {
    return (
      <form onSubmit={verify} noValidate aria-label="Verify e-mail">
        <Stack gap="md">
          <Alert variant="light" icon={<MailIcon />} title="Check your inbox" role="status">
            We sent a 6-digit code to <strong>{sentTo}</strong>.
          </Alert>
          <FormErrorAlert message={formError} />
          <TextInput
            label="Verification code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder="6-digit code"
            required
            autoFocus
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={codeError}
            styles={{ input: { letterSpacing: '0.3em' } }}
          />
          <Group justify="space-between">
            <Anchor component="button" type="button" size="sm" onClick={() => setSentTo(null)}>
              Change e-mail
            </Anchor>
            <Anchor component="button" type="button" size="sm" onClick={() => void sendCode()}>
              Resend code
            </Anchor>
          </Group>
          <Button type="submit" loading={validateOtp.isPending} size="md">
            Verify e-mail
          </Button>
        </Stack>
      </form>
    );
  }

  return (
    <form onSubmit={(event) => void sendCode(event)} noValidate aria-label="Send verification code">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Start with your work e-mail. We will send a one-time code to confirm it belongs to you.
        </Text>
        <FormErrorAlert message={formError} />
        <TextInput
          label="Work e-mail"
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          required
          readOnly={Boolean(invitedEmail)}
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          error={emailError}
        />
        <Button type="submit" loading={requestOtp.isPending} size="md">
          Send verification code
        </Button>
      </Stack>
    </form>
  );
}
