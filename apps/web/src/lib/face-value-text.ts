/** A size typed in a field (issue 12 §1): what it reads as, for the live line beneath size inputs. */
import { checkFaceValue, FACE_VALUE_MESSAGES, formatBondCount, formatFaceValue } from '@dart/contracts';

/** What a size field shows beneath itself while the user types (issue 12 §1). */
export type FaceValueReading =
  | { kind: 'empty' }
  | { kind: 'read'; rupees: number; text: string }
  /** `blocking`: a definite refusal (negative, zero, 12 digits, part of a bond); else text that may still become a size. */
  | { kind: 'refused'; message: string; blocking: boolean };

/** Reads a typed size: `5cr` → '₹5 Cr · 5,00,000 bonds' (with the bond's face value per bond), or why it is refused. */
export function describeFaceValueText(text: string, perBond?: number): FaceValueReading {
  if (text.trim() === '') return { kind: 'empty' };
  const check = checkFaceValue(text, perBond);
  if (check.ok)
    return {
      kind: 'read',
      rupees: check.rupees,
      text: perBond ? `${formatFaceValue(check.rupees)} · ${formatBondCount(check.rupees / perBond)}` : formatFaceValue(check.rupees),
    };
  return { kind: 'refused', message: check.message, blocking: check.message !== FACE_VALUE_MESSAGES.unreadable };
}
