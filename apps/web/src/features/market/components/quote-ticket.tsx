import { Alert, Button, Stack } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { QuoteIcon } from '../../../components/ui/icons';
import { useHotkey, type HotkeyEvent } from '../../../lib/hotkeys';
import { showToast } from '../../../lib/toast';
import { useCreateQuote } from '../api/create-quote';
import { useTicketHotkeys } from '../hooks/use-ticket-hotkeys';
import { selectedBond, type TicketRequest } from '../stores/selected-bond';
import { formatSizeWithCount } from '../utils/market-format';
import { useFaceValuePerBond } from '../api/get-bond-size';
import { buildQuotePayload, quoteErrorsOf, type QuoteFormValues } from '../utils/quote-form';
import { CounterpartyPicker } from './counterparty-picker';
import { MarketPanel } from './market-panel';
import { RaiseRfqButton } from './raise-rfq-dialog';
import { INITIAL_QUOTE_VALUES, QuoteFields, useQuoteFieldsState } from './quote-fields';
import type { MarketSlots } from './market-slots';

export interface QuoteTicketProps extends MarketSlots {
  /** Without trade access (or with a view-only role) the ticket explains instead of posting. */
  canTrade: boolean;
  restrictionText?: string | null;
}

/** How long `B` waits for the bond's reference yield to fill the field before choosing the field to focus. */
const PREFILL_WAIT_MS = 800;

/** Text fields a dealer types in (not the side and settlement radios, not the bond search), in page order. */
function typingFields(root: HTMLElement): HTMLInputElement[] {
  return Array.from(root.querySelectorAll<HTMLInputElement>('input')).filter(
    (input) =>
      !['radio', 'checkbox', 'hidden', 'search'].includes(input.type) &&
      !input.readOnly &&
      !input.disabled &&
      input.getClientRects().length > 0,
  );
}

/**
 * Esc on a field whose list is open closes the list (the field's own key), not the ticket. Mantine's
 * comboboxes mark an open list with data-expanded and data-mantine-stop-propagation (the flag its modals
 * read for the same reason), not always aria-expanded.
 */
function listClosed(event: HotkeyEvent): boolean {
  const target = event.target as Element | null;
  if (!target || typeof target.getAttribute !== 'function') return true;
  return ['aria-expanded', 'data-expanded', 'data-mantine-stop-propagation'].every((name) => target.getAttribute(name) !== 'true');
}

/**
 * The quote ticket: a bid or ask on a bond by yield or price, to the market or to chosen counterparties.
 * Keyboard: `B` / `S` (anywhere on the workspace) open it on the selected bond with that side and focus
 * the first empty field; Enter posts; Esc clears it and returns focus where it was.
 */
export function QuoteTicket({ canTrade, restrictionText, renderBondSearch, renderPricing }: QuoteTicketProps) {
  const quoteFields = useQuoteFieldsState();
  const { values, setValues, bond, setBond, errors, setErrors } = quoteFields;
  const perBond = useFaceValuePerBond(bond?.id ?? null);
  const create = useCreateQuote();
  const set = <K extends keyof QuoteFormValues>(key: K, value: QuoteFormValues[K]) => setValues((old) => ({ ...old, [key]: value }));
  const side = values.quoteType === 'BID' ? 'bid' : 'ask';
  const formRef = useRef<HTMLFormElement | null>(null);
  const fieldsRef = useRef<HTMLDivElement | null>(null);
  // A focus the keyboard asked for: the bond field (no bond), else the first empty field once the
  // bond's reference yield is in (or PREFILL_WAIT_MS passed without it).
  const [pendingFocus, setPendingFocus] = useState<{ seq: number; waited: boolean } | null>(null);
  const focusBefore = useRef<HTMLElement | null>(null);
  // Names of firms a private-run request chose (the picker learns names only from its own search).
  const [firmNames, setFirmNames] = useState<Record<string, string>>({});

  useTicketHotkeys(canTrade);

  const apply = useCallback(
    (request: TicketRequest) => {
      const active = document.activeElement;
      if (active instanceof HTMLElement && !formRef.current?.contains(active)) focusBefore.current = active;
      setValues((old) => ({
        ...old,
        quoteType: request.side,
        ...(request.bond && request.bond.id !== old.finstrumentId ? { finstrumentId: request.bond.id, valueText: '' } : {}),
        ...(request.counterparties ? { counterparties: request.counterparties.map((firm) => firm.clientId) } : {}),
      }));
      if (request.counterparties) {
        const named = request.counterparties;
        setFirmNames((old) => ({ ...old, ...Object.fromEntries(named.map((firm) => [firm.clientId, firm.name])) }));
      }
      setErrors({});
      if (request.bond) setBond(request.bond);
      setPendingFocus({ seq: request.seq, waited: false });
      formRef.current?.scrollIntoView({ block: 'nearest' });
    },
    [setBond, setErrors, setValues],
  );

  // Take B / S requests: the one waiting when the ticket mounts (a docked ticket brought forward), then each new one.
  useEffect(() => {
    if (!canTrade) return;
    const take = () => {
      const request = selectedBond.takeTicketRequest();
      if (request) apply(request);
    };
    take();
    return selectedBond.subscribeTicketRequests(take);
  }, [apply, canTrade]);

  // The focus asked for is given once (by request seq); the wait for the reference yield ends by a timer.
  const focusedSeq = useRef(0);
  useEffect(() => {
    const root = fieldsRef.current;
    if (!pendingFocus || !root || focusedSeq.current === pendingFocus.seq) return;
    if (bond && values.valueText.trim() === '' && !pendingFocus.waited) {
      const handle = window.setTimeout(() => setPendingFocus((old) => (old ? { ...old, waited: true } : old)), PREFILL_WAIT_MS);
      return () => window.clearTimeout(handle);
    }
    focusedSeq.current = pendingFocus.seq;
    if (!bond) {
      root.querySelector<HTMLInputElement>('input[type="search"]')?.focus();
      return;
    }
    const fields = typingFields(root);
    const field = fields.find((input) => input.value.trim() === '') ?? fields[0];
    field?.focus();
    field?.select();
  }, [pendingFocus, bond, values.valueText]);

  function clear() {
    setValues((old) => ({ ...INITIAL_QUOTE_VALUES, quoteType: old.quoteType }));
    setBond(null);
    setErrors({});
    focusedSeq.current = pendingFocus?.seq ?? focusedSeq.current;
    const before = focusBefore.current;
    focusBefore.current = null;
    if (before?.isConnected) before.focus();
    else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  }

  useHotkey(
    {
      id: 'ticket-escape',
      keys: ['Escape'],
      label: 'Clear the ticket (and go back where you were)',
      scope: 'Quote ticket',
      allowInInputs: true,
      within: () => formRef.current,
      when: listClosed,
      run: clear,
    },
    canTrade,
  );
  useHotkey(
    { id: 'ticket-enter', keys: ['Enter'], label: 'Post the quote (from any field of the ticket)', scope: 'Quote ticket' },
    canTrade,
  );

  function submit() {
    const built = buildQuotePayload(values, perBond);
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
            detail: `${formatSizeWithCount(quote.quantum, quote.face_value_per_bond)} of ${quote.display_name}`,
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
    <MarketPanel
      id="quote-ticket"
      title="New quote"
      icon={<QuoteIcon />}
      actions={<RaiseRfqButton size="compact-sm" bond={bond} renderBondSearch={renderBondSearch} renderPricing={renderPricing} />}
    >
      <form
        ref={formRef}
        aria-label="New quote"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          {/* display: contents keeps the fields in the Stack's flow; the ref finds the field to focus. */}
          <div ref={fieldsRef} style={{ display: 'contents' }}>
            <QuoteFields {...quoteFields} renderBondSearch={renderBondSearch} renderPricing={renderPricing} />
          </div>
          <CounterpartyPicker
            label="Counterparties (optional)"
            description="Leave empty to publish to the market; choose firms to send this privately to them only."
            value={values.counterparties}
            knownNames={firmNames}
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
