import { HttpError } from '@dart/client';
import {
  CLEARING_CORPORATION_OF_EXCHANGE,
  EXCHANGE_MESSAGES,
  MESSAGES,
  RFQ_MODE_LABELS,
  TRADE_PARTICIPANT_EMPTY_TEXTS,
  type Exchange,
  type QuoteCreate,
} from '@dart/contracts';
import { Alert, Button, Checkbox, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useEffect, useId, useState } from 'react';
import { describeError } from '../../../lib/errors';
import { canTrade, useSession } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { useFaceValuePerBond } from '../api/get-bond-size';
import { useRaiseRfq } from '../api/raise-rfq';
import { formatSizeWithCount } from '../utils/market-format';
import { buildQuotePayload, quoteErrorsOf, type QuoteFormErrors } from '../utils/quote-form';
import { CounterpartyPicker } from './counterparty-picker';
import type { MarketSlots, PickedBond } from './market-slots';
import { INITIAL_QUOTE_VALUES, QuoteFields, useQuoteFieldsState } from './quote-fields';

type RfqMode = keyof typeof RFQ_MODE_LABELS;
type RfqErrors = QuoteFormErrors & { exchange?: string | undefined; participant?: string | undefined };

/** An RFQ asks for a quick answer: 30 minutes unless the dealer says otherwise. */
const RFQ_VALIDITY_MINUTES = 30;

export interface RaiseRfqDialogProps extends Pick<MarketSlots, 'renderBondSearch' | 'renderPricing'> {
  opened: boolean;
  onClose: () => void;
  /** The bond the dialog opens on (a bond's page); the dealer may change it. */
  bond?: PickedBond | null;
  /** Called with the raised RFQ's id (the RFQ panel shows My RFQs). */
  onRaised?: (quoteId: string) => void;
  /** Opens one-to-one to this participant on this exchange (Build Network's "OTO RFQ"); the dealer may change it. */
  participant?: { clientId: string; name: string; exchange: Exchange } | null;
}

/** Server field → the dialog's field: the spec's RFQ fields sit with the exchange and the participant. */
function rfqErrorsOf(error: unknown): RfqErrors {
  const errors: RfqErrors = quoteErrorsOf(error);
  const fields = error instanceof HttpError ? (error.body.errors ?? {}) : {};
  const first = (prefix: string) => Object.entries(fields).find(([field]) => field.split('.')[0] === prefix)?.[1]?.[0];
  const participant = first('oto_participant_details') ?? first('counterparties');
  const exchange = first('clearing_corporation') ?? first('rfq_mode');
  if (participant || exchange) {
    const rest: RfqErrors = { ...errors, counterparties: undefined, participant, exchange };
    // The field errors above replace the generic "form" text the quote form puts them under.
    if (errors.form && Object.keys(fields).length > 0) rest.form = undefined;
    return rest;
  }
  return errors;
}

/**
 * Raise an NSE (settles at NSCCL) or BSE (ICCL) RFQ: side, bond, yield or price, size, validity and
 * settlement as in the quote ticket, then the exchange, one-to-many (every participant enabled on it)
 * or one-to-one (a named participant, searched), and whether to disclose the firm. Enter raises,
 * Escape closes. Only offered to users who can trade on a firm enabled for RFQs.
 */
export function RaiseRfqDialog({
  opened,
  onClose,
  bond: initialBond = null,
  onRaised,
  participant: initialParticipant = null,
  renderBondSearch,
  renderPricing,
}: RaiseRfqDialogProps) {
  const { user } = useSession();
  const exchanges = (user?.rfq_exchanges ?? []) as Exchange[];
  const quoteFields = useQuoteFieldsState<RfqErrors>({ ...INITIAL_QUOTE_VALUES, validity: RFQ_VALIDITY_MINUTES }, initialBond);
  const { values, setValues, bond, setBond, errors, setErrors } = quoteFields;
  const [exchange, setExchange] = useState<Exchange | null>(exchanges[0] ?? null);
  const [mode, setMode] = useState<RfqMode>('ONE_TO_MANY');
  const [participant, setParticipant] = useState<string[]>([]);
  const [anonymous, setAnonymous] = useState(true);
  const raise = useRaiseRfq();
  // Rupees of face value in one bond: the size must be whole bonds (issue 12 §1).
  const perBond = useFaceValuePerBond(bond?.id ?? null);
  const exchangeLabelId = useId();
  const modeLabelId = useId();

  // A new opening starts from the bond it was opened on.
  useEffect(() => {
    if (!opened) return;
    setBond(initialBond);
    setValues((old) => ({ ...old, finstrumentId: initialBond?.id ?? null, valueText: '' }));
    setErrors({});
    raise.reset();
    if (initialParticipant) {
      setExchange(initialParticipant.exchange);
      setMode('ONE_TO_ONE');
      setParticipant([initialParticipant.clientId]);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, initialBond?.id, initialParticipant?.clientId]);

  function submit() {
    const built = buildQuotePayload({ ...values, counterparties: [] }, perBond);
    const nextErrors: RfqErrors = built.ok ? {} : { ...built.errors };
    if (!exchange) nextErrors.exchange = EXCHANGE_MESSAGES.noRfqExchange;
    if (mode === 'ONE_TO_ONE' && participant.length === 0) nextErrors.participant = MESSAGES.required;
    if (!built.ok || Object.keys(nextErrors).length > 0 || !exchange) {
      setErrors(nextErrors);
      return;
    }
    setErrors({});
    const body: QuoteCreate = {
      ...built.payload,
      send_to_rfq: true,
      clearing_corporation: CLEARING_CORPORATION_OF_EXCHANGE[exchange],
      rfq_mode: mode,
      rfq_anonymous: anonymous,
      counterparties: [],
      ...(mode === 'ONE_TO_ONE' ? { oto_participant_details: { client_id: participant[0]! } } : {}),
    };
    raise.mutate(
      { body, idempotencyKey: crypto.randomUUID() },
      {
        onSuccess: (quote) => {
          showToast({
            severity: 'success',
            summary: `RFQ raised on ${quote.exchange ?? exchange}`,
            detail: `${quote.quote_type === 'BID' ? 'Bid' : 'Ask'} ${formatSizeWithCount(quote.quantum, quote.face_value_per_bond)} of ${quote.display_name}`,
          });
          setValues((old) => ({ ...old, valueText: '', quantum: '' }));
          setParticipant([]);
          onRaised?.(quote.id);
          onClose();
        },
        onError: (error) => setErrors(rfqErrorsOf(error)),
      },
    );
  }

  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={600}>Raise RFQ</Text>} size="lg" aria-label="Raise RFQ">
      {exchanges.length === 0 ? (
        <Alert color="yellow" variant="light">
          {EXCHANGE_MESSAGES.noRfqExchange}
        </Alert>
      ) : (
        <form
          aria-label="Raise RFQ"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Stack gap="sm">
            <Stack gap={4}>
              <Text size="sm" fw={500} id={exchangeLabelId}>
                Exchange
              </Text>
              <SegmentedControl
                aria-labelledby={exchangeLabelId}
                value={exchange ?? ''}
                onChange={(value) => {
                  setExchange(value as Exchange);
                  // Participants differ per exchange.
                  setParticipant([]);
                  setErrors((old) => ({ ...old, exchange: undefined, participant: undefined }));
                }}
                data={exchanges.map((name) => ({ value: name, label: `${name} RFQ (${CLEARING_CORPORATION_OF_EXCHANGE[name]})` }))}
              />
              {errors.exchange ? (
                <Text size="xs" c="red" role="alert">
                  {errors.exchange}
                </Text>
              ) : null}
            </Stack>
            <QuoteFields {...quoteFields} renderBondSearch={renderBondSearch} renderPricing={renderPricing} />
            <Stack gap={4}>
              <Text size="sm" fw={500} id={modeLabelId}>
                RFQ mode
              </Text>
              <SegmentedControl
                aria-labelledby={modeLabelId}
                value={mode}
                onChange={(value) => {
                  setMode(value as RfqMode);
                  setErrors((old) => ({ ...old, participant: undefined }));
                }}
                data={(['ONE_TO_MANY', 'ONE_TO_ONE'] as const).map((key) => ({ value: key, label: RFQ_MODE_LABELS[key] }))}
              />
            </Stack>
            {mode === 'ONE_TO_ONE' && exchange ? (
              <CounterpartyPicker
                key={exchange}
                label="Participant"
                description={`The one participant on ${exchange} RFQ who receives this request.`}
                placeholder="Search participants"
                value={participant}
                {...(initialParticipant ? { knownNames: { [initialParticipant.clientId]: initialParticipant.name } } : {})}
                onChange={(next) => {
                  // One participant: a new choice replaces the previous one.
                  setParticipant(next.length > 0 ? [next[next.length - 1]!] : []);
                  setErrors((old) => ({ ...old, participant: undefined }));
                }}
                error={errors.participant}
                emptyText={TRADE_PARTICIPANT_EMPTY_TEXTS.entities}
                rfqExchange={exchange}
              />
            ) : null}
            <Checkbox
              label="Disclose my firm to the participants"
              checked={!anonymous}
              onChange={(event) => setAnonymous(!event.currentTarget.checked)}
            />
            {errors.form ? (
              <Alert color="red" variant="light" role="alert">
                {errors.form}
              </Alert>
            ) : raise.isError && !(raise.error instanceof HttpError) ? (
              <Alert color="red" variant="light" role="alert">
                {describeError(raise.error)}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={raise.isPending} color={values.quoteType === 'BID' ? 'teal' : 'red'}>
                Raise RFQ
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

export interface RaiseRfqButtonProps extends Pick<MarketSlots, 'renderBondSearch' | 'renderPricing'> {
  bond?: PickedBond | null;
  size?: 'xs' | 'sm' | 'compact-xs' | 'compact-sm';
  variant?: 'light' | 'default' | 'filled' | 'subtle';
  onRaised?: (quoteId: string) => void;
}

/** The entry point on a bond's page, the RFQ panel and the ticket; hidden from users who cannot raise one. */
export function RaiseRfqButton({
  bond = null,
  size = 'sm',
  variant = 'light',
  onRaised,
  renderBondSearch,
  renderPricing,
}: RaiseRfqButtonProps) {
  const { user } = useSession();
  const [opened, setOpened] = useState(false);
  if (!canTrade(user) || (user?.rfq_exchanges ?? []).length === 0) return null;
  return (
    <>
      <Button size={size} variant={variant} onClick={() => setOpened(true)}>
        Raise RFQ
      </Button>
      <RaiseRfqDialog
        opened={opened}
        onClose={() => setOpened(false)}
        bond={bond}
        {...(onRaised ? { onRaised } : {})}
        renderBondSearch={renderBondSearch}
        renderPricing={renderPricing}
      />
    </>
  );
}
