import { HttpError } from '@dart/client';
import { MARKET_MESSAGES, MESSAGES } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { buildQuotePayload, formFieldOf, parsePricingText, quoteErrorsOf, type QuoteFormValues } from './quote-form';

const valid: QuoteFormValues = {
  quoteType: 'BID',
  finstrumentId: 42,
  fixedField: 'yield',
  valueText: '7.5',
  quantum: '5cr',
  validity: 1440,
  settlementDelta: 1,
  counterparties: [],
};

describe('quote ticket payload', () => {
  it('sends a yield typed in % as a 6-dp fraction with settlement delta, never a settlement date', () => {
    const result = buildQuotePayload(valid);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.payload).toMatchObject({
      finstrument_id: 42,
      quote_type: 'BID',
      yield_stored: 0.075,
      settlement_delta: 1,
      fixed_field: 'yield',
      quantum: 50_000_000,
    });
    expect(result.payload.unit_price_stored).toBeUndefined();
    expect(result.payload.settlement).toBeUndefined();
  });

  it('sends the WhatsApp consent ticked on the form as whatsapp_consent, and false when unticked or absent', () => {
    const ticked = buildQuotePayload({ ...valid, whatsappConsent: true });
    expect(ticked.ok && ticked.payload.whatsapp_consent).toBe(true);
    const unticked = buildQuotePayload({ ...valid, whatsappConsent: false });
    expect(unticked.ok && unticked.payload.whatsapp_consent).toBe(false);
    const absent = buildQuotePayload(valid);
    expect(absent.ok && absent.payload.whatsapp_consent).toBe(false);
  });

  it('sends a price by price with 4 decimals', () => {
    const result = buildQuotePayload({ ...valid, fixedField: 'price', valueText: '100.12345' });
    expect(result.ok && result.payload.unit_price_stored).toBe(100.1235);
  });

  it('shows the spec messages for quantum and the typed value', () => {
    expect(buildQuotePayload({ ...valid, quantum: '0' })).toEqual({ ok: false, errors: { quantum: MESSAGES.cannotBeZero } });
    expect(buildQuotePayload({ ...valid, quantum: '-5cr' })).toEqual({ ok: false, errors: { quantum: MESSAGES.cannotBeNegative } });
    expect(buildQuotePayload({ ...valid, quantum: '1,00,000cr' })).toEqual({ ok: false, errors: { quantum: MESSAGES.max12Digits } });
    expect(buildQuotePayload({ ...valid, quantum: '' })).toEqual({ ok: false, errors: { quantum: MESSAGES.required } });
    expect(buildQuotePayload({ ...valid, valueText: '' })).toEqual({ ok: false, errors: { value: MESSAGES.required } });
    expect(buildQuotePayload({ ...valid, valueText: 'abc' })).toEqual({ ok: false, errors: { value: MESSAGES.shouldBeNumber } });
    expect(buildQuotePayload({ ...valid, valueText: '120' })).toEqual({ ok: false, errors: { value: MESSAGES.yieldAbove100 } });
    expect(buildQuotePayload({ ...valid, fixedField: 'price', valueText: '300' })).toEqual({
      ok: false,
      errors: { value: MESSAGES.priceBelow250 },
    });
    expect(buildQuotePayload({ ...valid, validity: 0 })).toEqual({ ok: false, errors: { validity: MARKET_MESSAGES.validity } });
  });

  it('reads the size as face value with lakh/crore shorthand and refuses part of a bond (issue 12 §1)', () => {
    const quantumOf = (text: string, perBond?: number) => {
      const result = buildQuotePayload({ ...valid, quantum: text }, perBond);
      return result.ok ? result.payload.quantum : result.errors.quantum;
    };
    expect(quantumOf('2.5cr', 100)).toBe(25_000_000);
    expect(quantumOf('50 L', 100_000)).toBe(5_000_000);
    expect(quantumOf('5,00,00,000')).toBe(50_000_000);
    expect(quantumOf('1.5L', 100_000)).toBe('Must be a whole number of bonds (₹1 L each)');
    expect(quantumOf('five')).toBe('Enter a size such as 5cr, 50L or 5,00,00,000');
  });

  it('asks for a bond and checks counterparty ids', () => {
    expect(buildQuotePayload({ ...valid, finstrumentId: null })).toEqual({ ok: false, errors: { finstrumentId: 'Choose a bond.' } });
    expect(buildQuotePayload({ ...valid, counterparties: ['not-an-id'] })).toEqual({
      ok: false,
      errors: { counterparties: 'Should be a client id.' },
    });
  });

  it('maps server field paths to ticket fields', () => {
    expect(formFieldOf('yield_stored')).toBe('value');
    expect(formFieldOf('settlement')).toBe('settlementDelta');
    expect(formFieldOf('non_field_errors')).toBe('form');
    expect(parsePricingText('yield', '7.25')).toEqual({ value: 0.0725 });
  });
});

describe('a refused quote', () => {
  it('puts each server field error under its field and the rest above the form', () => {
    const refused = new HttpError(400, {
      code: 'VALIDATION_FAILED',
      message: 'Invalid',
      errors: { yield_stored: ['Too high.'], counterparties: ['Unknown counterparty.'], 'data.other': ['Odd.'] },
    });
    expect(quoteErrorsOf(refused)).toEqual({ value: 'Too high.', counterparties: 'Unknown counterparty.', form: 'Odd.' });
    expect(quoteErrorsOf(new HttpError(409, { code: 'CONFLICT', message: 'Already closed.' }))).toEqual({ form: 'Already closed.' });
  });
});
