/**
 * Size as the Indian bond market speaks it (issue 12 §1): the wire field `quantum` is the FACE VALUE IN
 * RUPEES (a positive whole number of rupees, at most 12 digits), not a number of bonds. A size must be a
 * whole number of bonds: `quantum % faceValuePerBond(bond) === 0`.
 *
 * Entered with lakh/crore shorthand (`5cr`, `5 Cr`, `5 crore`, `50L`, `50 lakh`, `2.5cr`, `10k`,
 * `5,00,00,000`, `₹5 Cr`) and shown as `₹5 Cr` / `₹50 L` / `₹75,000` with the bond count beside it
 * (`5,00,000 bonds`). Server and web both use these helpers; nobody parses sizes by hand.
 */
import { MESSAGES } from './validation';

/** The largest quantum (spec §5 "max 12 digits"): ₹99,999.99 Cr less a rupee. */
export const QUANTUM_MAX_RUPEES = 999_999_999_999;

/**
 * RBI issues these in units of ₹100 face value, whatever a data file says: a G-sec, SDL or T-bill
 * (and STRIPS and FRBs, which are G-secs) trades in multiples of ₹100.
 */
export const SOVEREIGN_SECURITY_TYPES = ['G-Sec', 'SDL', 'T-Bill', 'G-Sec STRIPS', 'G-Sec FRB'] as const;
export const SOVEREIGN_FACE_VALUE_PER_BOND = 100;
/**
 * Face value per bond when the data has none (or a non-positive one) for a non-sovereign bond: ₹100,
 * the unit the prices are quoted per (the importer already fills the market-standard face value of
 * NCDs, CPs and CDs where the files leave it blank, so this only meets SGBs, security receipts and
 * the like). The smallest sensible unit: it never refuses a size a larger unit would allow.
 */
export const DEFAULT_FACE_VALUE_PER_BOND = 100;

/** Crore = 1,00,00,000; lakh = 1,00,000; thousand = 1,000 (powers of ten). */
const UNIT_EXPONENTS: Record<string, number> = {
  cr: 7,
  crs: 7,
  crore: 7,
  crores: 7,
  c: 7,
  l: 5,
  lk: 5,
  lac: 5,
  lacs: 5,
  lakh: 5,
  lakhs: 5,
  k: 3,
  thousand: 3,
};

export const FACE_VALUE_MESSAGES = {
  required: MESSAGES.required,
  cannotBeNegative: MESSAGES.cannotBeNegative,
  max12Digits: MESSAGES.max12Digits,
  cannotBeZero: MESSAGES.cannotBeZero,
  unreadable: 'Enter a size such as 5cr, 50L or 5,00,00,000',
  wholeRupees: 'Should be a whole number of rupees',
  /** `Must be a whole number of bonds (₹1 L each)`. */
  wholeBonds: (perBond: number) => `Must be a whole number of bonds (${formatFaceValue(perBond)} each)`,
} as const;

/** The bond fields that decide its face value per bond (the wire's snake_case names). */
export interface FaceValueBond {
  readonly security_type?: string | null | undefined;
  readonly face_value?: number | null | undefined;
}

/**
 * Rupees of face value in one bond: ₹100 for the sovereign types, else the bond's own `face_value`
 * (₹1 L, ₹10 L, ₹1 Cr … as in the data), else {@link DEFAULT_FACE_VALUE_PER_BOND}.
 */
export function faceValuePerBond(bond: FaceValueBond): number {
  if (bond.security_type && (SOVEREIGN_SECURITY_TYPES as readonly string[]).includes(bond.security_type))
    return SOVEREIGN_FACE_VALUE_PER_BOND;
  const faceValue = bond.face_value;
  return typeof faceValue === 'number' && Number.isFinite(faceValue) && faceValue > 0 ? faceValue : DEFAULT_FACE_VALUE_PER_BOND;
}

/** Number of bonds in a size: `quantum` ₹ ÷ `perBond` ₹ (fractional when not a whole number of bonds). */
export function bondCount(quantum: number, perBond: number): number {
  return quantum / perBond;
}

/** True when `quantum` rupees is a whole, positive number of bonds of `perBond` rupees each. */
export function isWholeBonds(quantum: number, perBond: number): boolean {
  if (!(perBond > 0) || !(quantum > 0)) return false;
  if (Number.isInteger(quantum) && Number.isInteger(perBond)) return quantum % perBond === 0;
  // A face value in paise (rare in the data): the tolerance only absorbs binary rounding of the division.
  const count = quantum / perBond;
  return Math.abs(count - Math.round(count)) < 1e-7;
}

/**
 * Reads a size typed by a user or a file: `5cr`, `5 Cr`, `5 crore`, `50L`, `50 lakh`, `2.5cr`, `10k`,
 * `5,00,00,000` (Indian or international grouping), `500000000`, `₹5 Cr`, `Rs 50 L`. A number is taken
 * as rupees. `m`/`mn`/`bn` are refused: the Indian market speaks lakh and crore, and "5m" is too easily
 * misread.
 * @returns whole rupees of face value, or null for garbage, a negative or zero size, a fraction of a
 * rupee, or more than 12 digits. {@link checkFaceValue} says which.
 */
export function parseFaceValue(text: string | number): number | null {
  const read = readFaceValue(text);
  return read.ok ? read.rupees : null;
}

export type FaceValueCheck = { ok: true; rupees: number } | { ok: false; message: string };

/**
 * Parses a size and checks it against the spec's rules (§5: required, not negative, not zero, max 12
 * digits) and, given the bond's `perBond`, the whole-bond rule, with the message to show.
 */
export function checkFaceValue(text: string | number | null | undefined, perBond?: number): FaceValueCheck {
  if (text === null || text === undefined || (typeof text === 'string' && text.trim() === ''))
    return { ok: false, message: FACE_VALUE_MESSAGES.required };
  const read = readFaceValue(text);
  if (!read.ok) {
    if (read.message === FACE_VALUE_MESSAGES.wholeRupees && perBond !== undefined)
      return { ok: false, message: FACE_VALUE_MESSAGES.wholeBonds(perBond) };
    return read;
  }
  if (perBond !== undefined && !isWholeBonds(read.rupees, perBond)) return { ok: false, message: FACE_VALUE_MESSAGES.wholeBonds(perBond) };
  return read;
}

/**
 * The error of a wire `quantum` (rupees, already a number) for a bond of `perBond` rupees, or null when
 * it is valid. The spec's order: negative, zero, 12 digits, then whole rupees and whole bonds.
 */
export function quantumError(quantum: number, perBond?: number): string | null {
  if (!Number.isFinite(quantum)) return MESSAGES.shouldBeNumber;
  if (quantum < 0) return FACE_VALUE_MESSAGES.cannotBeNegative;
  if (quantum === 0) return FACE_VALUE_MESSAGES.cannotBeZero;
  if (quantum > QUANTUM_MAX_RUPEES) return FACE_VALUE_MESSAGES.max12Digits;
  if (!Number.isInteger(quantum)) return perBond === undefined ? FACE_VALUE_MESSAGES.wholeRupees : FACE_VALUE_MESSAGES.wholeBonds(perBond);
  if (perBond !== undefined && !isWholeBonds(quantum, perBond)) return FACE_VALUE_MESSAGES.wholeBonds(perBond);
  return null;
}

const SIZE_PATTERN = /^(-)?(\d[\d,]*|\d*\.\d+|\d[\d,]*\.\d*)\s*([a-z]*)$/;
const GROUPED_INDIAN = /^\d{1,2}(,\d{2})*,\d{3}$/;
const GROUPED_INTERNATIONAL = /^\d{1,3}(,\d{3})+$/;

function readFaceValue(input: string | number): FaceValueCheck {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, message: FACE_VALUE_MESSAGES.unreadable };
    const error = quantumError(input);
    return error ? { ok: false, message: error } : { ok: true, rupees: input };
  }
  const text = input
    .trim()
    .toLowerCase()
    .replace(/^(₹|rs\.?|inr)\s*/, '')
    .trim();
  const match = SIZE_PATTERN.exec(text);
  if (!match) return { ok: false, message: FACE_VALUE_MESSAGES.unreadable };
  const [, minus, numberText = '', unitText = ''] = match;
  const exponent = unitText === '' ? 0 : UNIT_EXPONENTS[unitText];
  if (exponent === undefined) return { ok: false, message: FACE_VALUE_MESSAGES.unreadable };
  const [integerGrouped = '', fraction = ''] = numberText.split('.');
  if (integerGrouped.includes(',') && !GROUPED_INDIAN.test(integerGrouped) && !GROUPED_INTERNATIONAL.test(integerGrouped))
    return { ok: false, message: FACE_VALUE_MESSAGES.unreadable };
  const integerDigits = integerGrouped.replace(/,/g, '');
  // Decimal arithmetic on the digits: 2.5cr is exactly 2,50,00,000, never 24999999.999….
  const shifted = fraction.padEnd(exponent, '0');
  const wholeDigits = (integerDigits + shifted.slice(0, exponent)).replace(/^0+(?=\d)/, '') || '0';
  const leftover = shifted.slice(exponent);
  if (minus && /[1-9]/.test(wholeDigits + leftover)) return { ok: false, message: FACE_VALUE_MESSAGES.cannotBeNegative };
  if (/^0*$/.test(wholeDigits) && /^0*$/.test(leftover)) return { ok: false, message: FACE_VALUE_MESSAGES.cannotBeZero };
  if (wholeDigits.length > 12) return { ok: false, message: FACE_VALUE_MESSAGES.max12Digits };
  if (/[1-9]/.test(leftover)) return { ok: false, message: FACE_VALUE_MESSAGES.wholeRupees };
  return { ok: true, rupees: Number(wholeDigits) };
}

const groupIndian = (value: number, maxFractionDigits: number) =>
  new Intl.NumberFormat('en-IN', { minimumFractionDigits: 0, maximumFractionDigits: maxFractionDigits }).format(value);

/** `abs` ÷ `unit` cut (not rounded) to 2 decimals, so a shown size never overstates the real one. */
const hundredthsOf = (abs: number, unit: number) => Math.floor(abs / (unit / 100)) / 100;

/**
 * A face value for display: `₹5 Cr`, `₹2.5 Cr`, `₹1,250 Cr`, `₹50 L`, `₹1.5 L`, `₹75,000` (Indian
 * grouping below a lakh). At most 2 decimals, no trailing zeros; cut (not rounded) to 2 decimals, so
 * ₹9,99,99,999 shows as `₹9.99 Cr` (the bond count beside it is exact).
 * @param rupees face value in rupees
 */
export function formatFaceValue(rupees: number): string {
  if (!Number.isFinite(rupees)) return '—';
  const sign = rupees < 0 ? '-' : '';
  const abs = Math.abs(rupees);
  if (abs >= 1e7) return `${sign}₹${groupIndian(hundredthsOf(abs, 1e7), 2)} Cr`;
  if (abs >= 1e5) return `${sign}₹${groupIndian(hundredthsOf(abs, 1e5), 2)} L`;
  return `${sign}₹${groupIndian(hundredthsOf(abs, 1), 2)}`;
}

/** `5,00,000 bonds`, `1 bond`, `1.5 bonds` (Indian grouping, at most 2 decimals). */
export function formatBondCount(count: number): string {
  return `${groupIndian(count, 2)} ${count === 1 ? 'bond' : 'bonds'}`;
}

/** `₹5 Cr · 5,00,000 bonds`: a size and its bond count on one line. */
export function formatSizeWithBonds(quantum: number, perBond: number): string {
  return `${formatFaceValue(quantum)} · ${formatBondCount(bondCount(quantum, perBond))}`;
}
