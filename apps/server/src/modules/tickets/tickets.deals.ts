/**
 * One ticket per deal, written INSIDE the deal's transaction through the market's `onDealRecorded` hook: a
 * deal and its ticket commit or roll back together. A deal's ticket starts `sent` (the terms are agreed; the
 * seller or the buyer's broker confirms the price), from the deal's own bond-math consideration.
 *
 * Its live `trade.refresh_tickets` events are appended and published after the deal commits (the market's
 * `onDeal`): appended inside the hook they would take outbox positions BELOW the deal's own events, which are
 * published first, and the live gateway drops a position a socket has already passed. A node that stops
 * between the deal's commit and that append loses only the notification; the ticket is there on the next read.
 */
import type { Tx } from '../../db/client';
import type { AuditContext } from '../../lib/audit';
import { appendEvents, publishAll, type DomainEvent } from '../../lib/events';
import type { AppDeps } from '../../types';
import type { DealRecordedHook, DealRow } from '../market';
import { appendTicketHistory, ticketEventsFor, type TicketRow } from './ticket-transitions';
import { createTicketsRepository } from './tickets.repository';
import { pricingFromConsideration, type TicketPricing } from './tickets.pricing';

export const SYSTEM_AUDIT: AuditContext = { actorEmail: 'system:post-trade' };
/** A hook's ticket waits this long for its deal's commit; a deal rolled back never commits and is dropped. */
const PENDING_TTL_MS = 60_000;

export const clearingCorporationOf = (exchange: string) => (exchange === 'BSE' ? 'ICCL' : 'NSCCL');

/** The pricing columns of a deal's ticket from the deal's bond-math consideration (null when it has none). */
export function dealPricing(deal: DealRow): TicketPricing | null {
  const details = deal.considerationDetails as
    { accrued_days: number; principal: number; accrued_interest: number; consideration: number; stamp_duty: number } | null | undefined;
  if (!details || typeof details.consideration !== 'number') return null;
  return pricingFromConsideration(details, {
    price: deal.price,
    yieldFraction: deal.yieldFraction,
    quantum: deal.quantum,
    settlementDate: deal.settlementDate,
  });
}

/**
 * Writes the ticket of a deal in `tx` (state `sent`, history `created`), or answers null when the deal
 * already has one. The source is the deal's origin: an exchange RFQ leg, a cluster, or a negotiation.
 */
export async function insertDealTicket(tx: Tx, deal: DealRow, pricing: TicketPricing, audit: AuditContext): Promise<TicketRow | null> {
  const repo = createTicketsRepository(tx);
  const legs = await repo.dealLegs([deal.bidQuoteId, deal.askQuoteId].filter((id): id is string => !!id));
  const exchangeLeg = legs.find((l) => l.exchange);
  const exchange = exchangeLeg?.exchange ?? (legs.some((l) => l.clearingCorporation === 'ICCL') ? 'BSE' : 'NSE');
  const source = exchangeLeg ? 'exchange_rfq' : deal.clusterId ? 'cluster' : deal.negotiationId ? 'negotiation' : 'deal';
  const ticket = await repo.insert({
    dealId: deal.id,
    source,
    state: 'sent',
    finstrumentId: deal.finstrumentId,
    buyerClientId: deal.buyerClientId,
    buyerUserId: deal.buyerUserId,
    sellerClientId: deal.sellerClientId,
    sellerUserId: deal.sellerUserId,
    ...pricing,
    exchange,
    clearingCorporation: clearingCorporationOf(exchange),
    tradedAt: deal.createdAt,
  });
  if (!ticket) return null;
  await appendTicketHistory(tx, ticket, {
    action: 'created',
    fromState: null,
    toState: 'sent',
    audit,
    changes: { deal_id: deal.id, source, price: ticket.price, quantum: ticket.quantum, settlement_date: ticket.settlementDate },
    reason: null,
  });
  return ticket;
}

/** The hook handed to `market.onDealRecorded`, and the after-commit step handed to `market.onDeal`. */
export function createDealTickets(deps: AppDeps, log: { warn: (obj: object, msg: string) => void }) {
  const { database, bus } = deps;
  const pending = new Map<string, { at: number; ticket: TicketRow }>();

  const hook: DealRecordedHook = async (tx, deal) => {
    const pricing = dealPricing(deal);
    // A deal without a consideration (never seen: the market prices every deal) gets its ticket from
    // `POST api/chatter/trade/`, priced outside a transaction.
    if (!pricing) return;
    const ticket = await insertDealTicket(tx, deal, pricing, SYSTEM_AUDIT);
    if (!ticket) return;
    const now = Date.now();
    for (const [id, entry] of pending) if (now - entry.at > PENDING_TTL_MS) pending.delete(id);
    pending.set(deal.id, { at: now, ticket });
  };

  /** After the deal's commit: the ticket's live events, appended to the outbox and published. */
  async function dealCommitted(dealId: string): Promise<void> {
    const entry = pending.get(dealId);
    if (!entry) return;
    pending.delete(dealId);
    const events: DomainEvent[] = ticketEventsFor(entry.ticket, 'created', false);
    const messages = await database.db.transaction((tx) => appendEvents(tx, events));
    await publishAll(bus, messages);
  }

  return {
    hook,
    onDealCommitted(dealId: string): void {
      void dealCommitted(dealId).catch((error: unknown) =>
        log.warn({ err: { message: (error as Error).message }, dealId }, "a deal ticket's live events could not be published"),
      );
    },
  };
}
