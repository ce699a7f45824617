/**
 * Simulated participants of the NSE / BSE RFQ venues (part of the SIMULATOR, never a real exchange):
 * a firm "Simulated RFQ participants" that, on each tick, raises an RFQ on a real bond around its
 * reference yield (±10 bp, one-to-many, anonymous or disclosed at random, on NSE or BSE) and answers
 * open RFQs of Dart's firms around the reference yield (±4.25 bp, in quarter bp). Everything goes through the market's
 * own calls (`createQuote`), so rules, audit and live events are the same as for a person.
 *
 * Sizes are face value in rupees as the market trades them (`simulatedSize`): G-secs, SDLs and T-bills
 * ₹5–100 Cr, other bonds ₹1–50 Cr, always whole bonds. Besides the tick, a Dart firm's new RFQ that reaches
 * the simulated firm (one-to-many on its exchange, or one-to-one to it) is answered `answerDelayMs` after
 * it was raised (the venue's participants are quick); a one-to-one RFQ to another firm never is. Each
 * response stands SIMULATED_RESPONSE_VALIDITY_MINUTES (never past the RFQ's end).
 */
import {
  faceValuePerBond,
  MARKET_TOPICS,
  SIMULATED_RESPONSE_VALIDITY_MINUTES,
  SOVEREIGN_SECURITY_TYPES,
  type ClientTier,
  type ClientType,
  type Permission,
  type Role,
} from '@dart/contracts';
import { AsyncResource } from 'node:async_hooks';
import { and, asc, desc, eq, gt, isNotNull, ne, sql } from 'drizzle-orm';
import { clients, finstruments, quotes, referencePrices, userAccountPermissions, userAccounts, users } from '../../db/schema';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import type { MarketService } from '../market';

export const SIMULATED_FIRM = 'Simulated RFQ participants (NSE/BSE)';
const SIM_EMAIL = 'participants@exchange-sim.dart';
const AUDIT = { actorEmail: 'system:exchange-simulator' };
/** The simulated firm's participant names at the clearing corporations (shown in the OTO picker). */
const SIM_NSCCL_NAME = 'SIMULATED-NSE-RFQ';
const SIM_ICCL_NAME = 'SIMULATED-BSE-RFQ';
const CRORE = 10_000_000;
const SOVEREIGN_CRORES = [5, 10, 15, 20, 25, 50, 75, 100] as const;
const CORPORATE_CRORES = [1, 2, 5, 10, 15, 25, 50] as const;

/**
 * A realistic RFQ size in rupees of face value: G-secs / SDLs / T-bills ₹5–100 Cr, other bonds ₹1–50 Cr,
 * rounded up to a whole number of bonds (a ₹1 Cr-per-bond CP is never asked for in fractions).
 */
export function simulatedSize(bond: { security_type: string | null; face_value: number | null }, random: () => number): number {
  const perBond = faceValuePerBond(bond);
  const crores = (SOVEREIGN_SECURITY_TYPES as readonly string[]).includes(bond.security_type ?? '') ? SOVEREIGN_CRORES : CORPORATE_CRORES;
  const rupees = crores[Math.floor(random() * crores.length)]! * CRORE;
  return Math.ceil(rupees / perBond) * perBond;
}

export interface ParticipantsStartOptions {
  /** Raise RFQs of their own on each tick (off: only answer Dart firms' RFQs). */
  raise?: boolean;
  /** Answer a Dart firm's new RFQ this long after it was raised (0: only on the tick). */
  answerDelayMs?: number;
}

export function createSimulatedParticipants(deps: AppDeps, market: MarketService, random: () => number = Math.random) {
  const db = deps.database.db;
  let principal: Principal | null = null;
  let timer: NodeJS.Timeout | null = null;
  let answerTimer: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;
  let stopped = false;
  /** One run at a time on this node: a tick and an answer never answer the same RFQ twice. */
  let running: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = running.then(work, work);
    running = next.catch(() => undefined);
    return next;
  };

  /** The simulated firm and its one user, created on first use (no password: it cannot sign in). */
  async function self(): Promise<Principal> {
    if (principal) return principal;
    const found = await db
      .select({ userId: users.id, accountId: userAccounts.id, clientId: clients.id })
      .from(users)
      .innerJoin(userAccounts, eq(userAccounts.userId, users.id))
      .innerJoin(clients, eq(clients.id, userAccounts.clientId))
      .where(eq(users.email, SIM_EMAIL));
    let ids = found[0];
    if (!ids) {
      ids = await db.transaction(async (tx) => {
        const [client] = await tx
          .insert(clients)
          .values({ name: SIMULATED_FIRM, clientType: 'CORP', tier: 'PREMIUM', rfqExchanges: ['NSE', 'BSE'] })
          .returning();
        const [user] = await tx
          .insert(users)
          .values({ uniqueId: 'EXCHSIM0001', email: SIM_EMAIL, firstName: 'Exchange', lastName: 'Simulator' })
          .onConflictDoNothing()
          .returning();
        const [account] = await tx.insert(userAccounts).values({ userId: user!.id, clientId: client!.id }).returning();
        return { userId: user!.id, accountId: account!.id, clientId: client!.id };
      });
    }
    // A participant a dealer can name in a one-to-one RFQ (the ticketing participant search offers firms
    // with a trader and shows their clearing names); also for a firm created before this was added.
    await db.insert(userAccountPermissions).values({ userAccountId: ids.accountId, permission: 'client.can_trade' }).onConflictDoNothing();
    await db
      .update(clients)
      .set({ nsccl_name: SIM_NSCCL_NAME, iccl_name: SIM_ICCL_NAME })
      .where(and(eq(clients.id, ids.clientId), sql`${clients.nsccl_name} IS NULL`));
    // The simulated firm is a member of the simulated venue itself: it raises RFQs without a stored login
    // (modules/credentials: raising needs the clearing corporation's credentials reference).
    await db
      .update(clients)
      .set({
        nscclCredentialsRef: sql`coalesce(${clients.nscclCredentialsRef}, 'simulated-venue')`,
        icclCredentialsRef: sql`coalesce(${clients.icclCredentialsRef}, 'simulated-venue')`,
      })
      .where(eq(clients.id, ids.clientId));
    principal = {
      userId: ids.userId,
      sessionId: 'exchange-simulator',
      userAccountId: ids.accountId,
      clientId: ids.clientId,
      email: SIM_EMAIL,
      roles: ['clientdealer'] as Role[],
      permissions: ['client.can_trade'] as Permission[],
      clientTier: 'PREMIUM' as ClientTier,
      clientType: 'CORP' as ClientType,
      isBroker: false,
      allowedExchanges: ['NSE', 'BSE'],
    };
    return principal;
  }

  const bp = (n: number) => n / 10_000;
  const round6 = (v: number) => Number(v.toFixed(6));

  /**
   * A bond with a reference yield from its best source, picked at random among the first few hundred.
   * A bond has one row per source and date: keep only its best row (lowest priority, then newest, as
   * the price info does) before the
   * sanity range is applied, so an RFQ never quotes around a worse source's yield.
   */
  async function someBond(): Promise<
    { finstrumentId: number; yieldFraction: number; security_type: string | null; face_value: number | null } | undefined
  > {
    const rows = await db
      .select({
        finstrumentId: referencePrices.finstrumentId,
        yieldFraction: referencePrices.yieldFraction,
        security_type: finstruments.securityType,
        face_value: finstruments.faceValue,
      })
      .from(referencePrices)
      .innerJoin(finstruments, eq(finstruments.id, referencePrices.finstrumentId))
      .orderBy(asc(referencePrices.priority), desc(referencePrices.priceDate), asc(referencePrices.finstrumentId))
      .limit(1500);
    const best = new Map<number, (typeof rows)[number]>();
    // Rows come best first, so the first row seen for a bond is its best one.
    for (const row of rows) if (!best.has(row.finstrumentId)) best.set(row.finstrumentId, row);
    const candidates = [...best.values()]
      .filter(
        (row): row is (typeof rows)[number] & { yieldFraction: number } =>
          row.yieldFraction !== null && row.yieldFraction > 0.01 && row.yieldFraction < 0.2,
      )
      .slice(0, 300);
    return candidates[Math.floor(random() * candidates.length)];
  }

  /** Raises one RFQ around a real bond's reference yield; returns its quote id (or null if none priceable). */
  async function raiseRfq(): Promise<string | null> {
    const me = await self();
    // Some reference yields cannot be priced for today's settlement (matured, odd schedules, a random
    // offset out of range): enough attempts that "no bond found" means none is priceable, not bad luck.
    for (let attempt = 0; attempt < 25; attempt++) {
      const bond = await someBond();
      if (!bond) return null;
      try {
        const quote = await market.createQuote(
          me,
          {
            finstrument_id: bond.finstrumentId,
            quote_type: random() < 0.5 ? 'BID' : 'ASK',
            quantum: simulatedSize(bond, random),
            yield_stored: round6(bond.yieldFraction + bp(Math.round(random() * 20 - 10))),
            fixed_field: 'yield',
            validity: 30,
            source: 'EXCHANGE',
            state: 'DEFAULT',
            yield_type: 'YTM',
            whatsapp_consent: false,
            is_best: false,
            send_to_rfq: true,
            price_overridden: false,
            clearing_corporation: random() < 0.5 ? 'NSCCL' : 'ICCL',
            rfq_mode: 'ONE_TO_MANY',
            rfq_anonymous: random() < 0.7,
            counterparties: [],
          },
          AUDIT,
        );
        return quote.id;
      } catch {
        // Not priceable, or the venue refused (injected failure): try another bond.
      }
    }
    return null;
  }

  /** Answers open RFQs of other firms that the simulated firm has not answered yet (at most `limit`). */
  async function respond(limit = 3): Promise<string[]> {
    const me = await self();
    const open = await db
      .select({
        id: quotes.id,
        finstrumentId: quotes.finstrumentId,
        yieldFraction: quotes.yieldFraction,
        remaining: quotes.remainingQuantum,
        expiresAt: quotes.expiresAt,
      })
      .from(quotes)
      .where(
        and(
          isNotNull(quotes.exchange),
          eq(quotes.status, 'open'),
          ne(quotes.clientId, me.clientId),
          sql`${quotes.respondTo} IS NULL`,
          gt(quotes.expiresAt, deps.now()),
          gt(quotes.remainingQuantum, 0),
          sql`(${quotes.recipients} IS NULL OR ${me.clientId}::uuid = ANY(${quotes.recipients}))`,
          sql`NOT EXISTS (SELECT 1 FROM quotes r WHERE r.respond_to = ${quotes.id} AND r.client_id = ${me.clientId})`,
        ),
      )
      .orderBy(asc(quotes.createdAt))
      .limit(limit);
    const answered: string[] = [];
    for (const rfq of open) {
      const [reference] = await db
        .select({ yieldFraction: referencePrices.yieldFraction })
        .from(referencePrices)
        .where(eq(referencePrices.finstrumentId, rfq.finstrumentId))
        .orderBy(asc(referencePrices.priority))
        .limit(1);
      const around = reference?.yieldFraction ?? rfq.yieldFraction;
      // A response stands a few minutes (the raiser sees it count down), never past the RFQ's own end.
      const validUntil = Math.min(deps.now().getTime() + SIMULATED_RESPONSE_VALIDITY_MINUTES * 60_000, rfq.expiresAt.getTime());
      try {
        const response = await market.createQuote(
          me,
          {
            respond_to: rfq.id,
            quantum: rfq.remaining,
            // Quarter-basis-point yields, never a whole bp (-3.75 … +4.25 bp): a dealer tells the venue's
            // answers from what people type at a glance.
            yield_stored: round6(around + bp(Math.round(random() * 8 - 4) + 0.25)),
            fixed_field: 'yield',
            validity: SIMULATED_RESPONSE_VALIDITY_MINUTES,
            expiry_date_stored: new Date(validUntil).toISOString(),
            source: 'EXCHANGE',
            state: 'DEFAULT',
            yield_type: 'YTM',
            whatsapp_consent: false,
            is_best: false,
            send_to_rfq: true,
            price_overridden: false,
            counterparties: [],
          },
          AUDIT,
        );
        answered.push(response.id);
      } catch {
        // The RFQ closed meanwhile, or the venue refused: next tick.
      }
    }
    return answered;
  }

  async function tick(raise = true): Promise<void> {
    if (raise) await raiseRfq();
    await respond();
  }

  /**
   * Answers Dart firms' new RFQs `delayMs` after they reach the simulated firm: the market's live events
   * (`market.inquiries`, action created, addressed to the simulated firm) come through the bus from every
   * node, so an RFQ raised on any node is answered by the elected one. Returns the unsubscribe.
   */
  async function answerOnRaise(delayMs: number, isLeader: () => boolean = () => true): Promise<() => void> {
    const me = await self();
    // The bus calls us inside the raising request's async context (its Idempotency-Key claim among it);
    // the answer must not run in it, or its own transaction would be fenced as that request's. Timers are
    // therefore made in the context this subscription was set up in.
    const outsideTheRequest = AsyncResource.bind((work: () => void) => work());
    const off = deps.bus.subscribe((message) => {
      if (message.topic !== MARKET_TOPICS.inquiries || message.clientId !== me.clientId || !isLeader()) return;
      const payload = message.payload as { action?: string; quote?: { respond_to?: string | null; client_name?: unknown } | null };
      if (payload.action !== 'created' || !payload.quote || payload.quote.respond_to) return;
      // One answer run for a burst of RFQs (each is announced once per receiving firm).
      if (answerTimer) return;
      outsideTheRequest(() => {
        answerTimer = setTimeout(() => {
          answerTimer = null;
          void serial(() => respond(20)).catch(() => undefined);
        }, delayMs);
        answerTimer.unref();
      });
    });
    return () => {
      off();
      if (answerTimer) clearTimeout(answerTimer);
      answerTimer = null;
    };
  }

  return {
    self,
    raiseRfq,
    respond: (limit?: number) => serial(() => respond(limit)),
    tick: (raise?: boolean) => serial(() => tick(raise)),
    answerOnRaise,
    /**
     * Acts every `intervalMs` on the elected node only, so a cluster behaves like one participant firm;
     * `raise: false` only answers; `answerDelayMs` > 0 also answers each new RFQ that long after its raise.
     */
    start(intervalMs: number, isLeader: () => boolean = () => true, options: ParticipantsStartOptions = {}): void {
      const raise = options.raise ?? true;
      stopped = false;
      timer = setInterval(() => {
        if (isLeader()) void serial(() => tick(raise)).catch(() => undefined);
      }, intervalMs);
      timer.unref();
      if (options.answerDelayMs && options.answerDelayMs > 0)
        void answerOnRaise(options.answerDelayMs, isLeader)
          .then((off) => {
            if (stopped) off();
            else unsubscribe = off;
          })
          .catch(() => undefined);
    },
    stop(): void {
      stopped = true;
      if (timer) clearInterval(timer);
      unsubscribe?.();
      unsubscribe = null;
    },
  };
}
export type SimulatedParticipants = ReturnType<typeof createSimulatedParticipants>;
