import type { ReactNode } from 'react';
import type { FixedField } from '../utils/quote-form';

/** A bond picked in the ticket's search. */
export interface PickedBond {
  id: number;
  label: string;
  isin: string;
}

/** What the ticket and the counter form give the pricing input (Yield/Price select, other value shown). */
export interface PricingSlotProps {
  finstrumentId: number;
  settlementDelta: 0 | 1 | 2;
  fixedField: FixedField;
  value: string;
  onValueChange: (value: string) => void;
  onFixedFieldChange: (field: FixedField) => void;
  error?: string | null;
  /** Fill the field with the bond's reference value when it is empty. */
  prefill?: boolean;
}

/**
 * Inputs other features own (a feature never imports another, STYLE practice 2): the route passes
 * the bond search box of `find` and the pricing input of `pricing`.
 */
export interface MarketSlots {
  renderBondSearch: (onSelect: (bond: PickedBond) => void) => ReactNode;
  renderPricing: (props: PricingSlotProps) => ReactNode;
  /** The 402 state's action in Premium panels (market depth): the support feature's 'Request Upgrade'. */
  renderUpgrade?: (page: string) => ReactNode;
}
