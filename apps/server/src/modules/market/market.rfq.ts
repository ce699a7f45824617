/**
 * Raising exchange RFQs from Dart and answering them (issue 12 §3), kept apart from market.service.ts,
 * which calls these at four points:
 * - `normaliseRfqRaise` before anything else: a one-to-one RFQ names its participant in the spec's
 *   `oto_participant_details` (`{client_id, name?, …}`), which becomes its one counterparty;
 * - `recordRfqResponse` in the transaction that stores a response (`respond_to`) to an exchange RFQ:
 *   the response is also the latest counter in that participant's negotiation on the RFQ, so the raiser
 *   accepts it through the existing negotiation accept (deal → exchange report → settlement);
 * - `assertRfqTermsStand` before an acceptance: terms that came from a response stand only while the
 *   response is open and within its validity;
 * - `fillRfqResponses` in the acceptance's transaction: the participant's open responses are taken (filled).
 * `listMyRfqs` is `GET api/eoi/my-rfqs/`: the raiser's RFQs with every participant's latest terms.
 */
import {
  anonymousParticipant,
  EXCHANGE_MESSAGES,
  MARKET_TOPICS,
  MY_RFQS_MAX,
  MY_RFQS_RECENT_HOURS,
  OtoParticipantDetailsSchema,
  RFQ_MESSAGES,
  type MyRfq,
  type MyRfqResponse,
  type Quote,
  type QuoteAdd,
} from '@dart/contracts';
import { and, desc, eq, gt, inArray, isNotNull, isNull, or } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { clients, deals, finstruments, negotiations, quotes } from '../../db/schema';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { AppError, fieldError } from '../../lib/errors';
import type { DomainEvent } from '../../lib/events';
import type { Principal } from '../auth/principal';
import { createMarketRepository, type NegotiationRow, type QuoteRow, type QuoteWithBond } from './market.repository';

/** A counter in a negotiation; one made by a response quote names it (its validity is the terms'). */
type Counter = NegotiationRow['history'][number] & { response_id?: string };

/**
 * A one-to-one RFQ's participant: `oto_participant_details.client_id` (or, as before, exactly one
 * `counterparties` entry) becomes its one counterparty. Missing → 400 on `oto_participant_details`.
 * Other quotes pass unchanged. Whether the participant is enabled on the exchange is checked by the raise.
 */
export function normaliseRfqRaise(input: QuoteAdd): QuoteAdd {
  if (!input.send_to_rfq || input.respond_to || input.rfq_mode !== 'ONE_TO_ONE') return input;
  const counterparties = [...new Set(input.counterparties)];
  if (!input.oto_participant_details) {
    if (counterparties.length === 1) return { ...input, oto_participant_details: { client_id: counterparties[0]! } };
    if (counterparties.length > 1) throw fieldError('counterparties', EXCHANGE_MESSAGES.oneToOneNeedsOne);
    throw fieldError('oto_participant_details', RFQ_MESSAGES.otoParticipantRequired);
  }
  const details = OtoParticipantDetailsSchema.safeParse(input.oto_participant_details);
  if (!details.success) {
    const issue = details.error.issues[0]!;
    throw fieldError(['oto_participant_details', ...issue.path.map(String)].join('.'), issue.message);
  }
  if (counterparties.length > 0 && (counterparties.length !== 1 || counterparties[0] !== details.data.client_id))
    throw fieldError('oto_participant_details', RFQ_MESSAGES.otoParticipantMismatch);
  return { ...input, counterparties: [details.data.client_id] };
}

/**
 * In the response's transaction: its terms become the latest counter of the participant's open
 * negotiation on the RFQ (opened if none). Both firms hear of it (`market.rfq_negotiation`); on an
 * anonymous RFQ without either firm's user.
 */
export async function recordRfqResponse(
  tx: Tx,
  rfq: QuoteRow,
  response: QuoteRow,
  p: Principal,
  at: Date,
  audit: AuditContext,
  emit: (event: DomainEvent) => void,
): Promise<void> {
  const r = createMarketRepository(tx);
  const counter: Counter = {
    action: 'counter',
    by_client: 'responder',
    by_user_id: p.userId,
    at: at.toISOString(),
    unit_price_stored: response.price,
    yield_stored: response.yieldFraction,
    quantum: response.quantum,
    response_id: response.id,
  };
  const open = await r.openNegotiation(rfq.id, p.clientId);
  const saved = open
    ? await r.updateNegotiation(open.id, { history: [...open.history, counter] })
    : await r.insertNegotiation({
        quoteId: rfq.id,
        quoterClientId: rfq.clientId,
        responderClientId: p.clientId,
        history: [counter],
        status: 'open',
      });
  await writeAudit(tx, audit, { action: 'negotiation.counter', entity: 'negotiation', entityId: saved.id, after: counter });
  const payload = {
    negotiation_id: saved.id,
    quote_id: rfq.id,
    status: saved.status,
    last: rfq.rfqAnonymous ? { ...counter, by_user_id: '' } : counter,
  };
  for (const clientId of new Set([saved.quoterClientId, saved.responderClientId]))
    emit({ topic: MARKET_TOPICS.rfqNegotiation, clientId, payload });
}

/** Before an acceptance on an exchange RFQ: terms made by a response stand only while that response does. */
export async function assertRfqTermsStand(db: DbOrTx, last: Counter | undefined, now: Date): Promise<void> {
  if (!last?.response_id) return;
  const [response] = await db
    .select({ status: quotes.status, expiresAt: quotes.expiresAt })
    .from(quotes)
    .where(eq(quotes.id, last.response_id))
    .limit(1);
  if (!response || response.status !== 'open' || response.expiresAt <= now) throw new AppError('CONFLICT', RFQ_MESSAGES.responseNotOpen);
}

/** In the acceptance's transaction: the participant's open responses to the RFQ are taken (filled, nothing left). */
export async function fillRfqResponses(
  tx: Tx,
  rfqId: string,
  participantClientId: string,
  announceFilled: (responseId: string) => Promise<void>,
): Promise<void> {
  const taken = await tx
    .update(quotes)
    .set({ status: 'filled', remainingQuantum: 0, updatedAt: new Date() })
    .where(and(eq(quotes.respondTo, rfqId), eq(quotes.clientId, participantClientId), eq(quotes.status, 'open')))
    .returning({ id: quotes.id });
  for (const { id } of taken) await announceFilled(id);
}

/**
 * `GET api/eoi/my-rfqs/`: the firm's exchange RFQs (open, or ended within MY_RFQS_RECENT_HOURS), newest
 * first, at most MY_RFQS_MAX, each with every participant's negotiation and its latest terms.
 */
export async function listMyRfqs(db: DbOrTx, p: Principal, now: Date, view: (row: QuoteWithBond) => Quote): Promise<MyRfq[]> {
  const since = new Date(now.getTime() - MY_RFQS_RECENT_HOURS * 3_600_000);
  const rows = await db
    .select({ quote: quotes, isin: finstruments.isin, displayName: finstruments.displayName, clientName: clients.name })
    .from(quotes)
    .innerJoin(finstruments, eq(finstruments.id, quotes.finstrumentId))
    .innerJoin(clients, eq(clients.id, quotes.clientId))
    .where(
      and(
        eq(quotes.clientId, p.clientId),
        isNotNull(quotes.exchange),
        isNull(quotes.respondTo),
        or(eq(quotes.status, 'open'), gt(quotes.updatedAt, since)),
      ),
    )
    .orderBy(desc(quotes.createdAt), desc(quotes.id))
    .limit(MY_RFQS_MAX);
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.quote.id);
  // The threads first, then what they point at: each read is its own snapshot, and a response (or a deal)
  // commits with its thread, so one read after the threads sees every response a thread names. Read side
  // by side, the responses could be read just before a response's commit and its thread just after: a
  // standing response shown as not acceptable.
  const threads = await db.select().from(negotiations).where(inArray(negotiations.quoteId, ids)).orderBy(desc(negotiations.updatedAt));
  const [responses, dealRows, askDeals] = await Promise.all([
    db.select({ id: quotes.id, status: quotes.status, expiresAt: quotes.expiresAt }).from(quotes).where(inArray(quotes.respondTo, ids)),
    db.select({ id: deals.id, negotiationId: deals.negotiationId }).from(deals).where(inArray(deals.bidQuoteId, ids)),
    db.select({ id: deals.id, negotiationId: deals.negotiationId }).from(deals).where(inArray(deals.askQuoteId, ids)),
  ]);
  const dealOf = new Map([...dealRows, ...askDeals].map((d) => [d.negotiationId, d.id]));
  const responseById = new Map(responses.map((r) => [r.id, r]));
  const responderIds = [...new Set(threads.map((t) => t.responderClientId))];
  const names =
    responderIds.length === 0
      ? new Map<string, string>()
      : new Map(
          (await db.select({ id: clients.id, name: clients.name }).from(clients).where(inArray(clients.id, responderIds))).map((c) => [
            c.id,
            c.name,
          ]),
        );
  return rows.map((row) => {
    const rfq = row.quote;
    const rfqOpen = rfq.status === 'open' && rfq.expiresAt > now;
    const quote = view(row);
    const answers: MyRfqResponse[] = threads
      .filter((t) => t.quoteId === rfq.id && t.history.length > 0)
      .map((t) => {
        const last = t.history.at(-1)! as Counter;
        const response = last.response_id ? responseById.get(last.response_id) : undefined;
        const validUntil = response ? (response.expiresAt < rfq.expiresAt ? response.expiresAt : rfq.expiresAt) : rfq.expiresAt;
        const stands = last.response_id ? response?.status === 'open' && validUntil > now : validUntil > now;
        return {
          negotiation_id: t.id,
          status: t.status as MyRfqResponse['status'],
          participant: rfq.rfqAnonymous ? anonymousParticipant(rfq.exchange!) : (names.get(t.responderClientId) ?? ''),
          last_by: last.by_client,
          unit_price_stored: last.unit_price_stored,
          yield_stored: last.yield_stored,
          quantum: last.quantum,
          at: last.at,
          valid_until: validUntil.toISOString(),
          response_id: last.response_id ?? null,
          can_accept: t.status === 'open' && last.by_client === 'responder' && rfqOpen && rfq.remainingQuantum > 0 && stands,
          deal_id: dealOf.get(t.id) ?? null,
        };
      });
    const due = quote.status === 'open' && !rfqOpen;
    return { ...(due ? { ...quote, status: 'expired' as const } : quote), responses: answers };
  });
}
