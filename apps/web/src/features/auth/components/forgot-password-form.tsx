import { ResetPasswordSchema } from '@dart/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { MailIcon } from '../../../components/ui/icons';
import { AnchorLink } from '../../../components/ui/router-links';
import { applyServerErrors } from '../../../lib/form-errors';
import { useRequestPasswordReset } from '../api/request-password-reset';

const ForgotPasswordSchema = ResetPasswordSchema.pick({ email: true });

export function ForgotPasswordForm() {
  const form = useForm({ resolver: zodResolver(ForgotPasswordSchema), defaultValues: { email: '' } });
  const requestReset = useRequestPasswordReset();
  const [formError, setFormError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await requestReset.mutateAsync(values.email);
      setSentTo(values.email);
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['email']));
    }
  });

  if (sentTo) {
    return (
      <Stack gap="md">
        <Alert variant="light" color="teal" icon={<MailIcon />} title="Check your e-mail" role="status">
          If an account exists for <strong>{sentTo}</strong>, we have sent a link to reset its password. The link works once.
        </Alert>
        <AnchorLink to="/auth/login" size="sm" ta="center">
          Back to sign in
        </AnchorLink>
      </Stack>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Reset password">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Enter the e-mail address you sign in with and we will send you a link to choose a new password.
        </Text>
        <FormErrorAlert message={formError} />
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          placeholder="you@company.com"
          required
          error={form.formState.errors.email?.message}
          {...form.register('email')}
        />
        <Button type="submit" loading={form.formState.isSubmitting} fullWidth size="md">
          Send reset link
        </Button>
        <AnchorLink to="/auth/login" size="sm" ta="center">
          Back to sign in
        </AnchorLink>
      </Stack>
    </form>
  );
}
