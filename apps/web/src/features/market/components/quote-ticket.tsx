import { Alert, Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { QuoteIcon } from '../../../components/ui/icons';
import { showToast } from '../../../lib/toast';
import { useCreateQuote } from '../api/create-quote';
import { formatQuantum } from '../utils/market-format';
import { buildQuotePayload, quoteErrorsOf, type QuoteFormErrors, type QuoteFormValues } from '../utils/quote-form';
import { CounterpartyPicker } from './counterparty-picker';
import { MarketPanel } from './market-panel';
import { INITIAL_QUOTE_VALUES, QuoteFields } from './quote-fields';
import type { MarketSlots, PickedBond } from './market-slots';

export interface QuoteTicketProps extends MarketSlots {
  /** Without trade access (or with a view-only role) the ticket explains instead of posting. */
  canTrade: boolean;
  restrictionText?: string | null;
}

/** The quote ticket: a bid or ask on a bond by yield or price, to the market or to chosen counterparties. */
export function QuoteTicket({ canTrade, restrictionText, renderBondSearch, renderPricing }: QuoteTicketProps) {
  const [values, setValues] = useState<QuoteFormValues>(INITIAL_QUOTE_VALUES);
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
        onError: (error) => setErrors(quoteErrorsOf(error)),
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
          <QuoteFields
            values={values}
            setValues={setValues}
            bond={bond}
            setBond={setBond}
            errors={errors}
            setErrors={setErrors}
            renderBondSearch={renderBondSearch}
            renderPricing={renderPricing}
          />
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
