import { describe, expect, it } from 'vitest';
import { PRICE_SOURCES, PRICE_SOURCE_LABELS, priceSourceLabel } from './price-sources';

describe('price-source labels', () => {
  it('names every source code in words', () => {
    expect(priceSourceLabel('MF_VALUATION')).toBe('Mutual-fund valuation');
    expect(priceSourceLabel('NSE_CM_CLOSE')).toBe('NSE closing price');
    expect(priceSourceLabel('NSE_OTC_TRADE')).toBe('NSE reported OTC trades');
    expect(priceSourceLabel('MATRIX')).toBe('Matrix price (G-sec curve + rating spread)');
    for (const code of PRICE_SOURCES) {
      expect(PRICE_SOURCE_LABELS[code]).toBe(priceSourceLabel(code));
      expect(priceSourceLabel(code)).not.toMatch(/[A-Z]{2,}_/);
    }
  });

  it('never shows a raw code, even one it does not know', () => {
    expect(priceSourceLabel('BSE_CLOSE_PRICE')).toBe('Bse close price');
    expect(priceSourceLabel(' NEW-FEED ')).toBe('New feed');
    expect(priceSourceLabel(null)).toBe('Not available');
    expect(priceSourceLabel('')).toBe('Not available');
  });
});
