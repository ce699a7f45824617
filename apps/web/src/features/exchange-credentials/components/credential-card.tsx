import {
  CREDENTIAL_CORP_LABELS,
  CREDENTIAL_MESSAGES,
  ExchangeCredentialsSetSchema,
  type CredentialCorp,
  type ExchangeCredentialStatus,
  type ExchangeCredentialsSet,
} from '@dart/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Autocomplete, Badge, Button, Group, Loader, Paper, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { CheckIcon } from '../../../components/ui/icons';
import { applyServerErrors } from '../../../lib/form-errors';
import { showToast } from '../../../lib/toast';
import { useParticipants } from '../api/search-participants';
import { useSetCredentials } from '../api/set-credentials';

const FIELDS = ['participant_code', 'username', 'password', 'participant_name', 'corp'] as const;

/**
 * One clearing corporation: its status ("Set on {date} by {user}" or "Not set") and the form that sets or
 * replaces its credentials. Nothing is prefilled: the server never returns the username or the password.
 */
export function CredentialCard({ corp, status }: { corp: CredentialCorp; status: ExchangeCredentialStatus | undefined }) {
  const labels = CREDENTIAL_CORP_LABELS[corp];
  const empty: ExchangeCredentialsSet = { corp, participant_name: '', participant_code: '', username: '', password: '' };
  const form = useForm<ExchangeCredentialsSet>({ resolver: zodResolver(ExchangeCredentialsSetSchema) as never, defaultValues: empty });
  const save = useSetCredentials();
  const [formError, setFormError] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 200);
  const [focused, setFocused] = useState(false);
  const participants = useParticipants(corp, debounced, focused);
  const results = participants.data?.results ?? [];
  const { errors, isSubmitting } = form.formState;
  const isSet = status?.is_set === true;
  const titleId = `credentials-${corp.toLowerCase()}-title`;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const saved = await save.mutateAsync({ ...values, participant_name: values.participant_name?.trim() || null });
      form.reset(empty);
      setSearch('');
      showToast({ summary: CREDENTIAL_MESSAGES.saved(corp), detail: saved.status, severity: 'success' });
    } catch (error) {
      const message = applyServerErrors(error, form.setError, FIELDS);
      setFormError(message);
      showToast({ summary: `${labels.name} credentials were not saved`, detail: message, severity: 'error' });
    }
  });

  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2}>
            <Title order={3} size="h4" id={titleId}>
              {labels.exchange} RFQ · {labels.name}
            </Title>
            <Text size="sm" data-testid={`credentials-status-${corp}`}>
              {status?.status ?? CREDENTIAL_MESSAGES.notSet}
            </Text>
            {isSet ? (
              <Text size="sm" c="dimmed">
                Participant: {status.participant_name} ({status.participant_code})
              </Text>
            ) : null}
          </Stack>
          <Badge
            variant="light"
            style={{ flexShrink: 0 }}
            color={isSet ? 'teal' : 'gray'}
            leftSection={isSet ? <CheckIcon size={12} /> : null}
          >
            {isSet ? 'Set' : 'Not set'}
          </Badge>
        </Group>
        <form onSubmit={onSubmit} noValidate aria-label={`${labels.name} credentials`}>
          <Stack gap="sm">
            <FormErrorAlert message={formError} />
            <Controller
              control={form.control}
              name="participant_name"
              render={({ field }) => (
                <Autocomplete
                  label="Participant"
                  description={`Search ${corp}'s published participants, or type your firm's participant name (blank: your firm's name).`}
                  placeholder="Search by name"
                  value={field.value ?? ''}
                  onChange={(value) => {
                    field.onChange(value);
                    setSearch(value);
                  }}
                  onOptionSubmit={(name) => {
                    const picked = results.find((row) => row.name === name);
                    if (picked?.participant_code) form.setValue('participant_code', picked.participant_code, { shouldValidate: true });
                  }}
                  onFocus={() => setFocused(true)}
                  onBlur={field.onBlur}
                  data={[...new Set(results.map((row) => row.name))]}
                  rightSection={participants.isFetching ? <Loader size={14} /> : null}
                  maxDropdownHeight={180}
                  error={errors.participant_name?.message}
                />
              )}
            />
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              <TextInput
                label="Participant code"
                required
                autoComplete="off"
                spellCheck={false}
                error={errors.participant_code?.message}
                {...form.register('participant_code')}
              />
              <TextInput
                label="Username"
                required
                autoComplete="off"
                spellCheck={false}
                error={errors.username?.message}
                {...form.register('username')}
              />
              <PasswordInput
                label="Password"
                required
                autoComplete="new-password"
                error={errors.password?.message}
                {...form.register('password')}
              />
            </SimpleGrid>
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                Stored encrypted; never shown again after saving.
              </Text>
              <Button type="submit" loading={isSubmitting}>
                {isSet ? `Replace ${corp} credentials` : `Save ${corp} credentials`}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}
