/**
 * Market (issue 5): quote ticket, public runs blotter, private runs, negotiations, matches and deals
 * on the /dart workspace, live over the session's `ws/trade/d/` socket; and, for other features' screens
 * (composed by a route), the private run form with fixed counterparties and the Counter button.
 */
export { MarketWorkspace } from './components/market-workspace';
export { PrivateRunForm } from './components/private-run-form';
export { CounterpartyPicker } from './components/counterparty-picker';
export { QuoteCounterButton } from './components/quote-counter-button';
export { onTicketRequest, requestPrivateRunTicket } from './stores/selected-bond';
export { RaiseRfqButton, RaiseRfqDialog } from './components/raise-rfq-dialog';
export type { RaiseRfqButtonProps, RaiseRfqDialogProps } from './components/raise-rfq-dialog';
export type { MarketSlots, PickedBond, PricingSlotProps } from './components/market-slots';
export type { PrivateRunFirm, PrivateRunFormProps } from './components/private-run-form';
