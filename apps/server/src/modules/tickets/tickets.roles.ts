/**
 * Who the reader is on a ticket and what it may do: the `by` of each edge of `TICKET_TRANSITIONS`
 * (creator / counterparty / principal / price_setter) resolved against the reader's firm, with the spec's
 * seller-or-buyer's-broker rule (`isSellerOrBuyerBroker`). README "Who may act" states the same rules.
 */
import { isSellerOrBuyerBroker, TICKET_MESSAGES, TICKET_TRANSITIONS, type TicketHistoryAction, type TicketState } from '@dart/contracts';
import { AppError } from '../../lib/errors';
import { nextTicketState, type TicketRow } from './ticket-transitions';

export type TicketSide = 'buyer' | 'seller';

export interface TicketReader {
  userId: string;
  clientId: string;
  /** False for view-only users (viewer, compliance) and users without trade access: they read, never act. */
  canWrite: boolean;
}

/** Actions a user takes through a call (the system's own edges — confirmed, reported… — are not listed). */
const USER_ACTIONS: ReadonlySet<TicketHistoryAction> = new Set([
  'send',
  'price',
  'edit',
  'members',
  'send_to_broker',
  'brokerage',
  'accept_consideration',
  'reject',
  'cancel',
]);

export const isParticipant = (t: TicketRow, clientId: string): boolean =>
  [t.buyerClientId, t.sellerClientId, t.buyerBrokerClientId, t.sellerBrokerClientId].includes(clientId);

/** The side whose principal firm the reader's firm is (not through a broker), or null. */
export function principalSideOf(t: TicketRow, clientId: string): TicketSide | null {
  if (t.buyerClientId === clientId) return 'buyer';
  if (t.sellerClientId === clientId) return 'seller';
  return null;
}

/** The sides the reader's firm acts for: as the principal, or as the broker working that side. */
export function sidesOf(t: TicketRow, clientId: string): TicketSide[] {
  const out: TicketSide[] = [];
  if (t.buyerClientId === clientId || t.buyerBrokerClientId === clientId) out.push('buyer');
  if (t.sellerClientId === clientId || t.sellerBrokerClientId === clientId) out.push('seller');
  return out;
}

/** Whether the reader's firm is a broker on the ticket. */
export const isBrokerOn = (t: TicketRow, clientId: string): boolean =>
  t.buyerBrokerClientId === clientId || t.sellerBrokerClientId === clientId;

/** The ticket in the shape of the spec's rule (`seller_details`, `broker_details` with buy/sell flags). */
export function ruleShape(t: TicketRow) {
  const brokers: Array<{ user_id: string | null; client_id: string; buy_or_sell: 'buy' | 'sell' }> = [];
  if (t.buyerBrokerClientId) brokers.push({ user_id: t.buyerBrokerUserId, client_id: t.buyerBrokerClientId, buy_or_sell: 'buy' });
  if (t.sellerBrokerClientId) brokers.push({ user_id: t.sellerBrokerUserId, client_id: t.sellerBrokerClientId, buy_or_sell: 'sell' });
  return { seller_details: { user_id: t.sellerUserId, client_id: t.sellerClientId }, broker_details: brokers };
}

/** spec §3: the seller or the buyer's broker (they quote the price and see the ticket as a sale). */
export const isPriceSetter = (t: TicketRow, reader: Pick<TicketReader, 'userId' | 'clientId'>): boolean =>
  isSellerOrBuyerBroker(ruleShape(t), { user_id: reader.userId, client_id: reader.clientId });

/** Sides the reader acts for that have not accepted the consideration yet. */
export const sidesToAccept = (t: TicketRow, clientId: string): TicketSide[] =>
  sidesOf(t, clientId).filter((side) => (side === 'buyer' ? t.buyerAcceptedAt === null : t.sellerAcceptedAt === null));

/**
 * Why the reader may not take `action` in the ticket's current state (a 403 message), or null when it may.
 * The state itself is checked by `assertMayAct` first (409 naming the state).
 */
export function refusalOf(t: TicketRow, reader: TicketReader, action: TicketHistoryAction): string | null {
  const edge = TICKET_TRANSITIONS[t.state as TicketState]?.[action];
  if (!edge || !USER_ACTIONS.has(action)) return TICKET_MESSAGES.notYourTurn;
  // Managing the brokers of a side is the principal firm's own business, not its broker's.
  if (action === 'send_to_broker' || action === 'members') return principalSideOf(t, reader.clientId) ? null : TICKET_MESSAGES.notYourTurn;
  // Brokerage is what a broker charges its principal: only a broker on the ticket sets it.
  if (action === 'brokerage') return isBrokerOn(t, reader.clientId) ? null : TICKET_MESSAGES.brokerOnly;
  if (action === 'accept_consideration' && sidesOf(t, reader.clientId).length > 0 && sidesToAccept(t, reader.clientId).length === 0)
    return TICKET_MESSAGES.alreadyAccepted;
  switch (edge.by) {
    case 'creator':
      return t.createdByClientId === reader.clientId ? null : TICKET_MESSAGES.notYourTurn;
    case 'counterparty': {
      const sides = sidesOf(t, reader.clientId);
      if (sides.length === 0) return TICKET_MESSAGES.notYourTurn;
      // A manual ticket's counterparty is the other side from its creator; a deal's ticket has no creator and
      // either side of the trade may refuse it.
      if (!t.createdByClientId) return null;
      const creatorSides = sidesOf(t, t.createdByClientId);
      return sides.some((s) => !creatorSides.includes(s)) ? null : TICKET_MESSAGES.notYourTurn;
    }
    case 'principal':
      return sidesOf(t, reader.clientId).length > 0 ? null : TICKET_MESSAGES.notYourTurn;
    case 'price_setter':
      return isPriceSetter(t, reader) ? null : TICKET_MESSAGES.priceSetterOnly;
    case 'system':
      return TICKET_MESSAGES.notYourTurn;
  }
}

/**
 * Refuses an action: 409 naming the state when the machine has no such edge, 409 `alreadyAccepted` for a
 * second accept of the same side, 403 when the reader's role on the ticket may not take it.
 */
export function assertMayAct(t: TicketRow, reader: TicketReader, action: TicketHistoryAction): void {
  nextTicketState(t.state as TicketState, action);
  const refusal = refusalOf(t, reader, action);
  if (refusal === TICKET_MESSAGES.alreadyAccepted) throw new AppError('CONFLICT', refusal);
  if (refusal) throw new AppError('FORBIDDEN', refusal);
}

/** What the reader may do now (the ticket's `my_actions`): none for a view-only reader. */
export function myActions(t: TicketRow, reader: TicketReader): TicketHistoryAction[] {
  if (!reader.canWrite) return [];
  const edges = TICKET_TRANSITIONS[t.state as TicketState] ?? {};
  return (Object.keys(edges) as TicketHistoryAction[]).filter(
    (action) => USER_ACTIONS.has(action) && refusalOf(t, reader, action) === null,
  );
}

/** The `needs_action` rule of the list (README "Needing my action"), for one ticket. */
export function needsAction(t: TicketRow, clientId: string): boolean {
  if (t.state === 'draft') return t.createdByClientId === clientId;
  if (t.state === 'sent') return t.sellerClientId === clientId || t.buyerBrokerClientId === clientId;
  if (t.state === 'priced') return sidesToAccept(t, clientId).length > 0;
  return false;
}
