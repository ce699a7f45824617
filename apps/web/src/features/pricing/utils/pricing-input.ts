/**
 * The pricing input rules of spec trading §4/§5: yield in % or clean price per ₹100, the automatic
 * switch at PRICE_YIELD_SWITCH_THRESHOLD, the messages, and the wire format (yield as a fraction
 * with 6 decimals, price with 4).
 */
import { PRICE_YIELD_SWITCH_THRESHOLD, PriceRequestSchema } from '@dart/contracts';

export type FixedField = 'yield' | 'price';

export const PRICING_INPUT_TEXT = {
  yield: { label: 'Yield (%)', placeholder: 'Enter Yield', required: 'Yield is required' },
  price: { label: 'Clean price (per ₹100)', placeholder: 'Enter Price', required: 'Price is required' },
} as const;

const NUMBER_PATTERN = /^-?\d*\.?\d+$|^-?\d+\.$/;

/** The mode a typed value implies: at or above the threshold a price, below it a yield (null: not a number). */
export function inferFixedField(raw: string): FixedField | null {
  const text = raw.trim();
  if (!NUMBER_PATTERN.test(text)) return null;
  return Number(text) >= PRICE_YIELD_SWITCH_THRESHOLD ? 'price' : 'yield';
}

export type PricingValidation = { ok: true; wire: { yield: number } | { price: number } } | { ok: false; message: string };

/**
 * Validates the typed value for its mode with the server's own schema (PriceRequestSchema) and
 * returns the wire value. Disabled inputs are not validated (spec §5): callers skip the call.
 */
export function validatePricingInput(field: FixedField, raw: string): PricingValidation {
  const text = raw.trim();
  if (text === '') return { ok: false, message: PRICING_INPUT_TEXT[field].required };
  if (!NUMBER_PATTERN.test(text)) return { ok: false, message: 'Should be number' };
  const value = Number(text);
  if (field === 'price') {
    const decimals = text.includes('.') ? text.split('.')[1]!.length : 0;
    if (decimals > 4) return { ok: false, message: 'Price allows at most 4 decimals (step 0.0001)' };
    const price = Number(value.toFixed(4));
    const parsed = PriceRequestSchema.safeParse({ price });
    return parsed.success ? { ok: true, wire: { price } } : { ok: false, message: parsed.error.issues[0]?.message ?? 'Invalid price' };
  }
  if (text.replace('-', '').length > 7) return { ok: false, message: 'Yield has at most 7 characters' };
  const fraction = Number((value / 100).toFixed(6));
  const parsed = PriceRequestSchema.safeParse({ yield: fraction });
  return parsed.success
    ? { ok: true, wire: { yield: fraction } }
    : { ok: false, message: parsed.error.issues[0]?.message ?? 'Invalid yield' };
}

/**
 * Whether the calculator may show figures (the other value, the consideration) for what is typed.
 * `typed` is the field's text (null: untouched, the reference value is shown); `sent` the text the
 * last request was built from (the debounced one). An empty or rejected value shows none: the
 * request leaves it out, so the server's answer is the reference price, not a price for the input.
 * Nor while a valid value waits for its request and the one sent had no value (empty or rejected).
 */
export function figuresShownFor(field: FixedField, typed: string | null, sent: string | null): boolean {
  if (typed === null) return true;
  if (!validatePricingInput(field, typed).ok) return false;
  return sent !== null && validatePricingInput(field, sent).ok;
}

/** A quantity the consideration can be priced for: a whole number of units, at least 1. */
export function isPricedQuantity(quantity: number): boolean {
  return Number.isInteger(quantity) && quantity >= 1;
}

/** Clean price with 4 decimals. */
export function formatCleanPrice(value: number | null | undefined): string | null {
  return value === null || value === undefined ? null : value.toFixed(4);
}

/** A yield fraction as a percentage with 4 decimals: 0.0689 → '6.8900%'. */
export function formatYieldPercent(fraction: number | null | undefined): string | null {
  return fraction === null || fraction === undefined ? null : `${(fraction * 100).toFixed(4)}%`;
}

/** The input text for a mode from a price info: '6.8900' (yield, %) or '100.1742' (price). */
export function inputTextFor(field: FixedField, price: { unit_clean_price: number | null; bond_yield: number | null }): string {
  if (field === 'price') return price.unit_clean_price === null ? '' : price.unit_clean_price.toFixed(4);
  return price.bond_yield === null ? '' : (price.bond_yield * 100).toFixed(4);
}
