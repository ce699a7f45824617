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

/** What a report-issue ticket carries of the last pricing when the user consents to share it (the ticket's extras). */
export function reportedPricingDetails(details: PricingDetails): Record<string, string | number | null> {
  return {
    priced_by: details.fixedField,
    clean_price: details.cleanPrice === null ? null : Number(details.cleanPrice.toFixed(4)),
    yield_percent: details.bondYield === null ? null : Number((details.bondYield * 100).toFixed(4)),
    settlement: `T+${details.settlementDelta}${details.settlementDate ? ` (${details.settlementDate})` : ''}`,
    quantity: details.quantity,
    total_consideration: details.total,
  };
}
