/** What the pricing panel last priced, as the security page passes it to the quote sheet and the report-issue modal. */
export interface PricingDetails {
  fixedField: 'yield' | 'price';
  cleanPrice: number | null;
  /** Fraction (0.0718). */
  bondYield: number | null;
  settlementDelta: number;
  settlementDate: string | null;
  quantity: number;
  total: number | null;
}

/** The quote-sheet request: the fixed value only (yield xor price), 6/4 decimals as on the pricing call. */
export function quoteRequestFor(details: PricingDetails | null) {
  if (!details) return {};
  const base = { settlement_delta: details.settlementDelta as 0 | 1 | 2, quantity: details.quantity };
  if (details.fixedField === 'price' && details.cleanPrice !== null) return { ...base, price: Number(details.cleanPrice.toFixed(4)) };
  if (details.bondYield !== null) return { ...base, yield: Number(details.bondYield.toFixed(6)) };
  return base;
}

/** The lines the report-issue message carries when the user consents to share the pricing details. */
export function describePricingDetails(details: PricingDetails): string {
  return [
    `Priced by: ${details.fixedField}`,
    `Clean price: ${details.cleanPrice === null ? 'NA' : details.cleanPrice.toFixed(4)}`,
    `Yield: ${details.bondYield === null ? 'NA' : `${(details.bondYield * 100).toFixed(4)}%`}`,
    `Settlement: T+${details.settlementDelta}${details.settlementDate ? ` (${details.settlementDate})` : ''}`,
    `Quantity: ${details.quantity} units`,
    `Total consideration: ${details.total === null ? 'NA' : `₹${details.total.toFixed(2)}`}`,
  ].join('\n');
}
