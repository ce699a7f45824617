import type { Quote } from '@dart/contracts';
import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useId, useState } from 'react';
import { describeError } from '../../../lib/errors';
import { useCreateQuote } from '../api/create-quote';
import { useFaceValuePerBond } from '../api/get-bond-size';
import { buildQuotePayload, quoteErrorsOf } from '../utils/quote-form';
import type { MarketSlots } from './market-slots';
import { QuoteFields, useQuoteFieldsState } from './quote-fields';

/** A firm a private run goes to: its client id (what the quote carries) and the name people read. */
export interface PrivateRunFirm {
  clientId: string;
  name: string;
}

export interface PrivateRunFormProps extends Pick<MarketSlots, 'renderBondSearch' | 'renderPricing'> {
  /** The firms the quote goes to, fixed by the caller (shown, not chosen). */
  counterparties: readonly PrivateRunFirm[];
  /**
   * Called with the quote once it exists, to post it where it was asked for (a chat). A rejection's
   * message is shown in the form, which then offers to post the same quote again.
   */
  onCreated: (quote: Quote) => Promise<void>;
}

type Phase = 'idle' | 'creating' | 'posting';

/**
 * A private run to firms the caller fixes (spec "private runs (quotes sent from chats)"): the quote
 * ticket's fields, the firms read-only, then `POST api/trade/eoi/` with those `counterparties` and the
 * caller's `onCreated`. Server errors of the quote show under their fields; a quote that was made but
 * could not be posted stays private to those firms (it is in the private runs) and can be posted again.
 */
export function PrivateRunForm({ counterparties, onCreated, renderBondSearch, renderPricing }: PrivateRunFormProps) {
  const quoteFields = useQuoteFieldsState();
  const { values, bond, errors, setErrors } = quoteFields;
  const perBond = useFaceValuePerBond(bond?.id ?? null);
  const [phase, setPhase] = useState<Phase>('idle');
  // A quote that was created but not posted: "Post it again" sends this one rather than a new quote.
  const [unposted, setUnposted] = useState<Quote | null>(null);
  const create = useCreateQuote();
  const firmsLabelId = useId();
  const side = values.quoteType === 'BID' ? 'bid' : 'ask';

  async function post(quote: Quote) {
    setPhase('posting');
    setErrors({});
    try {
      await onCreated(quote);
      setUnposted(null);
    } catch (error) {
      setUnposted(quote);
      setErrors({ form: describeError(error) });
    } finally {
      setPhase('idle');
    }
  }

  async function submit() {
    if (phase !== 'idle') return;
    const built = buildQuotePayload({ ...values, counterparties: counterparties.map((firm) => firm.clientId) }, perBond);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    setUnposted(null);
    setPhase('creating');
    let quote: Quote;
    try {
      // One idempotency key per submit: the HTTP client's retries of this submit reuse it.
      quote = await create.mutateAsync({ body: built.payload, idempotencyKey: crypto.randomUUID() });
    } catch (error) {
      setErrors(quoteErrorsOf(error));
      setPhase('idle');
      return;
    }
    await post(quote);
  }

  const names = counterparties.map((firm) => firm.name).join(', ');
  return (
    <form
      aria-label="Private run"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="sm">
        <Stack gap={4}>
          <Text size="sm" fw={500} id={firmsLabelId}>
            Sent privately to
          </Text>
          <Group gap={6} role="list" aria-labelledby={firmsLabelId}>
            {counterparties.map((firm) => (
              <Badge key={firm.clientId} role="listitem" variant="light" radius="sm" tt="none" size="lg" data-testid="private-run-firm">
                {firm.name}
              </Badge>
            ))}
          </Group>
          <Text size="xs" c="dimmed">
            Only these firms see this quote. It also shows in their private runs.
          </Text>
          {errors.counterparties ? (
            <Text size="xs" c="red" role="alert">
              {errors.counterparties}
            </Text>
          ) : null}
        </Stack>
        <QuoteFields {...quoteFields} renderBondSearch={renderBondSearch} renderPricing={renderPricing} />
        {errors.form ? (
          <Alert
            color="red"
            variant="light"
            role="alert"
            title={unposted ? 'Not posted in the chat' : undefined}
            data-testid="private-run-error"
          >
            <Stack gap={6}>
              <Text size="sm">{errors.form}</Text>
              {unposted ? (
                <>
                  <Text size="xs" c="dimmed">
                    The quote was made and sent privately to {names}; it is in your private runs.
                  </Text>
                  <Group>
                    <Button size="compact-sm" variant="light" color="red" loading={phase === 'posting'} onClick={() => void post(unposted)}>
                      Post it again
                    </Button>
                  </Group>
                </>
              ) : null}
            </Stack>
          </Alert>
        ) : null}
        <Button
          type="submit"
          loading={phase !== 'idle'}
          color={values.quoteType === 'BID' ? 'teal' : 'red'}
          data-testid="private-run-submit"
        >
          {`Send private ${side}`}
        </Button>
      </Stack>
    </form>
  );
}
