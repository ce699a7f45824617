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
  const raw = rupees * 100;
  const magnitude = Math.abs(raw);
  // Snapping moves an amount by at most half a unit of its 15th significant digit (≤ 0.5e-14 × the amount, plus
  // the decimal's conversion back, far below it): it can change the result only when the amount lies that close
  // to a half paisa, so any other amount is rounded as it is, without formatting a string (a valued book of
  // 10,000 holdings rounds 20,000 amounts). Both ways give the same integer (`[MN2]` in the tests compares them).
  if (Math.abs(magnitude - Math.floor(magnitude) - 0.5) > magnitude * 2e-14) {
    const rounded = Math.floor(magnitude + 0.5);
    return raw < 0 ? -rounded : rounded;
  }
  const paise = Number(raw.toPrecision(15));
  const rounded = Math.floor(Math.abs(paise) + 0.5);
  return paise < 0 ? -rounded : rounded;
}

/** Formats integer paise as rupees with two decimals, e.g. 1233883 → "12338.83". */
export function formatPaise(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const absolute = Math.abs(paise);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}
