import type { ReactNode } from 'react';

/** A bond picked in the manual ticket's search. */
export interface TicketBond {
  id: number;
  label: string;
  isin: string;
}

/** What the manual ticket and the price form give the pricing input (Yield/Price select, the other value shown). */
export interface TicketPricingProps {
  finstrumentId: number;
  settlementDelta: 0 | 1 | 2;
  fixedField: 'yield' | 'price';
  value: string;
  onValueChange: (value: string) => void;
  onFixedFieldChange: (field: 'yield' | 'price') => void;
  error?: string | null;
  /** Fill the field with the bond's reference value when it is empty. */
  prefill?: boolean;
}

/**
 * Inputs other features own (a feature never imports another, STYLE practice 2): the route passes the
 * bond search box of `find` and the pricing input of `pricing`.
 */
export interface TicketsSlots {
  renderBondSearch: (onSelect: (bond: TicketBond) => void) => ReactNode;
  renderPricing: (props: TicketPricingProps) => ReactNode;
}
