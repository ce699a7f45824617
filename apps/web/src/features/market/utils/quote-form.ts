/**
 * The quote ticket's form → the `POST api/trade/eoi/` payload, validated with the server's own
 * schema (`QuoteCreateSchema`, STYLE practice 15), so the ticket shows the server's messages.
 */
import { HttpError } from '@dart/client';
import { checkFaceValue, MESSAGES, QuoteCreateSchema, type QuoteCreate } from '@dart/contracts';
import { describeError } from '../../../lib/errors';

export type FixedField = 'yield' | 'price';

export interface QuoteFormValues {
  quoteType: 'BID' | 'ASK';
  finstrumentId: number | null;
  fixedField: FixedField;
  /** As typed: yield in %, or clean price per ₹100. */
  valueText: string;
  /** The size as typed: face value in rupees with lakh/crore shorthand (`5cr`, `50L`, `5,00,00,000`). */
  quantum: string;
  validity: number | '';
  settlementDelta: 0 | 1 | 2;
  counterparties: string[];
  /** The quoter's WhatsApp consent, sent as the quote's `whatsapp_consent` (unticked = false: not a withdrawal). */
  whatsappConsent?: boolean;
}

export type QuoteFormField = 'finstrumentId' | 'value' | 'quantum' | 'validity' | 'settlementDelta' | 'counterparties' | 'form';
export type QuoteFormErrors = Partial<Record<QuoteFormField, string>>;

const NUMBER_PATTERN = /^-?\d*\.?\d+$|^-?\d+\.$/;

/** The typed value on the wire: yield % → fraction, price as is; a message when it is not a number. */
export function parsePricingText(field: FixedField, text: string): { value: number } | { message: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { message: MESSAGES.required };
  if (!NUMBER_PATTERN.test(trimmed)) return { message: MESSAGES.shouldBeNumber };
  const value = Number(trimmed);
  return { value: field === 'yield' ? value / 100 : value };
}

const SERVER_FIELD_TO_FORM: Record<string, QuoteFormField> = {
  finstrument_id: 'finstrumentId',
  unit_price_stored: 'value',
  yield_stored: 'value',
  quantum: 'quantum',
  validity: 'validity',
  settlement: 'settlementDelta',
  settlement_delta: 'settlementDelta',
  counterparties: 'counterparties',
};

/** Maps a server (or schema) field path to the ticket's field; unknown ones go above the form. */
export function formFieldOf(serverField: string): QuoteFormField {
  return SERVER_FIELD_TO_FORM[serverField.split('.')[0] ?? ''] ?? 'form';
}

/** A refused `POST api/trade/eoi/` → the form's errors: each server field error under its field, the rest above the form. */
export function quoteErrorsOf(error: unknown): QuoteFormErrors {
  if (!(error instanceof HttpError) || !error.body.errors) return { form: describeError(error) };
  const errors: QuoteFormErrors = {};
  for (const [field, messages] of Object.entries(error.body.errors)) errors[formFieldOf(field)] ??= messages[0];
  return errors;
}

/**
 * @param perBond rupees of face value in one bond of the chosen bond, when known: a size that is not a
 * whole number of bonds is refused here (the server refuses it too).
 */
export function buildQuotePayload(
  values: QuoteFormValues,
  perBond?: number,
): { ok: true; payload: QuoteCreate } | { ok: false; errors: QuoteFormErrors } {
  const errors: QuoteFormErrors = {};
  const pricing = parsePricingText(values.fixedField, values.valueText);
  if ('message' in pricing) errors.value = pricing.message;
  const size = checkFaceValue(values.quantum, perBond);
  if (!size.ok) errors.quantum = size.message;
  const candidate = {
    finstrument_id: values.finstrumentId ?? undefined,
    quote_type: values.quoteType,
    quantum: size.ok ? size.rupees : undefined,
    validity: values.validity === '' ? undefined : values.validity,
    settlement_delta: values.settlementDelta,
    fixed_field: values.fixedField,
    ...('value' in pricing ? (values.fixedField === 'yield' ? { yield_stored: pricing.value } : { unit_price_stored: pricing.value }) : {}),
    counterparties: values.counterparties.map((id) => id.trim()).filter(Boolean),
    whatsapp_consent: values.whatsappConsent ?? false,
  };
  const parsed = QuoteCreateSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = formFieldOf(String(issue.path[0] ?? ''));
      // A missing typed value already has its own message.
      if (field === 'value' && errors.value) continue;
      if (field === 'quantum' && errors.quantum) continue;
      if (field === 'finstrumentId') errors.finstrumentId = 'Choose a bond.';
      else errors[field] ??= issue.message;
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, payload: parsed.data };
}
