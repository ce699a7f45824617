import { ChangePasswordSchema } from '@dart/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { AlertIcon, CheckIcon } from '../../../components/ui/icons';
import { AnchorLink, ButtonLink } from '../../../components/ui/router-links';
import { applyServerErrors } from '../../../lib/form-errors';
import { useChangePassword } from '../api/change-password';

interface ResetPasswordFormProps {
  userId: string | undefined;
  token: string | undefined;
}

export function ResetPasswordForm({ userId, token }: ResetPasswordFormProps) {
  if (!userId || !token) {
    return (
      <Stack gap="md">
        <Alert color="red" variant="light" icon={<AlertIcon />} title="This reset link is incomplete" role="alert">
          Open the link from your e-mail again, or ask for a new one.
        </Alert>
        <ButtonLink to="/auth/forgot-password" fullWidth>
          Request a new link
        </ButtonLink>
      </Stack>
    );
  }
  return <ResetPasswordFields userId={userId} token={token} />;
}

function ResetPasswordFields({ userId, token }: { userId: string; token: string }) {
  const form = useForm({
    resolver: zodResolver(ChangePasswordSchema),
    defaultValues: { new_password1: '', new_password2: '', token },
  });
  const changePassword = useChangePassword(userId);
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await changePassword.mutateAsync(values);
      setDone(true);
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['new_password1', 'new_password2']));
    }
  });

  if (done) {
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" icon={<CheckIcon />} title="Password changed" role="status">
          Your new password is set. Sign in with it now.
        </Alert>
        <ButtonLink to="/auth/login" fullWidth size="md">
          Sign in
        </ButtonLink>
      </Stack>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Choose a new password">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Use at least 8 characters with a letter and a number.
        </Text>
        <FormErrorAlert message={formError} />
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          required
          error={form.formState.errors.new_password1?.message}
          {...form.register('new_password1')}
        />
        <PasswordInput
          label="Confirm new password"
          autoComplete="new-password"
          required
          error={form.formState.errors.new_password2?.message}
          {...form.register('new_password2')}
        />
        <Button type="submit" loading={form.formState.isSubmitting} fullWidth size="md">
          Set new password
        </Button>
        <AnchorLink to="/auth/login" size="sm" ta="center">
          Back to sign in
        </AnchorLink>
      </Stack>
    </form>
  );
}
