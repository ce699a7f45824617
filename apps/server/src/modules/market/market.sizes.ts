/**
 * Sizes in the market (issue 12 §1): `quantum` is FACE VALUE IN RUPEES, a whole number of bonds of the
 * bond's face value per bond (packages/contracts/src/face-value.ts). Bond-math prices a number of units
 * (bonds), so the consideration is priced for `quantum ÷ face value per bond` units.
 */
import { faceValuePerBond, quantumError } from '@dart/contracts';
import { fieldError } from '../../lib/errors';

/** The finstrument columns that decide the face value per bond. */
export interface BondSizeTerms {
  securityType: string;
  faceValue: number | null;
}

/** Rupees of face value in one bond of `bond`. */
export const perBondOf = (bond: BondSizeTerms): number =>
  faceValuePerBond({ security_type: bond.securityType, face_value: bond.faceValue });

/** The spec's §5 refusal or the whole-bond one for a size, as a 400 field error on `field`. */
export function assertSize(quantum: number, bond: BondSizeTerms, field = 'quantum'): void {
  const error = quantumError(quantum, perBondOf(bond));
  if (error) throw fieldError(field, error);
}

/** The number of bonds (bond-math "units") in a size: what the consideration is priced for. */
export const unitsIn = (quantum: number, bond: BondSizeTerms): number => quantum / perBondOf(bond);
