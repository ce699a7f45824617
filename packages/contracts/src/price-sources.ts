/**
 * Where a reference price or a trade row comes from (the importer's `source` / `kind` codes), and the
 * words users read for each. Every screen that shows a source goes through `priceSourceLabel`, so no
 * raw code (MF_VALUATION) reaches a user.
 */
export const PRICE_SOURCES = ['NSE_CM_CLOSE', 'NSE_OTC_TRADE', 'MF_VALUATION', 'MATRIX'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

export const PRICE_SOURCE_LABELS: Record<PriceSource, string> = {
  NSE_CM_CLOSE: 'NSE closing price',
  NSE_OTC_TRADE: 'NSE reported OTC trades',
  MF_VALUATION: 'Mutual-fund valuation',
  MATRIX: 'Matrix price (G-sec curve + rating spread)',
};

const isPriceSource = (code: string): code is PriceSource => (PRICE_SOURCES as readonly string[]).includes(code);

/**
 * The readable name of a price-source code. A code added to the data before it is added here is
 * still shown as words ('NEW_FEED' → 'New feed'), never as the code; no source reads 'Not available'.
 */
export function priceSourceLabel(code: string | null | undefined): string {
  if (code === null || code === undefined || code.trim() === '') return 'Not available';
  const trimmed = code.trim();
  if (isPriceSource(trimmed)) return PRICE_SOURCE_LABELS[trimmed];
  const words = trimmed.replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
