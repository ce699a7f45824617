import {
  CLIENT_TYPES,
  INDIVIDUAL_CATEGORIES,
  RegistrationSchema,
  type ClientType,
  type IndividualCategory,
  type SessionUser,
} from '@dart/contracts';
import { Button, Checkbox, Group, PasswordInput, Radio, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { applyServerErrors } from '../../../lib/form-errors';
import { payloadResolver } from '../../../lib/form-resolver';
import { useRegisterClient } from '../api/register-client';
import type { InviteDetails } from '../api/validate-invite';

interface DetailsValues {
  firstName: string;
  lastName: string;
  mobile: string;
  pan: string;
  clientType: ClientType;
  companyName: string;
  category: IndividualCategory | '';
  authMode: 'password' | 'otp';
  password: string;
  whatsappConsent: boolean;
}

const CLIENT_TYPE_LABELS: Record<ClientType, string> = {
  CORP: 'Corporate (CORP)',
  'CORP-P': 'Corporate partner (CORP-P)',
  INDV: 'Individual (INDV)',
  'INDV-P': 'Individual partner (INDV-P)',
};

const isCorporate = (type: ClientType): boolean => type === 'CORP' || type === 'CORP-P';

/** Wire path of a registration field → the form field showing its error. */
const PATH_TO_FIELD: Record<string, keyof DetailsValues> = {
  pan: 'pan',
  password: 'password',
  auth_mode: 'authMode',
  'identity.first_name': 'firstName',
  'identity.last_name': 'lastName',
  client_type: 'clientType',
  category: 'category',
  corporate_identity: 'companyName',
  'corporate_identity.name': 'companyName',
  'contact.mobile': 'mobile',
};

interface ClientDetailsStepProps {
  email: string;
  verification: string;
  invite?: InviteDetails;
  onRegistered: (user: SessionUser) => void;
}

/** Step 2 of registration: identity, PAN, client type and sign-in method (spec §7 payload). */
export function ClientDetailsStep({ email, verification, invite, onRegistered }: ClientDetailsStepProps) {
  const register = useRegisterClient();
  const [formError, setFormError] = useState<string | null>(null);

  const toPayload = (values: DetailsValues) => {
    const corporate = isCorporate(values.clientType);
    return {
      auth_mode: values.authMode,
      pan: values.pan,
      ...(values.authMode === 'password' ? { password: values.password } : {}),
      identity: { first_name: values.firstName, last_name: values.lastName },
      client_type: values.clientType,
      category: corporate ? null : values.category || undefined,
      corporate_identity: corporate && !invite ? { name: values.companyName } : null,
      contact: { email, mobile: values.mobile.replace(/[\s-]/g, ''), whatsapp_consent: values.whatsappConsent },
      verification,
      ...(invite ? { invite: invite.token } : {}),
    };
  };

  const form = useForm<DetailsValues>({
    resolver: payloadResolver(RegistrationSchema, toPayload, PATH_TO_FIELD),
    defaultValues: {
      firstName: '',
      lastName: '',
      mobile: '',
      pan: '',
      clientType: 'CORP',
      companyName: '',
      category: '',
      authMode: 'password',
      password: '',
      whatsappConsent: false,
    },
  });
  const { errors, isSubmitting } = form.formState;
  const clientType = useWatch({ control: form.control, name: 'clientType' });
  const authMode = useWatch({ control: form.control, name: 'authMode' });

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      onRegistered(await register.mutateAsync(RegistrationSchema.parse(toPayload(values))));
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, Object.values(PATH_TO_FIELD), PATH_TO_FIELD));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Your details">
      <Stack gap="md">
        <FormErrorAlert message={formError} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="First name"
            autoComplete="given-name"
            required
            error={errors.firstName?.message}
            {...form.register('firstName')}
          />
          <TextInput
            label="Last name"
            autoComplete="family-name"
            required
            error={errors.lastName?.message}
            {...form.register('lastName')}
          />
          <TextInput
            label="Mobile number"
            type="tel"
            autoComplete="tel-national"
            placeholder="98765 43210"
            leftSection={<Text size="sm">+91</Text>}
            required
            error={errors.mobile?.message}
            {...form.register('mobile')}
          />
          <TextInput
            label="PAN"
            placeholder="ABCDE1234F"
            maxLength={10}
            autoComplete="off"
            required
            styles={{ input: { textTransform: 'uppercase' } }}
            error={errors.pan?.message}
            {...form.register('pan')}
          />
        </SimpleGrid>

        {invite ? (
          <Text size="sm" c="dimmed">
            You are joining <strong>{invite.clientName}</strong>; your administrator has set up the organisation.
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Controller
              control={form.control}
              name="clientType"
              render={({ field }) => (
                <Select
                  label="Client type"
                  required
                  allowDeselect={false}
                  data={CLIENT_TYPES.map((type) => ({ value: type, label: CLIENT_TYPE_LABELS[type] }))}
                  value={field.value}
                  onChange={(value) => field.onChange(value ?? 'CORP')}
                  onBlur={field.onBlur}
                  error={errors.clientType?.message}
                />
              )}
            />
            {isCorporate(clientType) ? (
              <TextInput
                label="Company name"
                autoComplete="organization"
                required
                error={errors.companyName?.message}
                {...form.register('companyName')}
              />
            ) : (
              <Controller
                control={form.control}
                name="category"
                render={({ field }) => (
                  <Select
                    label="Category"
                    required
                    placeholder="Choose a category"
                    data={Object.entries(INDIVIDUAL_CATEGORIES).map(([value, label]) => ({ value, label }))}
                    value={field.value || null}
                    onChange={(value) => field.onChange(value ?? '')}
                    onBlur={field.onBlur}
                    error={errors.category?.message}
                  />
                )}
              />
            )}
          </SimpleGrid>
        )}

        <Controller
          control={form.control}
          name="authMode"
          render={({ field }) => (
            <Radio.Group
              label="How you will sign in"
              value={field.value}
              onChange={(value) => field.onChange(value as DetailsValues['authMode'])}
              error={errors.authMode?.message}
            >
              <Group mt={6} gap="xl">
                <Radio value="password" label="With a password" />
                <Radio value="otp" label="With a one-time password only" />
              </Group>
            </Radio.Group>
          )}
        />
        {authMode === 'password' ? (
          <PasswordInput
            label="Password"
            description="At least 8 characters with a letter and a number."
            autoComplete="new-password"
            required
            error={errors.password?.message}
            {...form.register('password')}
          />
        ) : null}
        <Checkbox label="Send me trade and account updates on WhatsApp" {...form.register('whatsappConsent')} />
        <Button type="submit" loading={isSubmitting} size="md">
          Create account
        </Button>
      </Stack>
    </form>
  );
}
