/**
 * Tickets (issue 13): the /dart workspace's Ticketing panel (the firm's open tickets, needing-my-action first,
 * with one-click actions and the reporting countdown), the ticket dialog with the full stamped history, and the
 * manual ticket form; kept live by the post-trade topics of `ws/trade/d/`.
 */
export { TicketsWorkspace } from './components/tickets-workspace';
export type { TicketsWorkspaceProps } from './components/tickets-workspace';
export type { TicketBond, TicketPricingProps, TicketsSlots } from './components/tickets-slots';
