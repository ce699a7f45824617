import {
  ADDRESS_STATES,
  ClientProfileUpdateSchema,
  isClientOpsAdmin,
  type AddressState,
  type ClientProfile,
  type SessionUser,
} from '@dart/contracts';
import { Alert, Button, Group, Paper, Select, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Controller, useForm, type Control } from 'react-hook-form';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { AlertIcon, LockIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { applyServerErrors } from '../../../lib/form-errors';
import { payloadResolver } from '../../../lib/form-resolver';
import { toAccessSubject } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { useClientProfile, useUpdateClientProfile, type ClientProfileUpdate } from '../api/client-profile';

/** The form's fields: flat strings, '' for "not given". */
interface OrganisationValues {
  pan: string;
  gst: string;
  businessEmail: string;
  website: string;
  registeredLine1: string;
  registeredLine2: string;
  registeredCity: string;
  registeredState: string;
  registeredPincode: string;
  correspondenceLine1: string;
  correspondenceLine2: string;
  correspondenceCity: string;
  correspondenceState: string;
  correspondencePincode: string;
  accountNumber: string;
  ifsc: string;
  bankName: string;
  boId: string;
  dpId: string;
  clientId: string;
  settlementCutoffTime: string;
}
type Field = keyof OrganisationValues;

/** Wire path (as the schema and the server name it) → form field, so both sides' messages land on the same input. */
const PATH_TO_FIELD: Record<string, Field> = {
  pan: 'pan',
  gst: 'gst',
  business_email: 'businessEmail',
  website: 'website',
  'registered_address.line1': 'registeredLine1',
  'registered_address.line2': 'registeredLine2',
  'registered_address.city': 'registeredCity',
  'registered_address.state': 'registeredState',
  'registered_address.pincode': 'registeredPincode',
  'correspondence_address.line1': 'correspondenceLine1',
  'correspondence_address.line2': 'correspondenceLine2',
  'correspondence_address.city': 'correspondenceCity',
  'correspondence_address.state': 'correspondenceState',
  'correspondence_address.pincode': 'correspondencePincode',
  'bank_account.account_number': 'accountNumber',
  'bank_account.ifsc': 'ifsc',
  'bank_account.bank_name': 'bankName',
  'demat.bo_id': 'boId',
  'demat.dp_id': 'dpId',
  'demat.client_id': 'clientId',
  settlement_cutoff_time: 'settlementCutoffTime',
};

const blankToNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());
const allBlank = (...values: string[]) => values.every((value) => value.trim() === '');

function addressOf(values: OrganisationValues, prefix: 'registered' | 'correspondence') {
  const line1 = values[`${prefix}Line1`];
  const line2 = values[`${prefix}Line2`];
  const city = values[`${prefix}City`];
  const state = values[`${prefix}State`];
  const pincode = values[`${prefix}Pincode`];
  // An untouched address is "not given"; a started one must be complete (the schema says what is missing).
  if (allBlank(line1, line2, city, state, pincode)) return null;
  // The state is checked by the schema against the 36 + Other ('Please choose a state.' otherwise).
  return { line1: line1.trim(), line2: blankToNull(line2), city: city.trim(), state: state as AddressState, pincode: pincode.trim() };
}

/** The PUT body: a PUT replaces the whole profile, so a blank section is sent as null. */
export function toClientProfilePayload(values: OrganisationValues): ClientProfileUpdate {
  return {
    pan: values.pan.trim(),
    gst: blankToNull(values.gst),
    business_email: blankToNull(values.businessEmail),
    website: blankToNull(values.website),
    registered_address: addressOf(values, 'registered'),
    correspondence_address: addressOf(values, 'correspondence'),
    bank_account: allBlank(values.accountNumber, values.ifsc, values.bankName)
      ? null
      : { account_number: values.accountNumber.trim(), ifsc: values.ifsc.trim(), bank_name: blankToNull(values.bankName) },
    demat: allBlank(values.boId, values.dpId, values.clientId)
      ? null
      : { bo_id: blankToNull(values.boId), dp_id: blankToNull(values.dpId), client_id: blankToNull(values.clientId) },
    settlement_cutoff_time: blankToNull(values.settlementCutoffTime),
  };
}

function valuesOf(profile: ClientProfile): OrganisationValues {
  const registered = profile.registered_address;
  const correspondence = profile.correspondence_address;
  return {
    pan: profile.pan ?? '',
    gst: profile.gst ?? '',
    businessEmail: profile.business_email ?? '',
    website: profile.website ?? '',
    registeredLine1: registered?.line1 ?? '',
    registeredLine2: registered?.line2 ?? '',
    registeredCity: registered?.city ?? '',
    registeredState: registered?.state ?? '',
    registeredPincode: registered?.pincode ?? '',
    correspondenceLine1: correspondence?.line1 ?? '',
    correspondenceLine2: correspondence?.line2 ?? '',
    correspondenceCity: correspondence?.city ?? '',
    correspondenceState: correspondence?.state ?? '',
    correspondencePincode: correspondence?.pincode ?? '',
    accountNumber: profile.bank_account?.account_number ?? '',
    ifsc: profile.bank_account?.ifsc ?? '',
    bankName: profile.bank_account?.bank_name ?? '',
    boId: profile.demat?.bo_id ?? '',
    dpId: profile.demat?.dp_id ?? '',
    clientId: profile.demat?.client_id ?? '',
    settlementCutoffTime: profile.settlement_cutoff_time ?? '',
  };
}

const STATE_OPTIONS = ADDRESS_STATES.map((state) => ({ value: state, label: state }));

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Stack gap="sm">
      <div>
        <Title order={3} fz="md">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      </div>
      {children}
    </Stack>
  );
}

function AddressFields({
  prefix,
  control,
  readOnly,
}: {
  prefix: 'registered' | 'correspondence';
  control: Control<OrganisationValues>;
  readOnly: boolean;
}) {
  const text = (name: Field, label: string, props: { autoComplete?: string; inputMode?: 'numeric'; maxLength?: number } = {}) => (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextInput label={label} readOnly={readOnly} error={fieldState.error?.message} {...props} {...field} />
      )}
    />
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      {text(`${prefix}Line1`, 'Address line 1', { autoComplete: 'address-line1' })}
      {text(`${prefix}Line2`, 'Address line 2', { autoComplete: 'address-line2' })}
      {text(`${prefix}City`, 'City', { autoComplete: 'address-level2' })}
      <Controller
        control={control}
        name={`${prefix}State`}
        render={({ field, fieldState }) => (
          <Select
            label="State"
            placeholder="Choose a state"
            data={STATE_OPTIONS}
            searchable
            clearable={!readOnly}
            readOnly={readOnly}
            maxDropdownHeight={180}
            error={fieldState.error?.message}
            value={field.value || null}
            onChange={(value) => field.onChange(value ?? '')}
            onBlur={field.onBlur}
            ref={field.ref}
            name={field.name}
          />
        )}
      />
      {text(`${prefix}Pincode`, 'Pincode', { autoComplete: 'postal-code', inputMode: 'numeric', maxLength: 6 })}
    </SimpleGrid>
  );
}

function OrganisationForm({ profile, canEdit }: { profile: ClientProfile; canEdit: boolean }) {
  const form = useForm<OrganisationValues>({
    resolver: payloadResolver(ClientProfileUpdateSchema, toClientProfilePayload, PATH_TO_FIELD),
    defaultValues: valuesOf(profile),
  });
  const update = useUpdateClientProfile();
  const [formError, setFormError] = useState<string | null>(null);
  const { errors, isSubmitting, isDirty } = form.formState;
  const readOnly = !canEdit;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const saved = await update.mutateAsync({ id: profile.id, body: toClientProfilePayload(values) });
      form.reset(valuesOf(saved));
      showToast({ summary: 'Organisation details saved', severity: 'success' });
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, Object.values(PATH_TO_FIELD), PATH_TO_FIELD));
    }
  });

  const text = (
    name: Field,
    label: string,
    props: {
      description?: string;
      placeholder?: string;
      required?: boolean;
      type?: string;
      inputMode?: 'numeric';
      maxLength?: number;
    } = {},
  ) => <TextInput label={label} readOnly={readOnly} error={errors[name]?.message} {...props} {...form.register(name)} />;

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Organisation details">
      <Stack gap="xl">
        <FormErrorAlert message={formError} />
        <Section title="Identity" description="Your organisation's tax registrations and how to reach it.">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {text('pan', 'PAN', { required: true, placeholder: 'AAACA1234A', maxLength: 10 })}
            {text('gst', 'GST Registration Number', { placeholder: '27AAACA1234A1Z5', maxLength: 15 })}
            {text('businessEmail', 'Business email', { type: 'email', placeholder: 'treasury@company.com' })}
            {text('website', 'Website', { placeholder: 'company.com' })}
          </SimpleGrid>
        </Section>
        <Section title="Registered address" description="As on your certificate of incorporation.">
          <AddressFields prefix="registered" control={form.control} readOnly={readOnly} />
        </Section>
        <Section title="Correspondence address" description="Where letters and contract notes go, if not the registered address.">
          <AddressFields prefix="correspondence" control={form.control} readOnly={readOnly} />
        </Section>
        <Section title="Bank account" description="The account funds settle to (IFSC of its branch).">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            {text('accountNumber', 'Account number', { inputMode: 'numeric', maxLength: 18 })}
            {text('ifsc', 'IFSC', { placeholder: 'HDFC0000060', maxLength: 11 })}
            {text('bankName', 'Bank name')}
          </SimpleGrid>
        </Section>
        <Section title="Demat account" description="A CDSL BO ID, or an NSDL DP ID with its Client Id.">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            {text('boId', 'BO ID', { inputMode: 'numeric', maxLength: 16 })}
            {text('dpId', 'DP ID', { placeholder: 'IN300214', maxLength: 8 })}
            {text('clientId', 'Client Id', { inputMode: 'numeric', maxLength: 8 })}
          </SimpleGrid>
        </Section>
        <Section title="Settlement" description="The time by which your funds and securities are ready each day (IST).">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            {text('settlementCutoffTime', 'Settlement cut-off time', { placeholder: 'HH:MM', maxLength: 5 })}
          </SimpleGrid>
        </Section>
        {canEdit ? (
          <Group justify="flex-end">
            <Button variant="default" disabled={!isDirty || isSubmitting} onClick={() => form.reset()}>
              Discard changes
            </Button>
            <Button type="submit" loading={isSubmitting}>
              Save details
            </Button>
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}

/** The organisation's details (GET api/client/, PUT api/client/{id}/): editable by ops admins, read-only for everyone else. */
export function OrganisationDetailsForm({ user }: { user: SessionUser }) {
  const query = useClientProfile();
  const canEdit = isClientOpsAdmin(toAccessSubject(user));
  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={2} fz={18}>
              Organisation details
            </Title>
            <Text size="sm" c="dimmed">
              Tax registrations, addresses, bank and demat accounts for settlement.
            </Text>
          </div>
        </Group>
        {!canEdit ? (
          <Alert color="gray" variant="light" icon={<LockIcon />} role="status">
            Only your organisation's OpsAdmin can change these details.
          </Alert>
        ) : null}
        {query.isError ? (
          <Alert color="red" variant="light" icon={<AlertIcon />} title="Could not load the organisation's details" role="alert">
            <Stack gap="sm" align="flex-start">
              <Text size="sm">{describeError(query.error)}</Text>
              <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
                Try again
              </Button>
            </Stack>
          </Alert>
        ) : query.data ? (
          <OrganisationForm key={query.data.id} profile={query.data} canEdit={canEdit} />
        ) : (
          <Stack gap="sm" aria-busy="true">
            {Array.from({ length: 6 }, (_, index) => (
              <Skeleton key={index} height={36} />
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
