import { UpdateProfileSchema, loginOtpSchema, type SessionUser } from '@dart/contracts';
import { Button, Group, Modal, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { describeError } from '../../../lib/errors';
import { applyServerErrors } from '../../../lib/form-errors';
import { payloadResolver } from '../../../lib/form-resolver';
import { useRequestOtp } from '../../../lib/otp/request-otp';
import { useValidateOtp } from '../../../lib/otp/validate-otp';
import { showToast } from '../../../lib/toast';
import { useUpdateProfile, type ProfileUpdate } from '../api/update-profile';

interface ProfileValues {
  firstName: string;
  lastName: string;
  mobile: string;
}

const normaliseMobile = (mobile: string): string => mobile.replace(/[\s-]/g, '').slice(-10);

const PATH_TO_FIELD: Record<string, keyof ProfileValues> = {
  first_name: 'firstName',
  last_name: 'lastName',
  mobile: 'mobile',
};

/** Name and mobile. A new mobile number is confirmed with a one-time code sent to it. */
export function ProfileDetailsForm({ user }: { user: SessionUser }) {
  const info = user.user_info;
  const currentMobile = info.mobile ?? '';
  const toPayload = (values: ProfileValues): ProfileUpdate => {
    const mobile = normaliseMobile(values.mobile);
    return {
      first_name: values.firstName,
      last_name: values.lastName,
      ...(mobile && mobile !== currentMobile ? { mobile: values.mobile.replace(/[\s-]/g, '') } : {}),
    };
  };
  const form = useForm<ProfileValues>({
    resolver: payloadResolver(UpdateProfileSchema, toPayload, PATH_TO_FIELD),
    values: { firstName: info.first_name, lastName: info.last_name, mobile: currentMobile },
  });
  const updateProfile = useUpdateProfile();
  const requestOtp = useRequestOtp();
  const validateOtp = useValidateOtp();
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState<ProfileUpdate | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);

  async function save(body: ProfileUpdate) {
    await updateProfile.mutateAsync(body);
    showToast({ summary: 'Profile updated', severity: 'success' });
  }

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    const body = toPayload(values);
    try {
      if (body.mobile) {
        await requestOtp.mutateAsync({ mobile: body.mobile, request_type: 'update_profile', auth_mode: 'mobile' });
        setCode('');
        setCodeError(null);
        setPending(body);
        return;
      }
      await save(body);
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['firstName', 'lastName', 'mobile'], PATH_TO_FIELD));
    }
  });

  async function confirmMobile(event: React.FormEvent) {
    event.preventDefault();
    if (!pending?.mobile) return;
    const parsed = loginOtpSchema.safeParse(code);
    if (!parsed.success) {
      setCodeError(parsed.error.issues[0]?.message ?? 'OTP is required');
      return;
    }
    try {
      const { verification } = await validateOtp.mutateAsync({
        mobile: pending.mobile,
        otp: parsed.data,
        request_type: 'update_profile',
        auth_mode: 'mobile',
      });
      await save({ ...pending, verification });
      setPending(null);
    } catch (error) {
      setCodeError(describeError(error));
    }
  }

  return (
    <Paper withBorder radius="lg" p="lg">
      <form onSubmit={onSubmit} noValidate aria-label="Personal details">
        <Stack gap="md">
          <div>
            <Title order={2} fz={18}>
              Personal details
            </Title>
            <Text size="sm" c="dimmed">
              Your name appears to counterparties in chat and on trade tickets.
            </Text>
          </div>
          <FormErrorAlert message={formError} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="First name"
              autoComplete="given-name"
              required
              error={form.formState.errors.firstName?.message}
              {...form.register('firstName')}
            />
            <TextInput
              label="Last name"
              autoComplete="family-name"
              required
              error={form.formState.errors.lastName?.message}
              {...form.register('lastName')}
            />
            <TextInput
              label="Mobile number"
              type="tel"
              autoComplete="tel-national"
              leftSection={<Text size="sm">+91</Text>}
              description="Changing it needs a code sent to the new number."
              error={form.formState.errors.mobile?.message}
              {...form.register('mobile')}
            />
            <TextInput label="Email" value={info.email} readOnly description="Contact your administrator to change it." />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={form.formState.isSubmitting} disabled={!form.formState.isDirty}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </form>
      <Modal opened={pending !== null} onClose={() => setPending(null)} title="Confirm your new mobile number" centered>
        <form onSubmit={(event) => void confirmMobile(event)} noValidate>
          <Stack gap="md">
            <Text size="sm">
              Enter the 6-digit code we sent to <strong>+91 {pending?.mobile ? normaliseMobile(pending.mobile) : ''}</strong>.
            </Text>
            <TextInput
              label="Verification code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              data-autofocus
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              error={codeError}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPending(null)}>
                Cancel
              </Button>
              <Button type="submit" loading={validateOtp.isPending || updateProfile.isPending}>
                Confirm and save
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}
