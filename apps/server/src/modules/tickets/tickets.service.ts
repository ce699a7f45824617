/**
 * Tickets (issue 13; spec §3 Ticket, §7 "Chat and tickets", "Trade"): the calls of one ticket's life. Each
 * write loads the ticket the caller's firm is on (another firm's is 404), checks the `version` it read (409),
 * the state machine (409 naming the state) and who may act (403), prices through bond-math BEFORE writing
 * when terms change, then applies the transition with its history, audit rows and outbox events in ONE statement
 * under the version read (`writeTicketTransitions`; under an Idempotency-Key in a transaction with the key's
 * fence, `recordTicketTransition`); events are published after the write commits.
 */
import {
  CREDENTIAL_MESSAGES,
  evaluateAccess,
  TICKET_MESSAGES,
  TRADE_TIME_LATER_MESSAGE,
  type AccessPolicy,
  type CredentialCorp,
  type ManualTicket,
  type Ticket,
  type TicketAction,
  type TicketEdit,
  type TicketListQuery,
  type TicketPrice,
} from '@dart/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { AuditContext } from '../../lib/audit';
import type { BusMessage } from '../../lib/bus';
import { AppError, fieldError } from '../../lib/errors';
import { appendEvents, publishAll, type DomainEvent } from '../../lib/events';
import { fenceIdempotency, underIdempotencyClaim } from '../../plugins/idempotency';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import type { FinstrumentRow, FinstrumentsService } from '../finstruments';
import { bookedOrdersOf, createOrdersForTicket, ordersBooking, type OrderRow } from '../orders/orders.booking';
import {
  APPENDED_HISTORY,
  appendTicketHistory,
  holdWrites,
  recordTicketTransition,
  recordTicketTransitions,
  ticketEventsFor,
  writeTicketTransitions,
  type TicketRow,
  type TicketStatementExtras,
  type TicketTransition,
  type TicketUpdate,
  TicketWriteMissed,
} from './ticket-transitions';
import { acceptanceGuard, bondGuard, createTicketCache, type Custodian } from './tickets.cache';
import { clearingCorporationOf, dealPricing, insertDealTicket } from './tickets.deals';
import { createTicketsRepository, decodeViewNames, viewNamesColumns, type BondTerms, type ViewNamesRow } from './tickets.repository';
import { createTicketPricing, type TicketPricing } from './tickets.pricing';
import { assertMayAct, isParticipant, principalSideOf, sidesToAccept, type TicketReader } from './tickets.roles';
import { createTicketViews, viewIdsOf } from './tickets.views';

/** Ticket writes: trade access, and never a view-only role (viewer, compliance). */
export const TICKET_WRITE: AccessPolicy = { kind: 'authenticated', permissions: ['client.can_trade'], write: true };

const UNKNOWN_DEAL = 'Unknown deal.';
const NOTHING_TO_CHANGE = 'Nothing to change.';
/** `priced` → a consideration update clears both acceptances (README "Consideration"). */
const CLEARED_ACCEPTANCES: TicketUpdate = {
  buyerAcceptedAt: null,
  buyerAcceptedBy: null,
  buyerCustodianId: null,
  sellerAcceptedAt: null,
  sellerAcceptedBy: null,
  sellerCustodianId: null,
};

const pricingChanges = (before: TicketRow, after: TicketPricing) => {
  const changes: Record<string, unknown> = {};
  if (before.price !== after.price) changes.price = [before.price, after.price];
  if (before.yieldFraction !== after.yieldFraction) changes.yield = [before.yieldFraction, after.yieldFraction];
  if (before.quantum !== after.quantum) changes.quantum = [before.quantum, after.quantum];
  if (before.settlementDate !== after.settlementDate) changes.settlement_date = [before.settlementDate, after.settlementDate];
  if (before.considerationPaise !== after.considerationPaise)
    changes.consideration = [before.considerationPaise / 100, after.considerationPaise / 100];
  return changes;
};

export function createTicketsService(deps: AppDeps, finstruments: FinstrumentsService) {
  const { database, bus } = deps;
  const repo = createTicketsRepository(database.db);
  const views = createTicketViews(database.db, deps.config.productName);
  const pricer = createTicketPricing(finstruments);
  /** Rows this node last read or wrote: an acceptance under one of them skips its read (`tickets.cache.ts`). */
  const kept = createTicketCache();

  /** One transaction: the change, its audit rows and its outbox events; events go out after commit. */
  async function change<T>(fn: (tx: Tx, emit: (event: DomainEvent) => void) => Promise<T>): Promise<T> {
    const pending: DomainEvent[] = [];
    let messages: BusMessage[] = [];
    const result = await database.db.transaction(async (tx) => {
      const value = await fn(tx, (event) => pending.push(event));
      await fenceIdempotency(tx);
      messages = await appendEvents(tx, pending);
      return value;
    });
    await publishAll(bus, messages);
    return result;
  }

  const readerOf = (p: Principal): TicketReader => ({
    userId: p.userId,
    clientId: p.clientId,
    canWrite: evaluateAccess(TICKET_WRITE, p) === 'allow',
  });

  /** The ticket if the caller's firm is on it; another firm's ticket is "not found" (no existence leak). */
  function visibleRow<T extends TicketRow>(p: Principal, t: T | undefined): T {
    if (!t || !isParticipant(t, p.clientId)) throw new AppError('NOT_FOUND', TICKET_MESSAGES.notFound);
    return t;
  }
  async function visible(p: Principal, id: string): Promise<TicketRow> {
    return visibleRow(p, keep(await repo.find(id)));
  }
  function keep<T extends TicketRow | undefined>(row: T): T {
    if (row) kept.keepTicket(row);
    return row;
  }

  /** Refuses, before any pricing: another firm's ticket, a stale version, the state, the caller's role. */
  function actionableRow(p: Principal, found: TicketRow | undefined, action: Parameters<typeof assertMayAct>[2], version: number) {
    const t = visibleRow(p, found);
    if (version !== t.version) throw new AppError('CONFLICT', TICKET_MESSAGES.staleVersion);
    assertMayAct(t, readerOf(p), action);
    return t;
  }
  async function actionable(p: Principal, id: string, action: Parameters<typeof assertMayAct>[2], version: number) {
    return actionableRow(p, keep(await repo.find(id)), action, version);
  }
  /** `actionable`, with the ticket's bond row read in the same statement (a call that re-prices, from that row). */
  async function actionableWithBond(p: Principal, id: string, action: Parameters<typeof assertMayAct>[2], version: number) {
    const found = await repo.findWithBond(id);
    if (found) kept.keepBond(found.ticket.finstrumentId, found.bond, found.bondHash);
    return { t: actionableRow(p, keep(found?.ticket), action, version), bond: found?.bond ?? null };
  }

  /**
   * Applies one transition under the version the caller read (the row read is the one updated: no second read),
   * then answers the ticket as the caller sees it.
   */
  async function apply(
    p: Principal,
    audit: AuditContext,
    t: TicketRow,
    transition: Omit<TicketTransition, 'audit' | 'expectedVersion'>,
  ): Promise<Ticket> {
    const step: TicketTransition = { ...transition, audit, expectedVersion: t.version };
    const alone = await transitionAlone(p, t, [step]);
    if (alone) return alone;
    const row = await change(async (tx, emit) => {
      const result = await recordTicketTransition(tx, t.id, step, { read: t });
      for (const event of result.events) emit(event);
      return result.ticket;
    });
    kept.keepTicket(row);
    return views.one(row, readerOf(p));
  }

  /**
   * A user's transitions of a ticket it read as one statement (`writeTicketTransitions`), events published after
   * it, answered with the caller's view; null under an Idempotency-Key, whose fence must commit with the change:
   * the caller's transaction then. The view's names and whole history come in the same statement
   * (`viewNamesColumns`, one round trip fewer), unless the ticket was confirmed before: its orders may name
   * custodians of their own, so the view reads them after. (A confirmation books its orders with the ticket's
   * custodians, which the statement names.)
   */
  async function transitionAlone(
    p: Principal,
    t: TicketRow,
    steps: readonly TicketTransition[],
    extras?: TicketStatementExtras,
    guard?: SQL,
  ): Promise<Ticket | null> {
    if (underIdempotencyClaim()) return null;
    const named = t.confirmedAt === null;
    const withNames: TicketStatementExtras = (ticket, ticketId) => {
      const also = extras?.(ticket, ticketId) ?? {};
      const names = viewNamesColumns(viewIdsOf([ticket], []), { ticketId: ticket.id, appended: APPENDED_HISTORY });
      return { ...also, columns: also.columns ? sql`${also.columns}, ${names}` : names };
    };
    const { ticket, messages, answer } = await writeTicketTransitions(database.db, t, steps, named ? withNames : extras, guard);
    kept.keepTicket(ticket);
    await publishAll(bus, messages);
    const names = named ? decodeViewNames(answer as unknown as ViewNamesRow) : undefined;
    // A confirmation's answer names the orders it booked, as its statement returned them.
    return views.one(ticket, readerOf(p), true, bookedOrdersOf(answer), names);
  }

  /** A price call's transition: the ticket re-priced through bond-math from the bond's row. */
  async function pricedTransition(p: Principal, t: TicketRow, bond: FinstrumentRow, body: TicketPrice) {
    const pricing = await pricer.price(
      bond,
      {
        quantum: t.quantum,
        ...(body.price !== undefined ? { price: body.price } : { yield: body.yield }),
        settlementDate: t.settlementDate,
      },
      bond,
    );
    const changes = pricingChanges(t, pricing);
    const set: TicketUpdate = { ...pricing, priceConfirmedAt: deps.now(), priceConfirmedBy: p.userId };
    if (t.state === 'priced') Object.assign(set, CLEARED_ACCEPTANCES);
    return { action: 'price' as const, set, changes, considerationChanged: Object.keys(changes).length > 0 };
  }

  /**
   * A price call without its read: the ticket this node kept at the caller's version and the bond row it kept,
   * the update requiring the stored bond row to be the one kept (`bondGuard`). Null as `acceptKept`.
   */
  async function priceKept(p: Principal, id: string, body: TicketPrice, audit: AuditContext) {
    const t = kept.ticketAt(id, body.version);
    const bond = t && kept.bond(t.finstrumentId);
    if (!t || !bond || underIdempotencyClaim()) return null;
    // A refusal of the pricing itself (size, a bond that cannot be priced) comes from the ordinary way's read too.
    const transition = await unlessRefused(() => {
      actionableRow(p, t, 'price', body.version);
      return pricedTransition(p, t, bond.row, body);
    });
    if (!transition) return null;
    return keptWrite(p, t, [{ ...transition, audit, expectedVersion: t.version }], undefined, bondGuard(bond.row.id, bond.hash), () =>
      kept.forgetBond(bond.row.id),
    );
  }

  /** `work` on a kept row, or null when it refuses (the refusal is left to the ordinary way's fresh read). */
  async function unlessRefused<T>(work: () => T | Promise<T>): Promise<T | null> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof AppError) return null;
      throw error;
    }
  }

  /** A write under a kept row and its guard; null (after `forget`) when it matched nothing. */
  async function keptWrite(
    p: Principal,
    t: TicketRow,
    steps: readonly TicketTransition[],
    extras: TicketStatementExtras | undefined,
    guard: SQL,
    forget?: () => void,
  ): Promise<Ticket | null> {
    try {
      return await transitionAlone(p, t, steps, extras, guard);
    } catch (error) {
      if (!(error instanceof TicketWriteMissed)) throw error;
      kept.forgetTicket(t.id);
      forget?.();
      return null;
    }
  }

  /** The caller's side accepts with `custodian`; the second side's acceptance confirms the trade with it. */
  function acceptance(p: Principal, t: TicketRow, custodian: Custodian, audit: AuditContext) {
    const side = sidesToAccept(t, p.clientId)[0]!;
    const now = deps.now();
    const set: TicketUpdate =
      side === 'buyer'
        ? { buyerAcceptedAt: now, buyerAcceptedBy: p.userId, buyerCustodianId: custodian.id }
        : { sellerAcceptedAt: now, sellerAcceptedBy: p.userId, sellerCustodianId: custodian.id };
    const accept: TicketTransition = {
      action: 'accept_consideration',
      audit,
      expectedVersion: t.version,
      set,
      changes: { side, custodian: custodian.name },
    };
    // The row updated is the one read (same version), so whether this accept is the second side's is known now.
    const confirms = (side === 'buyer' ? t.sellerAcceptedAt : t.buyerAcceptedAt) !== null;
    // Confirming: the accept and the confirmation as one update, with the booking of both orders.
    const steps: TicketTransition[] = confirms ? [accept, { action: 'confirmed', audit, set: { confirmedAt: now } }] : [accept];
    return { steps, confirms };
  }

  /**
   * An acceptance without its read: the row this node kept at the caller's version, a custodian and credentials
   * it saw, all three checked by the update itself (`tickets.cache.ts`). Null when something is not kept, when a
   * check refuses on the kept row, or when the update matched nothing: the ordinary way then reads and answers.
   */
  async function acceptKept(p: Principal, id: string, body: { version: number; custodian_id: string }, audit: AuditContext) {
    const t = kept.ticketAt(id, body.version);
    const custodian = kept.custodian(body.custodian_id);
    if (!t || !custodian || underIdempotencyClaim() || !kept.credentialsHeld(p.clientId, t.clearingCorporation)) return null;
    if (!(await unlessRefused(() => actionableRow(p, t, 'accept_consideration', body.version)))) return null;
    const { steps, confirms } = acceptance(p, t, custodian, audit);
    const guard = acceptanceGuard(custodian, p.clientId, t.clearingCorporation as CredentialCorp);
    return keptWrite(p, t, steps, confirms ? ordersBooking(database.db) : undefined, guard);
  }

  async function bondOf(finstrumentId: number): Promise<BondTerms> {
    return knownBond((await repo.bonds([finstrumentId])).get(finstrumentId));
  }
  function knownBond<B extends BondTerms>(bond: B | null | undefined): B {
    if (!bond) throw fieldError('finstrument_id', 'Please choose a bond.');
    return bond;
  }

  /** A broker firm's active user (400 `brokerNotBroker` otherwise) for `field`. */
  async function brokerMember(userId: string, field: string, principals: readonly string[]) {
    const member = await repo.member(userId);
    if (!member?.isBroker || principals.includes(member.clientId)) throw fieldError(field, TICKET_MESSAGES.brokerNotBroker);
    return member;
  }

  return {
    /** `GET api/chatter/trade/`: the firm's tickets (any side), needing its action first. */
    async list(p: Principal, query: TicketListQuery) {
      const { rows, count } = await repo.list(
        p.clientId,
        { state: query.state, needsAction: query.needs_action, open: query.open },
        query.page_size,
        (query.page - 1) * query.page_size,
      );
      // The Ticketing panel acts on what its list shows: those rows are kept for the actions.
      for (const row of rows) kept.keepTicket(row);
      return { count, page: query.page, page_size: query.page_size, results: await views.many(rows, readerOf(p)) };
    },

    /** `GET api/chatter/trade/{id}/`, with its history. */
    async get(p: Principal, id: string): Promise<Ticket> {
      return views.one(await visible(p, id), readerOf(p));
    },

    /** `POST api/chatter/trade/`: the deal's ticket; `created` false when it already had one (200, else 201). */
    async fromDeal(p: Principal, dealId: string, audit: AuditContext): Promise<{ created: boolean; ticket: Ticket }> {
      const deal = await repo.deal(dealId);
      if (!deal || (deal.buyerClientId !== p.clientId && deal.sellerClientId !== p.clientId)) throw new AppError('NOT_FOUND', UNKNOWN_DEAL);
      const existing = keep(await repo.findByDeal(dealId));
      if (existing) return { created: false, ticket: await views.one(existing, readerOf(p)) };
      const pricing =
        dealPricing(deal) ??
        (await pricer.price(await bondOf(deal.finstrumentId), {
          quantum: deal.quantum,
          price: deal.price,
          settlementDate: deal.settlementDate,
        }));
      const row = await change(async (tx, emit) => {
        const ticket = await insertDealTicket(tx, deal, pricing, audit);
        if (ticket) for (const event of ticketEventsFor(ticket, 'created', false)) emit(event);
        return ticket;
      });
      if (row) return { created: true, ticket: await views.one(keep(row), readerOf(p)) };
      // Created meanwhile (the deal's own transaction, or a concurrent call): the existing one.
      return { created: false, ticket: await views.one(keep(await repo.findByDeal(dealId))!, readerOf(p)) };
    },

    /** `PATCH api/chatter/trade/{id}/`: size, settlement, exchange; re-priced when size or settlement change. */
    async edit(p: Principal, id: string, body: TicketEdit, audit: AuditContext): Promise<Ticket> {
      if (body.quantum === undefined && body.settlement_date === undefined && body.settlement_delta === undefined && !body.exchange)
        throw fieldError('version', NOTHING_TO_CHANGE);
      const { t, bond } = await actionableWithBond(p, id, 'edit', body.version);
      const set: TicketUpdate = {};
      let changes: Record<string, unknown> = {};
      let considerationChanged = false;
      if (body.quantum !== undefined || body.settlement_date !== undefined || body.settlement_delta !== undefined) {
        const pricing = await pricer.price(
          knownBond(bond),
          {
            quantum: body.quantum ?? t.quantum,
            price: t.price,
            settlementDate: body.settlement_date ?? (body.settlement_delta === undefined ? t.settlementDate : undefined),
            settlementDelta: body.settlement_delta,
          },
          bond,
        );
        changes = pricingChanges(t, pricing);
        considerationChanged = Object.keys(changes).length > 0;
        Object.assign(set, pricing);
      }
      if (body.exchange && body.exchange !== t.exchange) {
        changes.exchange = [t.exchange, body.exchange];
        Object.assign(set, { exchange: body.exchange, clearingCorporation: clearingCorporationOf(body.exchange) });
      }
      if (t.state === 'priced') Object.assign(set, CLEARED_ACCEPTANCES);
      return apply(p, audit, t, { action: 'edit', set, changes, considerationChanged });
    },

    /** `PATCH api/chatter/trade/actions/{id}/{action}/`: send, reject, cancel (a reason for the last two). */
    async act(p: Principal, id: string, action: TicketAction, body: { version: number; reason?: string | undefined }, audit: AuditContext) {
      if ((action === 'reject' || action === 'cancel') && !body.reason) throw fieldError('reason', TICKET_MESSAGES.reasonRequired);
      const t = await actionable(p, id, action, body.version);
      const reason = action === 'send' ? null : body.reason!;
      return apply(p, audit, t, { action, reason, ...(reason ? { set: { reason } } : {}) });
    },

    /** `PATCH api/chatter/trade/send-to-broker/{id}/`: the caller's side is worked by a broker firm's user. */
    async sendToBroker(p: Principal, id: string, body: { version: number; broker_user_id: string }, audit: AuditContext) {
      const t = await actionable(p, id, 'send_to_broker', body.version);
      const side = principalSideOf(t, p.clientId)!;
      const broker = await brokerMember(body.broker_user_id, 'broker_user_id', [t.buyerClientId, t.sellerClientId]);
      const set: TicketUpdate =
        side === 'buyer'
          ? { buyerBrokerClientId: broker.clientId, buyerBrokerUserId: broker.userId, buyerBrokeragePaise: null }
          : { sellerBrokerClientId: broker.clientId, sellerBrokerUserId: broker.userId, sellerBrokeragePaise: null };
      if (t.state === 'priced') Object.assign(set, CLEARED_ACCEPTANCES);
      return apply(p, audit, t, {
        action: 'send_to_broker',
        set,
        changes: { side, broker: broker.clientName, broker_user: broker.userName },
      });
    },

    /** `PATCH api/trade/members/{id}/`: the dealer of the caller's side and its broker (null removes it). */
    async members(
      p: Principal,
      id: string,
      body: { version: number; user_id?: string | undefined; broker_user_id?: string | null | undefined },
      audit: AuditContext,
    ) {
      if (body.user_id === undefined && body.broker_user_id === undefined) throw fieldError('version', NOTHING_TO_CHANGE);
      const t = await actionable(p, id, 'members', body.version);
      const side = principalSideOf(t, p.clientId)!;
      const set: TicketUpdate = {};
      const changes: Record<string, unknown> = { side };
      if (body.user_id !== undefined) {
        const dealer = await repo.member(body.user_id, p.clientId);
        if (!dealer) throw fieldError('user_id', TICKET_MESSAGES.userNotInFirm);
        Object.assign(set, side === 'buyer' ? { buyerUserId: dealer.userId } : { sellerUserId: dealer.userId });
        changes.dealer = dealer.userName;
      }
      if (body.broker_user_id === null) {
        Object.assign(
          set,
          side === 'buyer'
            ? { buyerBrokerClientId: null, buyerBrokerUserId: null, buyerBrokeragePaise: null }
            : { sellerBrokerClientId: null, sellerBrokerUserId: null, sellerBrokeragePaise: null },
        );
        changes.broker = null;
      } else if (body.broker_user_id !== undefined) {
        const broker = await brokerMember(body.broker_user_id, 'broker_user_id', [t.buyerClientId, t.sellerClientId]);
        Object.assign(
          set,
          side === 'buyer'
            ? { buyerBrokerClientId: broker.clientId, buyerBrokerUserId: broker.userId }
            : { sellerBrokerClientId: broker.clientId, sellerBrokerUserId: broker.userId },
        );
        changes.broker = broker.clientName;
        changes.broker_user = broker.userName;
      }
      if (t.state === 'priced') Object.assign(set, CLEARED_ACCEPTANCES);
      return apply(p, audit, t, { action: 'members', set, changes });
    },

    /** `PATCH api/chatter/trade/{id}/price/`: the seller or the buyer's broker quotes (or confirms) the price. */
    async price(p: Principal, id: string, body: TicketPrice, audit: AuditContext): Promise<Ticket> {
      const fromKept = await priceKept(p, id, body, audit);
      if (fromKept) return fromKept;
      const { t, bond } = await actionableWithBond(p, id, 'price', body.version);
      return apply(p, audit, t, await pricedTransition(p, t, knownBond(bond), body));
    },

    /**
     * `PATCH api/chatter/trade/accept-consideration/{id}/`: the caller's side accepts with its custodian. The
     * second side's accept confirms the trade in the same transaction: history `confirmed`, state `reporting`,
     * and the order and procurement order booked (`createOrdersForTicket`).
     */
    async acceptConsideration(p: Principal, id: string, body: { version: number; custodian_id: string }, audit: AuditContext) {
      const fromKept = await acceptKept(p, id, body, audit);
      if (fromKept) return fromKept;
      // The ticket, the custodian and the firm's credentials in one read; refused in the order of the checks.
      const found = await repo.findForAcceptance(id, body.custodian_id, p.clientId);
      if (found) {
        keep(found.ticket);
        kept.keepAcceptanceReads(body.custodian_id, found.custodian, p.clientId, found.ticket.clearingCorporation, found.hasCredentials);
      }
      const t = actionableRow(p, found?.ticket, 'accept_consideration', body.version);
      const custodian = found!.custodian;
      if (!custodian) throw fieldError('custodian_id', TICKET_MESSAGES.custodianUnknown);
      // Accepting books the trade for reporting in the firm's name: it needs the clearing corporation's login (issue 14).
      const corp = t.clearingCorporation as CredentialCorp;
      if (!found!.hasCredentials) {
        const message = CREDENTIAL_MESSAGES.reportNeedsCredentials(corp);
        throw new AppError('FORBIDDEN', message, { clearing_corporation: [message] });
      }
      const { steps, confirms } = acceptance(p, t, custodian, audit);
      // One statement (it answers the booked orders too: `bookedOrdersOf`).
      const alone = await transitionAlone(p, t, steps, confirms ? ordersBooking(database.db) : undefined);
      if (alone) return alone;
      let booked: OrderRow[] | undefined;
      const row = await change(async (tx, emit) => {
        // Confirming, the two history rows and audit rows are written in one statement with the orders' audit rows.
        const held = confirms ? holdWrites() : undefined;
        const result = await recordTicketTransitions(tx, t.id, steps, { read: t, ...(held ? { held } : {}) });
        for (const event of result.events) emit(event);
        if (!held) return result.ticket;
        const orders = await createOrdersForTicket(tx, result.ticket, audit, held);
        for (const event of orders.events) emit(event);
        // Both, unless some were there already (then the view reads them).
        if (orders.orders.length === 2) booked = orders.orders;
        return result.ticket;
      });
      kept.keepTicket(row);
      return views.one(row, readerOf(p), true, booked);
    },

    /** `GET api/chatter/trade/confirmed-trade/{id}/`: the trade confirmation (409 before both accepted). */
    async confirmedTrade(p: Principal, id: string) {
      const t = await visible(p, id);
      if (!t.confirmedAt) throw new AppError('CONFLICT', TICKET_MESSAGES.notConfirmed);
      return views.confirmed(t, readerOf(p));
    },

    /** `PATCH api/trade/{id}/brokerage/`: a broker on the ticket sets the brokerage it charges its principal. */
    async brokerage(p: Principal, id: string, body: { version: number; brokerage: number }, audit: AuditContext) {
      const t = await actionable(p, id, 'brokerage', body.version);
      const side = t.buyerBrokerClientId === p.clientId ? 'buyer' : 'seller';
      const paise = Math.round(body.brokerage * 100);
      const before = side === 'buyer' ? t.buyerBrokeragePaise : t.sellerBrokeragePaise;
      const set: TicketUpdate = side === 'buyer' ? { buyerBrokeragePaise: paise } : { sellerBrokeragePaise: paise };
      return apply(p, audit, t, {
        action: 'brokerage',
        set,
        changes: { side, brokerage: [before === null ? null : before / 100, paise / 100] },
      });
    },

    /** `POST api/chatter/trade/manual-ticket/`: a trade agreed outside the market; a draft its creator sends. */
    async manual(p: Principal, body: ManualTicket, audit: AuditContext): Promise<Ticket> {
      const bond = await bondOf(body.finstrument_id);
      if (body.counterparty_client_id === p.clientId) throw fieldError('counterparty_client_id', TICKET_MESSAGES.sameFirm);
      const counterparty = (await repo.firms([body.counterparty_client_id])).get(body.counterparty_client_id);
      if (!counterparty) throw fieldError('counterparty_client_id', 'Please choose a counterparty.');
      if (body.counterparty_user_id && !(await repo.member(body.counterparty_user_id, counterparty.id)))
        throw fieldError('counterparty_user_id', TICKET_MESSAGES.userNotInFirm);
      const broker = body.broker_user_id ? await brokerMember(body.broker_user_id, 'broker_user_id', [p.clientId, counterparty.id]) : null;
      const now = deps.now();
      let tradedAt = now;
      if (body.trade_time) {
        const istToday = new Date(now.getTime() + 330 * 60_000).toISOString().slice(0, 10);
        tradedAt = new Date(`${istToday}T${body.trade_time}:00+05:30`);
        if (tradedAt.getTime() > now.getTime()) throw fieldError('trade_time', TRADE_TIME_LATER_MESSAGE);
      }
      const pricing = await pricer.price(bond, {
        quantum: body.quantum,
        price: body.price,
        yield: body.yield,
        settlementDate: body.settlement_date,
        settlementDelta: body.settlement_delta,
      });
      const mine = { clientId: p.clientId, userId: p.userId };
      const theirs = { clientId: counterparty.id, userId: body.counterparty_user_id ?? null };
      const [buyer, seller] = body.buy_or_sell === 'buy' ? [mine, theirs] : [theirs, mine];
      const brokerColumns = !broker
        ? {}
        : body.buy_or_sell === 'buy'
          ? { buyerBrokerClientId: broker.clientId, buyerBrokerUserId: broker.userId }
          : { sellerBrokerClientId: broker.clientId, sellerBrokerUserId: broker.userId };
      const row = await change(async (tx, emit) => {
        const ticket = (await createTicketsRepository(tx).insert({
          source: 'manual',
          state: 'draft',
          finstrumentId: bond.id,
          buyerClientId: buyer.clientId,
          buyerUserId: buyer.userId,
          sellerClientId: seller.clientId,
          sellerUserId: seller.userId,
          ...brokerColumns,
          createdByClientId: p.clientId,
          createdByUserId: p.userId,
          ...pricing,
          exchange: body.exchange,
          clearingCorporation: clearingCorporationOf(body.exchange),
          tradedAt,
        }))!;
        await appendTicketHistory(tx, ticket, {
          action: 'created',
          fromState: null,
          toState: 'draft',
          audit,
          changes: { source: 'manual', buy_or_sell: body.buy_or_sell, price: ticket.price, quantum: ticket.quantum },
          reason: null,
        });
        for (const event of ticketEventsFor(ticket, 'created', false, p.clientId)) emit(event);
        return ticket;
      });
      return views.one(row, readerOf(p));
    },
  };
}
export type TicketsService = ReturnType<typeof createTicketsService>;
