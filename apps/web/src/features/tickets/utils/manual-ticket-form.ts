/**
 * The manual ticket form → the `POST api/chatter/trade/manual-ticket/` payload, validated with the server's own
 * schema (`ManualTicketSchema`, STYLE practice 15) so the form shows the server's messages; and the react-hook-form
 * resolver built on it. Pure (the clock is passed in), unit-tested beside.
 */
import {
  checkFaceValue,
  ManualTicketSchema,
  MESSAGES,
  TICKET_MESSAGES,
  TRADE_TIME_LATER_MESSAGE,
  type ManualTicket,
} from '@dart/contracts';
import type { FieldErrors, Resolver } from 'react-hook-form';
import type { TicketBond } from '../components/tickets-slots';
import type { PickedParticipant } from './participants';
import { settlementDeltaOf, todayInIndia, type PricingField } from './ticket-format';

/** T+0, T+1 (the market's usual settlements) or a chosen date. */
export type SettlementChoice = 'T0' | 'T1' | 'date';

export interface ManualTicketFormValues {
  bond: TicketBond | null;
  /** From the user's firm's side. */
  side: 'buy' | 'sell';
  counterparty: PickedParticipant | null;
  /** The size as typed: face value in rupees with lakh/crore shorthand (`5cr`, `50L`). */
  quantum: string;
  fixedField: PricingField;
  /** As typed: yield in %, or clean price per ₹100. */
  valueText: string;
  settlement: SettlementChoice;
  /** yyyy-mm-dd when `settlement` is 'date'. */
  settlementDate: string;
  exchange: 'NSE' | 'BSE';
  broker: PickedParticipant | null;
  /** HH:MM (IST, today), or '' for now. */
  tradeTime: string;
}

export const INITIAL_MANUAL_TICKET: ManualTicketFormValues = {
  bond: null,
  side: 'buy',
  counterparty: null,
  quantum: '',
  fixedField: 'yield',
  valueText: '',
  settlement: 'T1',
  settlementDate: '',
  exchange: 'NSE',
  broker: null,
  tradeTime: '',
};

export type ManualTicketField = keyof ManualTicketFormValues | 'root';

/** The form field a server (or schema) path belongs to; anything else goes above the form. */
const PATH_TO_FIELD: Record<string, ManualTicketField> = {
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
};

export function manualTicketFieldOf(path: string): ManualTicketField {
  return PATH_TO_FIELD[path.split('.')[0] ?? ''] ?? 'root';
}

/** The settlement as T+n for the pricing input (which prices at a delta); a date is counted in weekdays from today. */
export function pricingDeltaOf(values: Pick<ManualTicketFormValues, 'settlement' | 'settlementDate'>, now: number): 0 | 1 | 2 {
  if (values.settlement === 'T0') return 0;
  if (values.settlement === 'T1' || !/^\d{4}-\d{2}-\d{2}$/.test(values.settlementDate)) return 1;
  return settlementDeltaOf(values.settlementDate, todayInIndia(now));
}

/** The time of day in India, `HH:MM`. */
export function nowInIndia(now: number): string {
  return new Date(now + 5.5 * 3600_000).toISOString().slice(11, 16);
}

const NUMBER_PATTERN = /^\d*\.?\d+$|^\d+\.$/;
/** The schema's HH:MM (24-hour); another text gets the schema's own message. */
const TRADE_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export type ManualTicketErrors = Partial<Record<ManualTicketField, string>>;

/**
 * The payload for these values, or the errors by form field. `perBond`: rupees of face value in one bond of the
 * chosen bond, when known (a size that is not a whole number of bonds is refused, as the server does).
 */
export function buildManualTicket(
  values: ManualTicketFormValues,
  { perBond, now }: { perBond?: number | undefined; now: number },
): { ok: true; payload: ManualTicket } | { ok: false; errors: ManualTicketErrors } {
  const errors: ManualTicketErrors = {};
  const size = values.quantum.trim() === '' ? null : checkFaceValue(values.quantum, perBond);
  if (size && !size.ok) errors.quantum = size.message;
  const typed = values.valueText.trim().replace(/%$/, '').trim();
  let pricing: { price: number } | { yield: number } | object = {};
  // The schema's "price or yield" rule runs only once the rest is valid: say it at once.
  if (typed === '') errors.valueText = TICKET_MESSAGES.priceOrYieldRequired;
  else {
    if (!NUMBER_PATTERN.test(typed)) errors.valueText = MESSAGES.shouldBeNumber;
    else {
      const value = Number(typed);
      pricing = values.fixedField === 'yield' ? { yield: Number((value / 100).toFixed(8)) } : { price: value };
    }
  }
  const tradeTime = values.tradeTime.trim();
  if (TRADE_TIME.test(tradeTime) && tradeTime > nowInIndia(now)) errors.tradeTime = TRADE_TIME_LATER_MESSAGE;
  const candidate = {
    finstrument_id: values.bond?.id,
    buy_or_sell: values.side,
    counterparty_client_id: values.counterparty?.clientId,
    ...(values.counterparty?.userId ? { counterparty_user_id: values.counterparty.userId } : {}),
    // An empty size goes as undefined, so the schema says it is required in the server's words.
    quantum: size?.ok ? size.rupees : undefined,
    ...pricing,
    ...(values.settlement === 'date'
      ? // An empty date is sent as '' so the schema refuses it ('Please enter a valid date.').
        { settlement_date: values.settlementDate.trim() }
      : { settlement_delta: values.settlement === 'T0' ? 0 : 1 }),
    exchange: values.exchange,
    ...(values.broker?.userId ? { broker_user_id: values.broker.userId } : {}),
    ...(tradeTime !== '' ? { trade_time: tradeTime } : {}),
  };
  const parsed = ManualTicketSchema.safeParse(candidate);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = manualTicketFieldOf(issue.path.map(String).join('.'));
      // A value the form already refused keeps its own message.
      if (!errors[field]) errors[field] = issue.message;
    }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, payload: parsed.data };
}

/**
 * react-hook-form's resolver over `buildManualTicket`: the schema's issues land on the fields they belong to.
 * The whole-bond check needs the bond's face value per bond: the submit builds once more with it.
 */
export const manualTicketResolver: Resolver<ManualTicketFormValues> = async (values) => {
  const built = buildManualTicket(values, { now: Date.now() });
  if (built.ok) return { values, errors: {} };
  const errors: Record<string, { type: string; message: string }> = {};
  for (const [field, message] of Object.entries(built.errors)) if (message) errors[field] = { type: 'validate', message };
  return { values: {}, errors: errors as FieldErrors<ManualTicketFormValues> };
};
