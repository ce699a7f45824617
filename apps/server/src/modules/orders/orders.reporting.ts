/**
 * The reporter: sends each order due (`state = 'reporting' AND next_report_at <= now`) to the exchange's trade
 * reporting platform through the ExchangeGateway, and stores the venue's answer.
 *
 * - **Claim.** Due rows are locked `FOR UPDATE SKIP LOCKED` and leased (`next_report_at` = now + `LEASE_MS`) in
 *   one statement (its own short transaction), then reported outside it: two nodes (the job, a user's "report now" on another
 *   node) never send one order at once, and an order whose node died mid-report is due again after the lease.
 * - **Batches.** A claim's orders go to each exchange in one call (`reportTrades`), so both sides of a trade
 *   confirmed together are matched in one call; the answers are stored a kind at a time (below).
 * - **Never twice.** The venue keeps one report per ticket and side: a repeat (after a lost answer, a crash
 *   between the venue's answer and our commit, a second node) gets the same answer and the same trade number.
 *   The order keeps the venue's report ref and trade number once answered.
 * - **Answers.** `matched` → both orders `reported` with the trade number, the ticket `reported`; `refused` →
 *   both orders `mismatch` with the venue's reason; `pending` (the other side has not reported) → asked again
 *   after `PENDING_RECHECK_MS` (the other side's report normally brings the match first); `cancelled` → the
 *   trade is off. An answer to terms the order no longer has (modified meanwhile) is dropped, except a match.
 * - **Outage.** The venue did not answer: the order stays `reporting`, `last_error` set, and is tried again
 *   after an exponential back-off (`BACKOFF_BASE_MS` × 2^(attempts−1), at most `BACKOFF_MAX_MS`).
 * - **Deadline.** A ticket still `reporting` `REPORTING_ALERT_MINUTES` after the trade gets a `report_alert`
 *   history entry, at `REPORTING_DEADLINE_MINUTES` a `report_escalated` one: once each.
 * - **Exchange RFQ.** An order of a ticket from an exchange-RFQ deal is never sent here: the RFQ platform
 *   reported the deal, and the order takes that report and its trade number (`orders.rfq.ts`).
 * Runs on the elected node (`startJobs(isLeader)`) as a pipeline of up to `BATCHES_IN_FLIGHT` batches at the venue, kicked
 * every `TICK_MS` and at once when a ticket is confirmed (the `trade.open_orders` event of a new order, from any
 * node, over the bus); tests call `tick(now)`, which goes in rounds of `BATCH`.
 */
import { AsyncResource } from 'node:async_hooks';
import { POST_TRADE_TOPICS, REPORTING_ALERT_MINUTES, REPORTING_DEADLINE_MINUTES, type OrderState } from '@dart/contracts';
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { pgArray } from '../../db/pg-array';
import { errorFields, errorMessage } from '../../lib/logger';
import { orders, tickets } from '../../db/schema';
import { writeAudit } from '../../lib/audit';
import { groupBy } from '../../lib/group-by';
import type { ExchangeName, TradeReportAnswer, TradeSideReport } from '../exchange';
import type { OrdersContext } from './orders.context';
import { createOrdersRepository, type ClaimedOrder, type OrderRow, type OrderView } from './orders.repository';
import { createRfqReportTaker, rfqTradeOf, rfqTradesOf, type RfqTrade } from './orders.rfq';
import { holdWrites, writeHeld } from '../tickets/ticket-transitions';
import { cancelTrade, lockedTicketsOf, markMismatch, markReported, moveTicket, moveToReported, SYSTEM_AUDIT } from './orders.transitions';

export const REPORTER = {
  TICK_MS: 1_000,
  LEASE_MS: 60_000,
  PENDING_RECHECK_MS: 10_000,
  BACKOFF_BASE_MS: 5_000,
  BACKOFF_MAX_MS: 5 * 60_000,
  /** Orders claimed per round of `tick`, and reported in one call to each exchange. */
  BATCH: 50,
  PARALLEL: 8,
  /** Rounds per tick at most (a tick ends; the next one carries on). */
  ROUNDS: 20,
  /**
   * Batches the job has at the venue or being stored at once (its pipeline; `tick` goes in rounds): a kick with
   * room claims what is due at once, so while the job keeps up a batch is an order or two and waits for nothing;
   * when it falls behind, orders wait for room and the next claim takes them together, up to `VENUE_BATCH`.
   */
  BATCHES_IN_FLIGHT: 4,
  /** Orders the job sends to the venue in one call at most. */
  VENUE_BATCH: 32,
} as const;

/** The delay before attempt `attempts + 1`, after `attempts` failed ones (≥ 1). */
export const backoffMs = (attempts: number) => Math.min(REPORTER.BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), REPORTER.BACKOFF_MAX_MS);

/** An answer of the venue to one claimed order. */
interface Answered<S extends TradeReportAnswer['status'] = TradeReportAnswer['status']> {
  claimed: OrderRow;
  answer: Extract<TradeReportAnswer, { status: S }>;
}

async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

/** What one side reports to the venue: its order's terms as they stand (revision = the order's version). */
export function sideReportOf(order: OrderRow, view: Pick<OrderView, 'isin' | 'custodianName'>): TradeSideReport {
  return {
    exchange: order.exchange as ExchangeName,
    ticketId: order.ticketId,
    side: order.kind === 'order' ? 'sell' : 'buy',
    member: order.clientId,
    counterparty: order.counterpartyClientId,
    isin: view.isin,
    quantum: order.quantum,
    price: order.price,
    yieldFraction: order.yieldFraction,
    settlementDate: order.settlementDate,
    accruedDays: order.accruedDays,
    principalPaise: order.principalPaise,
    accruedInterestPaise: order.accruedInterestPaise,
    considerationPaise: order.considerationPaise,
    stampDutyPaise: order.stampDutyPaise,
    custodian: view.custodianName,
    revision: order.version,
  };
}

export function createOrderReporter(ctx: OrdersContext) {
  const { deps, gateway } = ctx;
  const db = deps.database.db;
  const log = (error: unknown, msg: string) => ctx.log.warn(errorFields(error), msg);
  const rfqReports = createRfqReportTaker(ctx);

  /**
   * The RFQ platform's report of a round's exchange-RFQ orders, read for the whole round in one statement (none
   * when the round has no such order: the claim says which are).
   */
  async function prefetch(claimed: readonly ClaimedOrder[]): Promise<Map<string, RfqTrade | null>> {
    const fromRfq = claimed.filter((o) => o.claim.fromExchangeRfq).map((o) => o.ticketId);
    if (fromRfq.length < 2) return new Map();
    // On failure each order reads its own then (and a failure there is stored for its back-off).
    return rfqTradesOf(db, fromRfq).catch((error: unknown) => {
      log(error, 'order reporter round prefetch failed');
      return new Map();
    });
  }

  /** The claimed row as it stands now, if its terms are still the ones reported (same version, still reporting). */
  const stillAsClaimed = (claimed: OrderRow) =>
    and(eq(orders.id, claimed.id), eq(orders.version, claimed.version), eq(orders.state, 'reporting'));

  /** One order's answer on its own: a refusal, a cancellation, or any answer whose batch could not be stored. */
  async function store(claimed: OrderRow, answer: TradeReportAnswer, now: Date): Promise<void> {
    if (answer.status === 'pending') return storePending([{ claimed, answer }], now);
    await ctx.change(async (tx, emit) => {
      await createOrdersRepository(tx).lockTicketOrders(tx, claimed.ticketId);
      switch (answer.status) {
        case 'matched':
          await markReported(
            tx,
            emit,
            claimed.ticketId,
            { tradeId: answer.tradeId, terms: answer.terms, refs: { [claimed.kind]: answer.ref } },
            now,
          );
          return;
        case 'cancelled':
          await cancelTrade(tx, emit, claimed.ticketId, SYSTEM_AUDIT, answer.reason ?? 'Cancelled at the exchange.');
          return;
        case 'refused': {
          const [current] = await tx.select({ id: orders.id }).from(orders).where(stillAsClaimed(claimed));
          if (current) await markMismatch(tx, emit, claimed.ticketId, answer.reason);
          await tx.update(orders).set({ exchangeReportRef: answer.ref }).where(eq(orders.id, claimed.id));
          return;
        }
      }
    });
  }

  /**
   * `pending` answers (the other side has not reported): one UPDATE of the claimed rows alone, each under its
   * version and state, without locking the tickets' orders first: it takes row locks and holds nothing else, so it
   * cannot deadlock with a transition that locks both of a ticket's orders, and a row a transition got to first is
   * left unchanged. Still in a transaction: a node that dies while the update waits on a row must store nothing,
   * and a lone statement would commit once the row is free, the node gone or not.
   */
  async function storePending(answered: ReadonlyArray<Answered<'pending'>>, now: Date): Promise<void> {
    const next = new Date(now.getTime() + REPORTER.PENDING_RECHECK_MS).toISOString();
    await db.transaction((tx) =>
      tx.execute(
        sql`UPDATE orders o SET exchange_report_ref = a.ref, next_report_at = ${next}::timestamptz, report_attempts = 0, last_error = NULL
              FROM unnest(${pgArray(answered.map((a) => a.claimed.id))}::uuid[], ${pgArray(answered.map((a) => a.claimed.version))}::int[],
                          ${pgArray(answered.map((a) => a.answer.ref))}::text[]) AS a(id, version, ref)
             WHERE o.id = a.id AND o.version = a.version AND o.state = ${'reporting' satisfies OrderState}`,
      ),
    );
  }

  /**
   * `matched` answers of a batch in one transaction: every ticket's orders locked in one statement, then each
   * ticket moved as `markReported` moves it, with the report refs of all its sides answered. When the batch
   * cannot be stored (a deadlock with a user's call, say), each answer is stored on its own.
   */
  async function storeMatched(answered: ReadonlyArray<Answered<'matched'>>, now: Date): Promise<void> {
    const byTicket = new Map<string, Array<Answered<'matched'>>>();
    for (const one of answered) byTicket.set(one.claimed.ticketId, [...(byTicket.get(one.claimed.ticketId) ?? []), one]);
    try {
      await ctx.change(async (tx, emit) => {
        const ticketIds = [...byTicket.keys()];
        await createOrdersRepository(tx).lockOrdersOfTickets(tx, ticketIds);
        const matches = [...byTicket].map(([ticketId, sides]) => ({
          ticketId,
          tradeId: sides[0]!.answer.tradeId,
          terms: sides[0]!.answer.terms,
          refs: Object.fromEntries(sides.map(({ claimed, answer }) => [claimed.kind, answer.ref])),
        }));
        const moved = await moveToReported(tx, matches, now);
        const batch = { moved, locked: await lockedTicketsOf(tx, ticketIds), held: holdWrites() };
        for (const { ticketId, ...match } of matches) await markReported(tx, emit, ticketId, match, now, batch);
        // Every ticket's history and audit rows, and the orders' audit rows, in one statement.
        await writeHeld(tx, SYSTEM_AUDIT, batch.held);
      });
    } catch (error) {
      log(error, 'order report answers not stored as a batch: storing each');
      for (const { claimed, answer } of answered)
        await store(claimed, answer, now).catch((e: unknown) => log(e, 'order report answer not stored'));
    }
  }

  async function failed(claimed: OrderRow, error: unknown, now: Date): Promise<void> {
    const message = errorMessage(error).slice(0, 500);
    await ctx.change(async (tx) => {
      const [row] = await tx
        .update(orders)
        .set({ lastError: message, nextReportAt: new Date(now.getTime() + backoffMs(claimed.reportAttempts)) })
        .where(stillAsClaimed(claimed))
        .returning();
      if (row)
        await writeAudit(tx, SYSTEM_AUDIT, {
          action: 'order.report_failed',
          entity: 'order',
          entityId: row.id,
          after: { state: row.state, attempts: row.reportAttempts, next_report_at: row.nextReportAt?.toISOString(), error: message },
        });
    });
  }
  const failedAll = (claimed: readonly OrderRow[], error: unknown, now: Date) =>
    Promise.all(claimed.map((order) => failed(order, error, now).catch((e: unknown) => log(e, 'order report failure not stored'))));

  /**
   * Reports a claimed batch and stores the answers; never throws (a failure is stored for each order's back-off).
   * An exchange-RFQ deal's orders take the RFQ platform's report; the rest go to their exchange in one call
   * (`reportTrades`), so both sides of a trade claimed together are matched in one call, and the answers are
   * stored a kind at a time.
   */
  async function reportBatch(claimed: readonly ClaimedOrder[], now: Date, rfqTrades: Map<string, RfqTrade | null>): Promise<void> {
    const ready: Array<{ order: OrderRow; report: TradeSideReport }> = [];
    await inParallel(claimed, REPORTER.PARALLEL, async (order) => {
      let rfq: RfqTrade | null;
      let report: TradeSideReport;
      try {
        rfq = !order.claim.fromExchangeRfq ? null : (rfqTrades.get(order.ticketId) ?? (await rfqTradeOf(db, order.ticketId)));
        if (rfq) {
          // A deal done on an exchange RFQ is reported by the RFQ platform itself: its orders take that report.
          await rfqReports.take(order, rfq, now).catch((e: unknown) => log(e, "order's RFQ platform report not stored"));
          return;
        }
        report = sideReportOf(order, order.claim);
      } catch (error) {
        await failedAll([order], error, now);
        return;
      }
      ready.push({ order, report });
    });
    await Promise.all(
      [...groupBy(ready, (one) => one.order.exchange as ExchangeName)].map(async ([exchange, batch]) => {
        let answers: TradeReportAnswer[];
        try {
          answers = await gateway.reportTrades(
            exchange,
            batch.map((one) => one.report),
          );
        } catch (error) {
          await failedAll(
            batch.map((one) => one.order),
            error,
            now,
          );
          return;
        }
        // The venue holds the reports now: if a store is lost, the next attempt gets the same answers.
        const answered = batch.map(({ order }, i) => ({ claimed: order, answer: answers[i]! }));
        const pending = answered.filter((one): one is Answered<'pending'> => one.answer.status === 'pending');
        const matched = answered.filter((one): one is Answered<'matched'> => one.answer.status === 'matched');
        await Promise.all([
          pending.length > 0 ? storePending(pending, now).catch((e: unknown) => log(e, 'order report answers not stored')) : null,
          matched.length > 0 ? storeMatched(matched, now) : null,
          ...answered
            .filter((one) => one.answer.status === 'refused' || one.answer.status === 'cancelled')
            .map(({ claimed: order, answer }) => store(order, answer, now).catch((e: unknown) => log(e, 'order report answer not stored'))),
        ]);
      }),
    );
  }

  async function claim(now: Date, id?: string, limit: number = REPORTER.BATCH): Promise<ClaimedOrder[]> {
    return createOrdersRepository(db).claimDue(now, new Date(now.getTime() + REPORTER.LEASE_MS), id ? 1 : limit, id);
  }

  /** Tickets past the alert or the deadline without their history entry yet. */
  async function raiseAlerts(now: Date): Promise<void> {
    const alertAt = new Date(now.getTime() - REPORTING_ALERT_MINUTES * 60_000);
    const deadlineAt = new Date(now.getTime() - REPORTING_DEADLINE_MINUTES * 60_000);
    const due = await db
      .select({ id: tickets.id })
      .from(tickets)
      .where(
        and(
          eq(tickets.state, 'reporting'),
          lte(tickets.tradedAt, alertAt),
          or(isNull(tickets.reportAlert), and(eq(tickets.reportAlert, 'alert'), lte(tickets.tradedAt, deadlineAt))),
        ),
      )
      .limit(100);
    for (const { id } of due)
      await ctx.change(async (tx, emit) => {
        const [ticket] = await tx.select().from(tickets).where(eq(tickets.id, id)).for('update');
        if (!ticket || ticket.state !== 'reporting') return;
        const minutes = Math.floor((now.getTime() - ticket.tradedAt.getTime()) / 60_000);
        if (ticket.reportAlert === null && ticket.tradedAt <= alertAt)
          await moveTicket(tx, emit, id, 'report_alert', SYSTEM_AUDIT, {
            set: { reportAlert: 'alert' },
            changes: { minutes_since_trade: minutes },
            reason: `Not reported ${REPORTING_ALERT_MINUTES} minutes after the trade.`,
          });
        if (ticket.reportAlert !== 'escalated' && ticket.tradedAt <= deadlineAt)
          await moveTicket(tx, emit, id, 'report_escalated', SYSTEM_AUDIT, {
            set: { reportAlert: 'escalated' },
            changes: { minutes_since_trade: minutes },
            reason: `Not reported within the ${REPORTING_DEADLINE_MINUTES}-minute deadline.`,
          });
      });
  }

  /** One pass: deadline alerts, then every order due, in rounds of `BATCH`. */
  async function tick(now: Date = deps.now()): Promise<void> {
    await raiseAlerts(now);
    for (let round = 0; round < REPORTER.ROUNDS; round++) {
      const claimed = await claim(now);
      await reportBatch(claimed, now, await prefetch(claimed));
      if (claimed.length < REPORTER.BATCH) break;
    }
  }

  /** A user's "report now" (POST, modify): reports this order at once unless another node holds it right now. */
  async function reportNow(orderId: string, now: Date = deps.now()): Promise<void> {
    await reportBatch(await claim(now, orderId), now, new Map());
  }

  // The job, a pipeline rather than rounds: a kick claims up to `VENUE_BATCH` due orders while fewer than
  // `BATCHES_IN_FLIGHT` batches are out, and starts the batch at once; each batch that finishes makes room and,
  // when more may be due, claims again. So an order confirmed while others wait on the venue is claimed at once
  // instead of after the slowest of a round (at 20 deals a second, rounds put 0.7 s of queueing between confirmed
  // and reported), and a job that falls behind sends what queued meanwhile as one batch (a claim, a venue call and a
  // store for many orders; bounding orders in flight instead kept batches at the few orders a finished batch freed).
  // One claim at a time on this node; the lease keeps other nodes off the claimed rows.
  const active = new Set<Promise<void>>();
  let claiming: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  function kick(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = (async () => {
      do {
        again = false;
        if (active.size >= REPORTER.BATCHES_IN_FLIGHT) {
          // Full: the next batch to finish claims again.
          again = true;
          return;
        }
        const now = deps.now();
        const claimed = await claim(now, undefined, REPORTER.VENUE_BATCH);
        if (claimed.length === 0) break;
        const prefetched = await prefetch(claimed);
        const job: Promise<void> = reportBatch(claimed, now, prefetched).finally(() => {
          active.delete(job);
          if (again) kick();
        });
        active.add(job);
        // A full claim may have left more due.
        if (claimed.length === REPORTER.VENUE_BATCH) again = true;
      } while (again && active.size < REPORTER.BATCHES_IN_FLIGHT);
    })()
      .catch((error: unknown) => log(error, 'order reporter claim failed'))
      .finally(() => {
        claiming = null;
        if (again && active.size < REPORTER.BATCHES_IN_FLIGHT) kick();
      });
  }
  let timer: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;
  let alerting: Promise<void> | null = null;
  /** Every `TICK_MS` on the elected node: deadline alerts (one pass at a time), then a kick for whatever fell due. */
  function onTimer(): void {
    alerting ??= raiseAlerts(deps.now())
      .catch((error: unknown) => log(error, 'order reporting alerts failed'))
      .finally(() => (alerting = null));
    kick();
  }

  return {
    tick,
    reportNow,
    /** Runs the reporter on whichever node `isLeader` says is the elected one. */
    startJobs(isLeader: () => boolean): void {
      stopped = false;
      timer = setInterval(() => isLeader() && onTimer(), REPORTER.TICK_MS);
      timer.unref();
      // A confirmed ticket's new orders are announced on the bus by whichever node confirmed it; the leader
      // reports them at once. The bus calls us inside that request's async context: the pass runs outside it.
      const outsideTheRequest = AsyncResource.bind((work: () => void) => work());
      unsubscribe = deps.bus.subscribe((message) => {
        if (message.topic !== POST_TRADE_TOPICS.openOrders || !isLeader()) return;
        if ((message.payload as { state?: string } | null)?.state === 'reporting') outsideTheRequest(kick);
      });
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      unsubscribe?.();
      // Claims and reports in flight settle (they cannot start new ones once stopped).
      const pending = () => [claiming, alerting, ...active].filter((p) => p !== null);
      for (let left = pending(); left.length > 0; left = pending()) await Promise.all(left);
    },
  };
}
export type OrderReporter = ReturnType<typeof createOrderReporter>;
