import { HttpError } from '@dart/client';
import { checkFaceValue, TicketBrokerageSchema, TicketEditSchema, TicketPriceSchema, type Ticket } from '@dart/contracts';
import { Alert, Button, Group, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { FaceValueInput } from '../../../components/ui/face-value-input';
import { describeError } from '../../../lib/errors';
import { formatDate, formatPrice, formatSize, formatYield } from '../../../lib/format';
import type { TicketCommands, TicketTermsChange } from '../hooks/use-ticket-commands';
import { useNow } from '../../../lib/use-now';
import { readPricing, settlementDeltaOf, todayInIndia, type PricingField } from '../utils/ticket-format';
import type { TicketsSlots } from './tickets-slots';

interface FormProps {
  ticket: Ticket;
  commands: TicketCommands;
  onDone: () => void;
}

/** The first message of a zod issue list, by the first path segment. */
function issuesByField(issues: readonly { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? 'form');
    out[key] ??= issue.message;
  }
  return out;
}

/** A refusal's field errors (the server's `errors`) and its sentence. */
function serverErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = { form: describeError(error) };
  if (error instanceof HttpError && error.body.errors)
    for (const [field, messages] of Object.entries(error.body.errors)) if (messages[0]) out[field] = messages[0];
  return out;
}

/**
 * Price (or re-price) the ticket by clean price or yield with the pricing input (the other figure priced live at
 * the ticket's settlement); a ticket awaiting its price can also have the agreed price confirmed as it is.
 */
export function PriceForm({ ticket, commands, onDone, renderPricing }: FormProps & Pick<TicketsSlots, 'renderPricing'>) {
  const now = useNow();
  const [fixedField, setFixedField] = useState<PricingField>('price');
  const [valueText, setValueText] = useState(() => ticket.price.toFixed(4));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function run(by?: { price: number } | { yield: number }) {
    setBusy(true);
    try {
      await commands.price(ticket, by);
      onDone();
    } catch (error) {
      setErrors(serverErrors(error));
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const read = readPricing(fixedField, valueText);
    if ('message' in read) {
      setErrors({ value: read.message });
      return;
    }
    const by = fixedField === 'yield' ? { yield: read.value } : { price: read.value };
    const checked = TicketPriceSchema.safeParse({ version: ticket.version, ...by });
    if (!checked.success) {
      const found = issuesByField(checked.error.issues);
      setErrors({ value: found.price ?? found.yield ?? found.form ?? '' });
      return;
    }
    void run(by);
  }

  return (
    <form onSubmit={submit} aria-label={`Price ${ticket.number}`} noValidate>
      <Stack gap="xs">
        <Text size="xs" c="dimmed">
          As {ticket.buy_or_sell === 'sell' ? 'the seller' : 'the price setter'}, you quote the price both sides accept. Now{' '}
          {formatPrice(ticket.price)} ({formatYield(ticket.yield)}), settling {formatDate(ticket.settlement_date)}.
        </Text>
        {renderPricing({
          finstrumentId: ticket.finstrument_id,
          settlementDelta: settlementDeltaOf(ticket.settlement_date, todayInIndia(now)),
          fixedField,
          value: valueText,
          onValueChange: (text) => {
            setValueText(text);
            setErrors({});
          },
          onFixedFieldChange: setFixedField,
          error: errors.value || errors.price || errors.yield || null,
        })}
        {errors.form ? (
          <Alert color="red" variant="light" role="alert" py={6}>
            {errors.form}
          </Alert>
        ) : null}
        <Group gap="xs" justify="flex-end">
          <Button size="compact-sm" variant="default" onClick={onDone}>
            Close
          </Button>
          {ticket.state === 'sent' ? (
            <Button size="compact-sm" variant="light" onClick={() => void run()} loading={busy}>
              Confirm {formatPrice(ticket.price)}
            </Button>
          ) : null}
          <Button size="compact-sm" type="submit" loading={busy}>
            Quote this price
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type SettlementEdit = 'keep' | 'T0' | 'T1' | 'date';

/** Change the size, the settlement or the exchange: the consideration is computed again and both sides accept it anew. */
export function EditTermsForm({ ticket, commands, onDone }: FormProps) {
  const [quantum, setQuantum] = useState('');
  const [settlement, setSettlement] = useState<SettlementEdit>('keep');
  const [settlementDate, setSettlementDate] = useState('');
  const [exchange, setExchange] = useState<Ticket['exchange']>(ticket.exchange);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const change: TicketTermsChange = {};
    const found: Record<string, string> = {};
    if (quantum.trim() !== '') {
      const size = checkFaceValue(quantum, ticket.face_value_per_bond);
      if (size.ok) change.quantum = size.rupees;
      else found.quantum = size.message;
    }
    if (settlement === 'T0' || settlement === 'T1') change.settlement_delta = settlement === 'T0' ? 0 : 1;
    if (settlement === 'date') change.settlement_date = settlementDate;
    if (exchange !== ticket.exchange) change.exchange = exchange;
    if (Object.keys(found).length === 0 && Object.keys(change).length === 0) found.form = 'Nothing to change.';
    const checked = TicketEditSchema.safeParse({ version: ticket.version, ...change });
    if (!checked.success) for (const [key, message] of Object.entries(issuesByField(checked.error.issues))) found[key] ??= message;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await commands.edit(ticket, change);
      onDone();
    } catch (error) {
      setErrors(serverErrors(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} aria-label={`Edit the terms of ${ticket.number}`} noValidate>
      <Stack gap="xs">
        <FaceValueInput
          value={quantum}
          onChange={(text) => {
            setQuantum(text);
            setErrors({});
          }}
          perBond={ticket.face_value_per_bond}
          error={errors.quantum}
          hint={`Leave empty to keep ${formatSize(ticket.quantum)}`}
          size="sm"
        />
        <Stack gap={2}>
          <Text size="sm" fw={500}>
            Settlement
          </Text>
          <SegmentedControl
            size="xs"
            aria-label="Settlement"
            value={settlement}
            onChange={(value) => {
              setSettlement(value as SettlementEdit);
              setErrors({});
            }}
            data={[
              { value: 'keep', label: `Keep ${formatDate(ticket.settlement_date)}` },
              { value: 'T0', label: 'T+0' },
              { value: 'T1', label: 'T+1' },
              { value: 'date', label: 'Date' },
            ]}
          />
          {settlement === 'date' ? (
            <TextInput
              type="date"
              aria-label="Settlement date"
              size="sm"
              value={settlementDate}
              onChange={(event) => setSettlementDate(event.currentTarget.value)}
              error={errors.settlement_date}
            />
          ) : errors.settlement_date || errors.settlement_delta ? (
            <Text size="xs" c="red">
              {errors.settlement_date ?? errors.settlement_delta}
            </Text>
          ) : null}
        </Stack>
        <SegmentedControl
          size="xs"
          aria-label="Exchange"
          value={exchange}
          onChange={(value) => setExchange(value as Ticket['exchange'])}
          data={[
            { value: 'NSE', label: 'NSE (NSCCL)' },
            { value: 'BSE', label: 'BSE (ICCL)' },
          ]}
        />
        {errors.form || errors.version ? (
          <Alert color="red" variant="light" role="alert" py={6}>
            {errors.form ?? errors.version}
          </Alert>
        ) : null}
        <Group gap="xs" justify="flex-end">
          <Button size="compact-sm" variant="default" onClick={onDone}>
            Close
          </Button>
          <Button size="compact-sm" type="submit" loading={busy}>
            Change terms
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A broker on the ticket sets the brokerage (₹, to the paisa) it charges its principal, outside the consideration. */
export function BrokerageForm({ ticket, commands, onDone, current }: FormProps & { current: number | null }) {
  const [value, setValue] = useState<number | ''>(current ?? '');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = TicketBrokerageSchema.safeParse({ version: ticket.version, brokerage: value === '' ? undefined : value });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    try {
      await commands.setBrokerage(ticket, checked.data.brokerage);
      onDone();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} aria-label={`Set the brokerage of ${ticket.number}`} noValidate>
      <Group gap="xs" align="flex-end">
        <NumberInput
          label="Brokerage (₹)"
          size="sm"
          value={value}
          onChange={(next) => {
            setValue(typeof next === 'number' ? next : next === '' ? '' : Number(next));
            setError(undefined);
          }}
          thousandSeparator=","
          thousandsGroupStyle="lakh"
          decimalScale={2}
          allowNegative={false}
          error={error}
          w={200}
          data-autofocus
        />
        <Button size="sm" variant="default" onClick={onDone}>
          Close
        </Button>
        <Button size="sm" type="submit" loading={busy}>
          Set brokerage
        </Button>
      </Group>
    </form>
  );
}
