/**
 * Market (issue 5): quote ticket, public runs blotter, private runs, negotiations, matches and deals
 * on the /dart workspace, live over the session's `ws/trade/d/` socket.
 */
export { MarketWorkspace } from './components/market-workspace';
export type { MarketSlots, PickedBond, PricingSlotProps } from './components/market-slots';
