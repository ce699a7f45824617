/**
 * Inventory (issue 14, `/inventory`): the firm's bond book valued on the reference price waterfall, grouped in an
 * AG Grid with its totals row, the maturity profile and breakdowns, the cash-flow calendar, and the book's writes
 * (upload, valuation cost, offer, external trade, the daily confirmation).
 */
export { InventoryPage } from './components/inventory-page';
export type { InventoryPageProps } from './components/inventory-page';
export type { CounterpartySlot } from './components/offer-dialog';
