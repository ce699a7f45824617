/**
 * Simulated participants of the NSE / BSE RFQ venues (part of the SIMULATOR, never a real exchange):
 * a firm "Simulated RFQ participants" that, on each tick, raises an RFQ on a real bond around its
 * reference yield (±10 bp, one-to-many, anonymous or disclosed at random, on NSE or BSE) and answers
 * open RFQs of Dart's firms around the reference yield (±5 bp). Everything goes through the market's
 * own calls (`createQuote`), so rules, audit and live events are the same as for a person.
 */
import type { ClientTier, ClientType, Permission, Role } from '@dart/contracts';
import { and, asc, desc, eq, gt, isNotNull, ne, sql } from 'drizzle-orm';
import { clients, quotes, referencePrices, userAccounts, users } from '../../db/schema';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import type { MarketService } from '../market';

export const SIMULATED_FIRM = 'Simulated RFQ participants (NSE/BSE)';
const SIM_EMAIL = 'participants@exchange-sim.dart';
const AUDIT = { actorEmail: 'system:exchange-simulator' };

export function createSimulatedParticipants(deps: AppDeps, market: MarketService, random: () => number = Math.random) {
  const db = deps.database.db;
  let principal: Principal | null = null;
  let timer: NodeJS.Timeout | null = null;

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
  async function someBond(): Promise<{ finstrumentId: number; yieldFraction: number } | undefined> {
    const rows = await db
      .select({ finstrumentId: referencePrices.finstrumentId, yieldFraction: referencePrices.yieldFraction })
      .from(referencePrices)
      .orderBy(asc(referencePrices.priority), desc(referencePrices.priceDate), asc(referencePrices.finstrumentId))
      .limit(1500);
    const best = new Map<number, number | null>();
    // Rows come best first, so the first row seen for a bond is its best one.
    for (const row of rows) if (!best.has(row.finstrumentId)) best.set(row.finstrumentId, row.yieldFraction);
    const candidates = [...best]
      .filter((entry): entry is [number, number] => entry[1] !== null && entry[1] > 0.01 && entry[1] < 0.2)
      .slice(0, 300)
      .map(([finstrumentId, yieldFraction]) => ({ finstrumentId, yieldFraction }));
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
            quantum: 100 * (1 + Math.floor(random() * 50)),
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
      try {
        const response = await market.createQuote(
          me,
          {
            respond_to: rfq.id,
            quantum: rfq.remaining,
            yield_stored: round6(around + bp(Math.round(random() * 10 - 5))),
            fixed_field: 'yield',
            validity: 30,
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

  async function tick(): Promise<void> {
    await raiseRfq();
    await respond();
  }

  return {
    self,
    raiseRfq,
    respond,
    tick,
    /** Acts every `intervalMs` on the elected node only, so a cluster behaves like one participant firm. */
    start(intervalMs: number, isLeader: () => boolean = () => true): void {
      timer = setInterval(() => {
        if (isLeader()) void tick().catch(() => undefined);
      }, intervalMs);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
    },
  };
}
export type SimulatedParticipants = ReturnType<typeof createSimulatedParticipants>;
