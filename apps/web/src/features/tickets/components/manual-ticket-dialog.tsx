import { Button, CloseButton, Group, Modal, Paper, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { FaceValueInput } from '../../../components/ui/face-value-input';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { applyServerErrors } from '../../../lib/form-errors';
import { useSession } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { useCreateManualTicket } from '../api/create-manual-ticket';
import { useFaceValuePerBond } from '../api/get-bond-size';
import { useNow } from '../../../lib/use-now';
import {
  buildManualTicket,
  INITIAL_MANUAL_TICKET,
  manualTicketResolver,
  pricingDeltaOf,
  type ManualTicketFormValues,
} from '../utils/manual-ticket-form';
import { ParticipantSelect } from './participant-select';
import type { TicketsSlots } from './tickets-slots';

export interface ManualTicketDialogProps extends TicketsSlots {
  opened: boolean;
  onClose: () => void;
  /** The new ticket (a draft): the workspace opens it so the user can check and send it. */
  onCreated: (ticketId: string) => void;
}

/** Server field paths → the form's fields (for a 400's field errors). */
const SERVER_FIELDS = {
  finstrument_id: 'bond',
  buy_or_sell: 'side',
  counterparty_client_id: 'counterparty',
  counterparty_user_id: 'counterparty',
  quantum: 'quantum',
  price: 'valueText',
  yield: 'valueText',
  settlement_date: 'settlementDate',
  settlement_delta: 'settlement',
  exchange: 'exchange',
  broker_user_id: 'broker',
  trade_time: 'tradeTime',
} as const;
const FORM_FIELDS = [...new Set(Object.values(SERVER_FIELDS))];

/**
 * A ticket for a trade agreed outside Dart's market (phone, chat): bond, buy or sell, counterparty, size, price or
 * yield, settlement (T+0, T+1 or a date), exchange, an optional broker and the trade time. Validated with the
 * server's schema (`ManualTicketSchema`) and created as a draft (`POST api/chatter/trade/manual-ticket/`).
 */
export function ManualTicketDialog({ opened, onClose, ...rest }: ManualTicketDialogProps) {
  const { user } = useSession();
  if (!user) return null;
  // The form mounts with each opening (the modal unmounts its content when closed): each opening starts a new ticket.
  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={600}>New ticket</Text>} size="lg" aria-label="New ticket">
      <ManualTicketForm ownClientId={user.client_id} onClose={onClose} {...rest} />
    </Modal>
  );
}

function ManualTicketForm({
  ownClientId,
  onClose,
  onCreated,
  renderBondSearch,
  renderPricing,
}: Omit<ManualTicketDialogProps, 'opened'> & { ownClientId: string }) {
  const now = useNow();
  const form = useForm<ManualTicketFormValues>({
    defaultValues: INITIAL_MANUAL_TICKET,
    resolver: manualTicketResolver,
  });
  const create = useCreateManualTicket();
  const [formError, setFormError] = useState<string | null>(null);
  const { errors, isSubmitting } = form.formState;
  const bond = useWatch({ control: form.control, name: 'bond' });
  const perBond = useFaceValuePerBond(bond?.id ?? null);
  const settlement = useWatch({ control: form.control, name: 'settlement' });
  const settlementDate = useWatch({ control: form.control, name: 'settlementDate' });
  const fixedField = useWatch({ control: form.control, name: 'fixedField' });

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    // The resolver passed; build again with the bond's face value per bond, known only now.
    const built = buildManualTicket(values, { perBond, now });
    if (!built.ok) {
      for (const [field, message] of Object.entries(built.errors))
        if (field !== 'root' && message) form.setError(field as keyof ManualTicketFormValues, { type: 'validate', message });
      setFormError(built.errors.root ?? null);
      return;
    }
    try {
      const ticket = await create.mutateAsync({ body: built.payload, idempotencyKey: crypto.randomUUID() });
      showToast({ severity: 'success', summary: 'Ticket created', detail: `${ticket.number}: check it and send it to the counterparty.` });
      onCreated(ticket.id);
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, FORM_FIELDS, SERVER_FIELDS));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New ticket">
      <Stack gap="sm">
        <Text size="xs" c="dimmed">
          For a trade agreed outside Dart’s market. The ticket starts as a draft: you send it to the counterparty, who checks the terms;
          then both sides accept the consideration.
        </Text>
        <FormErrorAlert message={formError ?? errors.root?.message ?? null} />
        <Controller
          control={form.control}
          name="side"
          render={({ field }) => (
            <SegmentedControl
              aria-label="Side"
              fullWidth
              value={field.value}
              onChange={(value) => field.onChange(value as 'buy' | 'sell')}
              color={field.value === 'buy' ? 'teal' : 'red'}
              data={[
                { value: 'buy', label: 'We buy' },
                { value: 'sell', label: 'We sell' },
              ]}
            />
          )}
        />
        <Controller
          control={form.control}
          name="bond"
          render={({ field }) =>
            field.value ? (
              <Paper withBorder radius="sm" px="sm" py={6}>
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    <Text size="sm" fw={600} lineClamp={1} data-testid="manual-ticket-bond">
                      {field.value.label}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {field.value.isin}
                    </Text>
                  </Stack>
                  <CloseButton
                    aria-label="Change bond"
                    onClick={() => {
                      field.onChange(null);
                      form.setValue('valueText', '');
                    }}
                  />
                </Group>
              </Paper>
            ) : (
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  Bond
                </Text>
                {renderBondSearch((picked) => {
                  field.onChange(picked);
                  form.setValue('valueText', '');
                  form.clearErrors(['bond', 'valueText']);
                })}
                {errors.bond ? (
                  <Text size="xs" c="red" role="alert">
                    {errors.bond.message}
                  </Text>
                ) : null}
              </Stack>
            )
          }
        />
        <Controller
          control={form.control}
          name="counterparty"
          render={({ field }) => (
            <ParticipantSelect
              kind="counterparty"
              ownClientId={ownClientId}
              label="Counterparty"
              placeholder="Search firms and dealers"
              required
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={errors.counterparty?.message}
            />
          )}
        />
        {bond ? (
          <Controller
            control={form.control}
            name="valueText"
            render={({ field }) => (
              <>
                {renderPricing({
                  finstrumentId: bond.id,
                  settlementDelta: pricingDeltaOf({ settlement, settlementDate }, now),
                  fixedField,
                  value: field.value,
                  onValueChange: (text) => {
                    field.onChange(text);
                    form.clearErrors('valueText');
                  },
                  onFixedFieldChange: (next) => form.setValue('fixedField', next),
                  error: errors.valueText?.message ?? null,
                  prefill: true,
                })}
              </>
            )}
          />
        ) : null}
        <Controller
          control={form.control}
          name="quantum"
          render={({ field }) => (
            <FaceValueInput
              value={field.value}
              onChange={(text) => {
                field.onChange(text);
                form.clearErrors('quantum');
              }}
              perBond={perBond}
              error={errors.quantum?.message}
              required
            />
          )}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Settlement
          </Text>
          <Controller
            control={form.control}
            name="settlement"
            render={({ field }) => (
              <SegmentedControl
                aria-label="Settlement"
                value={field.value}
                onChange={(value) => {
                  field.onChange(value);
                  form.clearErrors(['settlement', 'settlementDate']);
                }}
                data={[
                  { value: 'T0', label: 'T+0' },
                  { value: 'T1', label: 'T+1' },
                  { value: 'date', label: 'On a date' },
                ]}
              />
            )}
          />
          {settlement === 'date' ? (
            <TextInput
              type="date"
              aria-label="Settlement date"
              {...form.register('settlementDate')}
              error={errors.settlementDate?.message}
            />
          ) : errors.settlementDate || errors.settlement ? (
            <Text size="xs" c="red" role="alert">
              {errors.settlementDate?.message ?? errors.settlement?.message}
            </Text>
          ) : null}
        </Stack>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Controller
            control={form.control}
            name="exchange"
            render={({ field }) => (
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  Exchange
                </Text>
                <SegmentedControl
                  aria-label="Exchange"
                  value={field.value}
                  onChange={(value) => field.onChange(value as 'NSE' | 'BSE')}
                  data={[
                    { value: 'NSE', label: 'NSE (NSCCL)' },
                    { value: 'BSE', label: 'BSE (ICCL)' },
                  ]}
                />
                {errors.exchange ? (
                  <Text size="xs" c="red">
                    {errors.exchange.message}
                  </Text>
                ) : null}
              </Stack>
            )}
          />
          <TextInput
            type="time"
            label="Trade time (IST, today)"
            description="Leave empty for now"
            {...form.register('tradeTime')}
            error={errors.tradeTime?.message}
          />
        </SimpleGrid>
        <Controller
          control={form.control}
          name="broker"
          render={({ field }) => (
            <ParticipantSelect
              kind="broker"
              ownClientId={ownClientId}
              label="Broker (optional)"
              description="A broker firm’s user working your side of the trade."
              placeholder="Search brokers"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={errors.broker?.message}
            />
          )}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Create ticket
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
