/**
 * Money in integer paise (₹1 = 100 paise). Amounts are rounded half-up (half away
 * from zero) to the paisa, as the published worked examples do: 10,000 × 10.71 % ×
 * 47/360 = 139.825 is shown as ₹139.83 (doc §1 [S19]).
 */

/**
 * Rounds an amount of rupees half-up to whole paise.
 * Binary floating point cannot hold 139.825 exactly (it is 139.82499999…), so the
 * amount is first snapped to 15 significant decimal digits (the precision a double
 * carries) and only then rounded; a true half-paisa therefore rounds up.
 * @param rupees - amount in ₹ (may be negative).
 * @returns integer paise.
 */
export function roundRupeesToPaise(rupees: number): number {
  const paise = Number((rupees * 100).toPrecision(15));
  const rounded = Math.floor(Math.abs(paise) + 0.5);
  return paise < 0 ? -rounded : rounded;
}

/** Formats integer paise as rupees with two decimals, e.g. 1233883 → "12338.83". */
export function formatPaise(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const absolute = Math.abs(paise);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}
