import { DEFAULT_SETTLEMENT_DELTA, QUOTE_DEFAULTS, SETTLEMENT_DELTAS } from '@dart/contracts';
import { HttpError } from '@dart/client';
import { Alert, Button, CloseButton, Group, NumberInput, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { QuoteIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { showToast } from '../../../lib/toast';
import { useCreateQuote } from '../api/create-quote';
import { formatQuantum } from '../utils/market-format';
import { buildQuotePayload, formFieldOf, type QuoteFormErrors, type QuoteFormValues } from '../utils/quote-form';
import { CounterpartyPicker } from './counterparty-picker';
import { MarketPanel } from './market-panel';
import type { MarketSlots, PickedBond } from './market-slots';

const INITIAL: QuoteFormValues = {
  quoteType: 'BID',
  finstrumentId: null,
  fixedField: 'yield',
  valueText: '',
  quantum: '',
  validity: QUOTE_DEFAULTS.validity_minutes,
  settlementDelta: DEFAULT_SETTLEMENT_DELTA as 0 | 1 | 2,
  counterparties: [],
};

export interface QuoteTicketProps extends MarketSlots {
  /** Without trade access (or with a view-only role) the ticket explains instead of posting. */
  canTrade: boolean;
  restrictionText?: string | null;
}

/** The quote ticket: a bid or ask on a bond by yield or price, to the market or to chosen counterparties. */
export function QuoteTicket({ canTrade, restrictionText, renderBondSearch, renderPricing }: QuoteTicketProps) {
  const [values, setValues] = useState<QuoteFormValues>(INITIAL);
  const [bond, setBond] = useState<PickedBond | null>(null);
  const [errors, setErrors] = useState<QuoteFormErrors>({});
  const create = useCreateQuote();
  const set = <K extends keyof QuoteFormValues>(key: K, value: QuoteFormValues[K]) => setValues((old) => ({ ...old, [key]: value }));
  const side = values.quoteType === 'BID' ? 'bid' : 'ask';

  function submit() {
    const built = buildQuotePayload(values);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    // One idempotency key per submit: the HTTP client's retries of this submit reuse it.
    create.mutate(
      { body: built.payload, idempotencyKey: crypto.randomUUID() },
      {
        onSuccess: (quote) => {
          showToast({
            severity: 'success',
            summary: quote.private ? `Private ${side} sent` : `${side === 'bid' ? 'Bid' : 'Ask'} posted`,
            detail: `${formatQuantum(quote.quantum)} units of ${quote.display_name}`,
          });
          setValues((old) => ({ ...old, valueText: '', quantum: '', counterparties: [] }));
        },
        onError: (error) => {
          if (error instanceof HttpError && error.body.errors) {
            const next: QuoteFormErrors = {};
            for (const [field, messages] of Object.entries(error.body.errors)) next[formFieldOf(field)] ??= messages[0];
            setErrors(next);
          } else setErrors({ form: describeError(error) });
        },
      },
    );
  }

  if (!canTrade) {
    return (
      <MarketPanel id="quote-ticket" title="New quote" icon={<QuoteIcon />}>
        <Alert color="yellow" variant="light" title="Trading is not available on this account">
          {restrictionText ?? 'Your role can view the market but cannot post quotes.'}
        </Alert>
      </MarketPanel>
    );
  }

  return (
    <MarketPanel id="quote-ticket" title="New quote" icon={<QuoteIcon />}>
      <form
        aria-label="New quote"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <SegmentedControl
            aria-label="Side"
            fullWidth
            value={values.quoteType}
            onChange={(value) => set('quoteType', value as 'BID' | 'ASK')}
            color={values.quoteType === 'BID' ? 'teal' : 'red'}
            data={[
              { value: 'BID', label: 'Bid (buy)' },
              { value: 'ASK', label: 'Ask (sell)' },
            ]}
          />
          {bond ? (
            <Paper withBorder radius="sm" px="sm" py={6}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600} lineClamp={1} data-testid="ticket-bond">
                    {bond.label}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {bond.isin}
                  </Text>
                </Stack>
                <CloseButton
                  aria-label="Change bond"
                  onClick={() => {
                    setBond(null);
                    setValues((old) => ({ ...old, finstrumentId: null, valueText: '' }));
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
                setBond(picked);
                setValues((old) => ({ ...old, finstrumentId: picked.id, valueText: '' }));
                setErrors((old) => ({ ...old, finstrumentId: undefined }));
              })}
              {errors.finstrumentId ? (
                <Text size="xs" c="red" role="alert">
                  {errors.finstrumentId}
                </Text>
              ) : null}
            </Stack>
          )}
          {bond
            ? renderPricing({
                finstrumentId: bond.id,
                settlementDelta: values.settlementDelta,
                fixedField: values.fixedField,
                value: values.valueText,
                onValueChange: (text) => set('valueText', text),
                onFixedFieldChange: (field) => set('fixedField', field),
                error: errors.value ?? null,
                prefill: true,
              })
            : null}
          <Group grow align="flex-start" gap="sm">
            <NumberInput
              label="Quantum (units)"
              value={values.quantum}
              onChange={(value) => set('quantum', typeof value === 'number' ? value : value === '' ? '' : Number(value))}
              allowDecimal={false}
              thousandSeparator=","
              thousandsGroupStyle="lakh"
              error={errors.quantum}
              required
            />
            <NumberInput
              label="Validity (minutes)"
              value={values.validity}
              onChange={(value) => set('validity', typeof value === 'number' ? value : value === '' ? '' : Number(value))}
              allowDecimal={false}
              allowNegative={false}
              error={errors.validity}
            />
          </Group>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="ticket-settlement-label">
              Settlement
            </Text>
            <SegmentedControl
              aria-labelledby="ticket-settlement-label"
              value={String(values.settlementDelta)}
              onChange={(value) => set('settlementDelta', Number(value) as 0 | 1 | 2)}
              data={SETTLEMENT_DELTAS.map((delta) => ({ value: String(delta), label: `T+${delta}` }))}
            />
            {errors.settlementDelta ? (
              <Text size="xs" c="red">
                {errors.settlementDelta}
              </Text>
            ) : null}
          </Stack>
          <CounterpartyPicker
            label="Counterparties (optional)"
            description="Leave empty to publish to the market; choose firms to send this privately to them only."
            value={values.counterparties}
            onChange={(next) => {
              set('counterparties', next);
              setErrors((old) => ({ ...old, counterparties: undefined }));
            }}
            error={errors.counterparties}
          />
          {errors.form ? (
            <Alert color="red" variant="light" role="alert">
              {errors.form}
            </Alert>
          ) : null}
          <Button type="submit" loading={create.isPending} color={values.quoteType === 'BID' ? 'teal' : 'red'}>
            {values.counterparties.length > 0 ? `Send private ${side}` : `Post ${side}`}
          </Button>
        </Stack>
      </form>
    </MarketPanel>
  );
}
