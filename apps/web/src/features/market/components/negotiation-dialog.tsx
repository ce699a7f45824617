import { HttpError } from '@dart/client';
import { checkFaceValue, MESSAGES, NegotiationRequestSchema, type Quote } from '@dart/contracts';
import { Alert, Badge, Button, Group, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { describeError } from '../../../lib/errors';
import { formatBondName, formatDateTime } from '../../../lib/format';
import { useDeals } from '../api/deals-store';
import { useQuote } from '../api/get-quote';
import { useNegotiateQuote, type NegotiateRequest } from '../api/negotiate-quote';
import { isMyTurn, lastCounter, useNegotiations, type NegotiationRecord } from '../api/negotiations-store';
import { formatPrice, formatSize, formatSizeWithCount, formatYield, QUOTE_STATUS_LABELS } from '../utils/market-format';
import { FaceValueInput } from '../../../components/ui/face-value-input';
import { parsePricingText, type FixedField } from '../utils/quote-form';
import classes from './market.module.css';
import type { MarketSlots } from './market-slots';

export interface NegotiationTarget {
  quoteId: string;
  /** Open this negotiation (else the caller's open one on the quote, or a new one). */
  negotiationId?: string;
  /** The row the dialog was opened from (shown while the quote loads). */
  quote?: Quote;
}

export interface NegotiationDialogProps extends Pick<MarketSlots, 'renderPricing'> {
  target: NegotiationTarget | null;
  onClose: () => void;
  canTrade: boolean;
}

const ACTION_LABELS = { counter: 'Counter', accept: 'Accepted', reject: 'Rejected' } as const;

function pickRecord(records: NegotiationRecord[], target: NegotiationTarget): NegotiationRecord | undefined {
  if (target.negotiationId) return records.find((record) => record.id === target.negotiationId);
  const onQuote = records.filter((record) => record.quote_id === target.quoteId);
  return onQuote.find((record) => record.status === 'open') ?? onQuote[0];
}

/** Counter a quote by price or yield, see the history (who, when, price/yield, quantum), accept or reject. */
export function NegotiationDialog({ target, onClose, canTrade, renderPricing }: NegotiationDialogProps) {
  const quoteQuery = useQuote(target?.quoteId ?? null);
  const quote = quoteQuery.data ?? target?.quote;
  const records = useNegotiations();
  const deals = useDeals();
  const record = target ? pickRecord(records, target) : undefined;
  const negotiate = useNegotiateQuote();
  const [fixedField, setFixedField] = useState<FixedField>('yield');
  const [valueText, setValueText] = useState('');
  /** The counter's size as typed (face value, lakh/crore shorthand); empty: the last offer's size. */
  const [quantum, setQuantum] = useState('');
  const [errors, setErrors] = useState<{ value?: string; quantum?: string; form?: string }>({});

  const targetKey = target ? `${target.quoteId}:${target.negotiationId ?? ''}` : '';
  useEffect(() => {
    setValueText('');
    setErrors({});
    setQuantum('');
    negotiate.reset();
    // Only when another quote is opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [targetKey]);

  if (!target) return null;
  const title = quote ? `${quote.quote_type === 'BID' ? 'Bid' : 'Ask'} · ${formatBondName(quote.display_name)}` : 'Quote';
  const last = record ? lastCounter(record) : undefined;
  const myTurn = record ? isMyTurn(record) : false;
  const quoteOpen = quote?.status === 'open';
  const isOwner = quote?.is_mine ?? record?.role === 'quoter';
  // The owner counters back only inside a negotiation the other side started.
  const canCounter = canTrade && quoteOpen && (record ? record.status === 'open' : !isOwner);
  const deal = record?.deal_id ? deals.find((item) => item.id === record.deal_id) : undefined;
  const defaultQuantum = last?.quantum ?? quote?.remaining_quantum ?? 0;
  const perBond = quote?.face_value_per_bond;

  function send(action: NegotiateRequest['action']) {
    if (!quote) return;
    const request: Record<string, unknown> = { quote_id: quote.id, action };
    if (record) request.negotiation_id = record.id;
    const nextErrors: typeof errors = {};
    if (action === 'counter') {
      const parsed = parsePricingText(fixedField, valueText);
      if ('message' in parsed) nextErrors.value = parsed.message;
      else request[fixedField === 'yield' ? 'yield_stored' : 'unit_price_stored'] = parsed.value;
      if (quantum.trim() === '') request.quantum = defaultQuantum;
      else {
        const size = checkFaceValue(quantum, perBond);
        if (size.ok) request.quantum = size.rupees;
        else nextErrors.quantum = size.message;
      }
    }
    const checked = NegotiationRequestSchema.safeParse(request);
    if (!checked.success)
      for (const issue of checked.error.issues) {
        const field = String(issue.path[0]);
        if (field === 'quantum') nextErrors.quantum ??= issue.message;
        else if (field === 'yield_stored' || field === 'unit_price_stored') nextErrors.value ??= issue.message;
        else nextErrors.form ??= issue.message;
      }
    setErrors(nextErrors);
    if (Object.keys(nextErrors).length > 0 || !checked.success) return;
    negotiate.mutate(checked.data, {
      onSuccess: () => setValueText(''),
      onError: (error) => {
        const fieldErrors = error instanceof HttpError ? error.body.errors : undefined;
        setErrors({
          value: fieldErrors?.yield_stored?.[0] ?? fieldErrors?.unit_price_stored?.[0],
          quantum: fieldErrors?.quantum?.[0],
          form: describeError(error),
        });
      },
    });
  }

  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>{title}</Text>} size="lg" aria-label="Negotiation">
      {!quote ? (
        quoteQuery.isError ? (
          <Alert color="red" variant="light">
            {describeError(quoteQuery.error)}
          </Alert>
        ) : (
          <Loader size="sm" aria-label="Loading quote" />
        )
      ) : (
        <Stack gap="md">
          <Group gap="lg" wrap="wrap" data-testid="negotiation-quote">
            <Stat label="Quoted yield" value={formatYield(quote.yield_stored)} />
            <Stat label="Price" value={formatPrice(quote.unit_price_stored)} />
            <Stat label="Available" value={formatSizeWithCount(quote.remaining_quantum, quote.face_value_per_bond)} />
            <Stat label="Settles" value={quote.settlement_delta === null ? quote.settlement_date : `T+${quote.settlement_delta}`} />
            <Stat label="From" value={quote.is_mine ? 'You' : (quote.client_name ?? 'Anonymous')} />
          </Group>

          {!quoteOpen && record?.status !== 'accepted' ? (
            <Alert
              color={QUOTE_STATUS_LABELS[quote.status].color}
              variant="light"
              title={`Quote ${QUOTE_STATUS_LABELS[quote.status].label.toLowerCase()}`}
            >
              {QUOTE_STATUS_LABELS[quote.status].description}
            </Alert>
          ) : null}

          {record?.status === 'accepted' ? (
            <Alert color="teal" variant="light" title="Deal done" data-testid="negotiation-deal">
              {deal
                ? `${deal.side === 'buy' ? 'Bought' : deal.side === 'sell' ? 'Sold' : 'Dealt'} ${formatSizeWithCount(deal.quantum, perBond)} at ${formatPrice(deal.price)} (${formatYield(deal.yield)})${deal.counterparty ? ` with ${deal.counterparty}` : ''}.`
                : last
                  ? `${formatSizeWithCount(last.quantum, perBond)} at ${formatPrice(last.unit_price_stored)} (${formatYield(last.yield_stored)}).`
                  : 'The negotiation was accepted.'}
            </Alert>
          ) : record?.status === 'rejected' ? (
            <Alert color="gray" variant="light" title="Rejected">
              This negotiation was rejected; it has ended.
            </Alert>
          ) : null}

          {record && record.history.length > 0 ? (
            <Table.ScrollContainer minWidth={480}>
              <Table striped withTableBorder verticalSpacing={6} aria-label="Negotiation history" data-testid="negotiation-history">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Who</Table.Th>
                    <Table.Th>When</Table.Th>
                    <Table.Th>Action</Table.Th>
                    <Table.Th ta="right">Yield</Table.Th>
                    <Table.Th ta="right">Price</Table.Th>
                    <Table.Th ta="right">Face value</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {record.history.map((step) => (
                    <Table.Tr key={`${step.at}-${step.action}-${step.by_client}`}>
                      <Table.Td>
                        {step.by_client === record.role ? 'You' : step.by_client === 'quoter' ? 'Quote owner' : 'Counterparty'}
                      </Table.Td>
                      <Table.Td>{formatDateTime(step.at)}</Table.Td>
                      <Table.Td>{ACTION_LABELS[step.action]}</Table.Td>
                      <Table.Td ta="right" className={classes.mono}>
                        {formatYield(step.yield_stored)}
                      </Table.Td>
                      <Table.Td ta="right" className={classes.mono}>
                        {formatPrice(step.unit_price_stored)}
                      </Table.Td>
                      <Table.Td ta="right" className={classes.mono}>
                        {formatSize(step.quantum)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : isOwner ? (
            <Text size="sm" c="dimmed">
              No counters on this quote yet. Counters from other firms appear here live.
            </Text>
          ) : null}

          {myTurn && canTrade && quoteOpen ? (
            <Group gap="sm">
              <Button color="teal" onClick={() => send('accept')} loading={negotiate.isPending && negotiate.variables.action === 'accept'}>
                Accept {last ? `${formatSize(last.quantum)} at ${formatYield(last.yield_stored)}` : ''}
              </Button>
              <Button
                variant="default"
                color="red"
                onClick={() => send('reject')}
                loading={negotiate.isPending && negotiate.variables.action === 'reject'}
              >
                Reject
              </Button>
            </Group>
          ) : record?.status === 'open' && !myTurn ? (
            <Badge variant="light" color="gray" radius="sm">
              Waiting for the other side
            </Badge>
          ) : null}

          {canCounter ? (
            <form
              aria-label="Counter"
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                send('counter');
              }}
            >
              <Stack gap="sm">
                <Text fw={600} size="sm">
                  {record ? 'Counter back' : 'Counter this quote'}
                </Text>
                {renderPricing({
                  finstrumentId: quote.finstrument_id,
                  settlementDelta: (quote.settlement_delta ?? 1) as 0 | 1 | 2,
                  fixedField,
                  value: valueText,
                  onValueChange: setValueText,
                  onFixedFieldChange: (field) => {
                    setFixedField(field);
                    setValueText('');
                  },
                  error: errors.value ?? null,
                })}
                <FaceValueInput
                  placeholder={formatSize(defaultQuantum)}
                  value={quantum}
                  onChange={(text) => {
                    setQuantum(text);
                    setErrors((old) => (old.quantum ? { ...old, quantum: undefined } : old));
                  }}
                  perBond={perBond}
                  error={errors.quantum}
                  hint={`Leave empty for ${formatSizeWithCount(defaultQuantum, perBond)}`}
                />
                <Group>
                  <Button type="submit" loading={negotiate.isPending && negotiate.variables.action === 'counter'}>
                    Send counter
                  </Button>
                </Group>
              </Stack>
            </form>
          ) : null}

          {errors.form ? (
            <Alert color="red" variant="light" role="alert">
              {errors.form === MESSAGES.required ? 'Enter a yield or a price.' : errors.form}
            </Alert>
          ) : null}
        </Stack>
      )}
    </Modal>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} className={classes.mono}>
        {value}
      </Text>
    </Stack>
  );
}
