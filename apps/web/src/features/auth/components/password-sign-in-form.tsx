import { LoginRequestSchema, type SessionUser } from '@dart/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { AnchorLink } from '../../../components/ui/router-links';
import { applyServerErrors } from '../../../lib/form-errors';
import { useSignIn } from '../api/sign-in';

export function PasswordSignInForm({ onSignedIn }: { onSignedIn: (user: SessionUser) => void }) {
  const form = useForm({ resolver: zodResolver(LoginRequestSchema), defaultValues: { email: '', password: '' } });
  const signIn = useSignIn();
  const [formError, setFormError] = useState<string | null>(null);
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      onSignedIn(await signIn.mutateAsync(values));
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['email', 'password']));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Sign in with password">
      <Stack gap="md">
        <FormErrorAlert message={formError} />
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          placeholder="you@company.com"
          required
          error={errors.email?.message}
          {...form.register('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          error={errors.password?.message}
          {...form.register('password')}
        />
        <Group justify="flex-end" mt={-6}>
          <AnchorLink to="/auth/forgot-password" size="sm">
            Forgot password?
          </AnchorLink>
        </Group>
        <Button type="submit" loading={isSubmitting} fullWidth size="md">
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
