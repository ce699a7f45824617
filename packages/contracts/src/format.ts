/** Display formatting shared by web and server documents. */

/** Indian digit grouping (12,34,56,789.00) with optional decimals. */
export function formatIndianNumber(value: number, fractionDigits = 2): string {
  return new Intl.NumberFormat('en-IN', {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(value);
}

/** Rupees with Indian grouping: ₹12,34,567.89. */
export function formatRupees(value: number, fractionDigits = 2): string {
  return `₹${formatIndianNumber(value, fractionDigits)}`;
}

/** Compact lakh/crore: ₹1.25 Cr, ₹50.00 L, else full rupees. */
export function formatRupeesCompact(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e7) return `₹${formatIndianNumber(value / 1e7, 2)} Cr`;
  if (abs >= 1e5) return `₹${formatIndianNumber(value / 1e5, 2)} L`;
  return formatRupees(value);
}

/** mm/dd/yy, the spec's default date format, from an ISO date or timestamp. */
export function formatDateDefault(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!match) return iso;
  return `${match[2]}/${match[3]}/${match[1]!.slice(2)}`;
}
