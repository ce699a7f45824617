/**
 * From source rows to alert drafts: each builder applies a rule (surveillance.rules.ts) and writes one draft per Dart
 * firm involved, holding that firm's side of the evidence only (its own quote, ticket side and order; the deal and the
 * chat both firms saw). The audit rows are attached afterwards by the scanner (`entityIds`: what to look them up by).
 */
import { formatIndianNumber, SURVEILLANCE_ALERT_KIND_LABELS } from '@dart/contracts';
import type { AlertDraft, StoredEvidence } from './surveillance.repository';
import {
  assessOffMarket,
  assessReporting,
  chatBeforeTradeScore,
  findLexiconHits,
  isWashPair,
  lexiconScore,
  mentionsBond,
  pairKey,
  spoofScore,
  washScore,
  yearsBetween,
  type QuoteLife,
} from './surveillance.rules';
import type { BondRow, ChatMentionRow, ChatRow, DealRow, LateOrderRow, QuoteRow, TicketRow } from './surveillance.sources';

/** A draft and the ids its firm's audit rows are looked up by. */
export interface Pending {
  draft: AlertDraft;
  entityIds: string[];
}

export interface Lookups {
  bonds: Map<number, BondRow>;
  firms: Map<string, string>;
}

type Item = StoredEvidence['items'][number];

const EXCERPT_MAX = 300;
const excerpt = (text: string) => (text.length > EXCERPT_MAX ? `${text.slice(0, EXCERPT_MAX - 1)}…` : text);
const pct = (fraction: number) => `${(fraction * 100).toFixed(4)}%`;
const bondName = (bond: BondRow | undefined) => (bond ? `${bond.display_name} (${bond.isin})` : 'an unknown bond');
const firmName = (l: Lookups, id: string) => l.firms.get(id) ?? 'another firm';

function dealItem(deal: DealRow, l: Lookups): Item {
  return {
    type: 'deal',
    id: deal.id,
    at: deal.created_at.toISOString(),
    excerpt: `${firmName(l, deal.buyer_client_id)} bought ${formatIndianNumber(deal.quantum, 0)} face of ${bondName(
      l.bonds.get(deal.finstrument_id),
    )} from ${firmName(l, deal.seller_client_id)} at yield ${pct(deal.yield_fraction)}, price ${deal.price.toFixed(4)}`,
  };
}

/** The firm's own side of a deal: its quote, the ticket (both sides see it) and its own order. */
function ownSide(deal: DealRow, firm: string): Item[] {
  const buyer = deal.buyer_client_id === firm;
  const quote = buyer ? deal.bid_quote_id : deal.ask_quote_id;
  const order = buyer ? deal.buyer_order_id : deal.seller_order_id;
  const items: Item[] = [];
  if (quote) items.push({ type: 'quote', id: quote, at: null, excerpt: `Our ${buyer ? 'bid' : 'offer'} behind the deal` });
  if (deal.ticket_id) items.push({ type: 'ticket', id: deal.ticket_id, at: null, excerpt: 'The trade ticket of the deal' });
  if (order) items.push({ type: 'order', id: order, at: null, excerpt: `Our ${buyer ? 'procurement order' : 'order'} of the deal` });
  return items;
}

const entityIdsOf = (items: readonly Item[]) => items.map((i) => i.id);

/* ------------------------------------------------------------ off-market ------------------------------------------------------------ */

function offMarketFacts(bond: BondRow, finding: NonNullable<ReturnType<typeof assessOffMarket>>, yieldFraction: number) {
  return {
    isin: bond.isin,
    yield: Number(yieldFraction.toFixed(6)),
    reference_yield: bond.reference_yield,
    deviation_bp: finding.deviationBp,
    band_bp: finding.bandBp,
    rating_group: finding.group,
  };
}

function offMarketOf(bond: BondRow | undefined, yieldFraction: number, asOf: Date) {
  if (!bond) return null;
  return assessOffMarket({
    yieldFraction,
    referenceYield: bond.reference_yield,
    securityType: bond.security_type,
    rating: bond.credit_rating,
    tenorYears: yearsBetween(asOf, bond.maturity_date),
  });
}

export function offMarketQuotes(quotes: readonly QuoteRow[], l: Lookups): Pending[] {
  const out: Pending[] = [];
  for (const q of quotes) {
    const bond = l.bonds.get(q.finstrument_id);
    const finding = offMarketOf(bond, q.yield_fraction, q.created_at);
    if (!finding || !bond) continue;
    const items: Item[] = [
      {
        type: 'quote',
        id: q.id,
        at: q.created_at.toISOString(),
        excerpt: `${q.quote_type} ${formatIndianNumber(q.quantum, 0)} face of ${bondName(bond)} at yield ${pct(q.yield_fraction)}, price ${q.price.toFixed(4)} (${q.status})`,
      },
    ];
    out.push({
      draft: {
        clientId: q.client_id,
        kind: 'off_market',
        score: finding.score,
        title: `Off-market ${q.quote_type === 'BID' ? 'bid' : 'offer'} in ${bond.display_name}`,
        summary: `Quoted at yield ${pct(q.yield_fraction)}, ${Math.abs(finding.deviationBp)} bp ${finding.deviationBp > 0 ? 'above' : 'below'} the reference ${pct(bond.reference_yield!)} (band ±${finding.bandBp} bp).`,
        evidence: { items, facts: offMarketFacts(bond, finding, q.yield_fraction) },
        dedupeKey: `off_market:quote:${q.id}`,
        groupKey: null,
        occurredAt: q.created_at,
      },
      entityIds: entityIdsOf(items),
    });
  }
  return out;
}

export function offMarketDeals(deals: readonly DealRow[], l: Lookups): Pending[] {
  const out: Pending[] = [];
  for (const deal of deals) {
    const bond = l.bonds.get(deal.finstrument_id);
    const finding = offMarketOf(bond, deal.yield_fraction, deal.created_at);
    if (!finding || !bond) continue;
    for (const firm of [deal.buyer_client_id, deal.seller_client_id]) {
      const other = firm === deal.buyer_client_id ? deal.seller_client_id : deal.buyer_client_id;
      const items = [dealItem(deal, l), ...ownSide(deal, firm)];
      out.push({
        draft: {
          clientId: firm,
          kind: 'off_market',
          score: finding.score,
          title: `Off-market deal in ${bond.display_name} with ${firmName(l, other)}`,
          summary: `Dealt at yield ${pct(deal.yield_fraction)}, ${Math.abs(finding.deviationBp)} bp ${finding.deviationBp > 0 ? 'above' : 'below'} the reference ${pct(bond.reference_yield!)} (band ±${finding.bandBp} bp).`,
          evidence: { items, facts: offMarketFacts(bond, finding, deal.yield_fraction) },
          dedupeKey: `off_market:deal:${deal.id}`,
          groupKey: pairKey(deal.buyer_client_id, deal.seller_client_id),
          occurredAt: deal.created_at,
        },
        entityIds: entityIdsOf(items),
      });
    }
  }
  return out;
}

export function offMarketTickets(tickets: ReadonlyArray<TicketRow & { own: boolean }>, l: Lookups): Pending[] {
  const out: Pending[] = [];
  for (const t of tickets) {
    if (!t.own) continue;
    const bond = l.bonds.get(t.finstrument_id);
    const finding = offMarketOf(bond, t.yield_fraction, t.traded_at);
    if (!finding || !bond) continue;
    const number = `TKT-${String(t.number).padStart(6, '0')}`;
    for (const firm of new Set([t.buyer_client_id, t.seller_client_id])) {
      const items: Item[] = [
        {
          type: 'ticket',
          id: t.id,
          at: t.traded_at.toISOString(),
          excerpt: `${number}: ${firmName(l, t.buyer_client_id)} buys ${formatIndianNumber(t.quantum, 0)} face of ${bondName(bond)} from ${firmName(l, t.seller_client_id)} at yield ${pct(t.yield_fraction)}, price ${t.price.toFixed(4)}`,
        },
      ];
      out.push({
        draft: {
          clientId: firm,
          kind: 'off_market',
          score: finding.score,
          title: `Off-market ticket ${number} in ${bond.display_name}`,
          summary: `Ticketed at yield ${pct(t.yield_fraction)}, ${Math.abs(finding.deviationBp)} bp from the reference ${pct(bond.reference_yield!)} (band ±${finding.bandBp} bp).`,
          evidence: { items, facts: offMarketFacts(bond, finding, t.yield_fraction) },
          dedupeKey: `off_market:ticket:${t.id}`,
          groupKey: pairKey(t.buyer_client_id, t.seller_client_id),
          occurredAt: t.traded_at,
        },
        entityIds: entityIdsOf(items),
      });
    }
  }
  return out;
}

/* ------------------------------------------------------------ late reporting ------------------------------------------------------------ */

export function lateReports(orders: readonly LateOrderRow[], l: Lookups, now: Date): Pending[] {
  const out: Pending[] = [];
  for (const o of orders) {
    const finding = assessReporting(o.traded_at, o.reported_at, now);
    if (!finding) continue;
    const number = `${o.kind === 'order' ? 'ORD' : 'PRO'}-${String(o.number).padStart(6, '0')}`;
    const bond = l.bonds.get(o.finstrument_id);
    const items: Item[] = [
      {
        type: 'order',
        id: o.id,
        at: o.traded_at.toISOString(),
        excerpt: `${number}: ${bondName(bond)} with ${firmName(l, o.counterparty_client_id)}, traded ${o.traded_at.toISOString()}, ${
          o.reported_at ? `reported ${o.reported_at.toISOString()}` : `not reported (${o.state})`
        } on ${o.exchange}`,
      },
      { type: 'ticket', id: o.ticket_id, at: null, excerpt: 'The trade ticket of the order' },
    ];
    out.push({
      draft: {
        clientId: o.client_id,
        kind: 'late_report',
        score: finding.score,
        title: `${finding.missing ? 'Unreported' : 'Late reported'} trade ${number}`,
        summary: finding.missing
          ? `Not reported to ${o.exchange} ${finding.minutesLate} minutes after the 15-minute deadline.`
          : `Reported to ${o.exchange} ${finding.minutesLate} minutes after the 15-minute deadline.`,
        evidence: {
          items,
          facts: { order: number, exchange: o.exchange, missing: finding.missing, minutes_late: finding.minutesLate, state: o.state },
        },
        dedupeKey: `late_report:order:${o.id}`,
        groupKey: pairKey(o.client_id, o.counterparty_client_id),
        occurredAt: new Date(o.traded_at.getTime() + 15 * 60_000),
      },
      entityIds: entityIdsOf(items),
    });
  }
  return out;
}

/* ------------------------------------------------------------ chat lexicon ------------------------------------------------------------ */

/** File names are matched with their separators read as spaces (`side_deal-terms.pdf` → "side deal terms pdf"). */
const fileWords = (name: string) => name.replace(/[_\-.]+/g, ' ');

export function lexiconHits(messages: readonly ChatRow[], channelFirms: Map<string, string[]>, l: Lookups): Pending[] {
  const out: Pending[] = [];
  for (const m of messages) {
    if (!m.sender_client_id) continue;
    const hits = findLexiconHits(`${m.message}\n${m.file_name ? fileWords(m.file_name) : ''}`);
    if (hits.length === 0) continue;
    const others = (channelFirms.get(m.channel_id) ?? []).filter((f) => f !== m.sender_client_id);
    const items: Item[] = [
      { type: 'chat_message', id: m.id, at: m.created_at.toISOString(), excerpt: excerpt(`${m.channel_name || 'Chat'}: "${m.message}"`) },
    ];
    if (m.file_id && m.file_name) items.push({ type: 'chat_file', id: m.file_id, at: m.created_at.toISOString(), excerpt: m.file_name });
    const terms = [...new Set(hits.map((h) => h.term))];
    out.push({
      draft: {
        clientId: m.sender_client_id,
        kind: 'chat_lexicon',
        score: lexiconScore(hits),
        title: `Chat lexicon: "${terms[0]}"${terms.length > 1 ? ` and ${terms.length - 1} more` : ''}`,
        summary: `A message in ${m.channel_name ? `"${m.channel_name}"` : 'a chat'}${
          others.length > 0 ? ` with ${others.map((f) => firmName(l, f)).join(', ')}` : ''
        } uses ${terms.map((t) => `"${t}"`).join(', ')}.`,
        evidence: {
          items,
          facts: { terms: terms.join(', '), categories: [...new Set(hits.map((h) => h.category))].join(', '), sender_user_id: m.sender_id },
        },
        dedupeKey: `chat_lexicon:${m.id}`,
        // Linked with later alerts between the same two firms (e.g. an off-market deal) when the chat had exactly one other firm.
        groupKey: others.length === 1 ? pairKey(m.sender_client_id, others[0]!) : null,
        occurredAt: m.created_at,
      },
      entityIds: [],
    });
  }
  return out;
}

/* ------------------------------------------------------------ chat before trade ------------------------------------------------------------ */

/** The lower-case strings a chat may name the bond by (ISIN, display name, symbols). */
export function bondNeedles(bond: BondRow): string[] {
  return [bond.isin, bond.display_name, bond.nse_symbol, bond.bse_symbol]
    .filter((n): n is string => Boolean(n && n.trim().length >= 4))
    .map((n) => n.trim().toLowerCase());
}

export function chatBeforeTrade(deal: DealRow, mentions: readonly ChatMentionRow[], l: Lookups): Pending[] {
  const bond = l.bonds.get(deal.finstrument_id);
  if (!bond) return [];
  const named = mentions.filter((m) =>
    mentionsBond(m.message, { isin: bond.isin, names: [bond.display_name, bond.nse_symbol, bond.bse_symbol] }),
  );
  if (named.length === 0) return [];
  const first = named[0]!;
  const minutesBefore = Math.round((deal.created_at.getTime() - first.created_at.getTime()) / 60_000);
  const score = chatBeforeTradeScore(named.length, minutesBefore);
  return [deal.buyer_client_id, deal.seller_client_id].map((firm) => {
    const other = firm === deal.buyer_client_id ? deal.seller_client_id : deal.buyer_client_id;
    const items: Item[] = [
      ...named.map((m) => ({
        type: 'chat_message' as const,
        id: m.id,
        at: m.created_at.toISOString(),
        excerpt: excerpt(`${m.channel_name || 'Chat'}: "${m.message}"`),
      })),
      dealItem(deal, l),
      ...ownSide(deal, firm),
    ];
    return {
      draft: {
        clientId: firm,
        kind: 'chat_before_trade' as const,
        score,
        title: `Chat before trade in ${bond.display_name} with ${firmName(l, other)}`,
        summary: `${named.length} chat message${named.length === 1 ? '' : 's'} naming the bond, the first ${beforeDeal(minutesBefore)} the deal.`,
        evidence: { items, facts: { isin: bond.isin, messages: named.length, minutes_before_deal: minutesBefore } },
        dedupeKey: `chat_before_trade:deal:${deal.id}`,
        groupKey: pairKey(deal.buyer_client_id, deal.seller_client_id),
        occurredAt: deal.created_at,
      },
      entityIds: entityIdsOf(items.filter((i) => i.type !== 'chat_message')),
    };
  });
}

/* ------------------------------------------------------------ wash trades ------------------------------------------------------------ */

const leg = (d: DealRow) => ({
  id: d.id,
  finstrumentId: d.finstrument_id,
  buyerClientId: d.buyer_client_id,
  sellerClientId: d.seller_client_id,
  quantum: d.quantum,
  createdAt: d.created_at,
});

export function washTrades(deal: DealRow, reverses: readonly DealRow[], l: Lookups): Pending[] {
  const out: Pending[] = [];
  const bond = l.bonds.get(deal.finstrument_id);
  for (const other of reverses) {
    if (!isWashPair(leg(deal), leg(other))) continue;
    const [a, b] = deal.created_at <= other.created_at ? [deal, other] : [other, deal];
    const score = washScore(leg(a), leg(b));
    for (const firm of [deal.buyer_client_id, deal.seller_client_id]) {
      const counterparty = firm === deal.buyer_client_id ? deal.seller_client_id : deal.buyer_client_id;
      const items = [dealItem(a, l), ...ownSide(a, firm), dealItem(b, l), ...ownSide(b, firm)];
      out.push({
        draft: {
          clientId: firm,
          kind: 'wash_trade',
          score,
          title: `Wash trade in ${bond?.display_name ?? 'a bond'} with ${firmName(l, counterparty)}`,
          summary: `Bought and sold back between the same two firms within ${Math.round((b.created_at.getTime() - a.created_at.getTime()) / 60_000)} minutes.`,
          evidence: { items, facts: { isin: bond?.isin ?? null, first_deal: a.id, second_deal: b.id } },
          dedupeKey: `wash_trade:${a.id}:${b.id}`,
          groupKey: pairKey(deal.buyer_client_id, deal.seller_client_id),
          occurredAt: b.created_at,
        },
        entityIds: entityIdsOf(items),
      });
    }
  }
  return out;
}

/* ------------------------------------------------------------ spoofing ------------------------------------------------------------ */

export function spoofing(runs: ReadonlyArray<{ quotes: readonly QuoteRow[] }>, l: Lookups): Pending[] {
  return runs.map(({ quotes }) => {
    const first = quotes[0]!;
    const bond = l.bonds.get(first.finstrument_id);
    const items: Item[] = quotes.map((q) => ({
      type: 'quote',
      id: q.id,
      at: q.created_at.toISOString(),
      excerpt: `${q.quote_type} ${formatIndianNumber(q.quantum, 0)} at yield ${pct(q.yield_fraction)}: placed ${q.created_at.toISOString()}, ${q.status} after ${Math.round(
        (q.updated_at.getTime() - q.created_at.getTime()) / 1000,
      )} s, nothing traded`,
    }));
    const last = quotes.at(-1)!;
    return {
      draft: {
        clientId: first.client_id,
        kind: 'spoofing',
        score: spoofScore(quotes.length),
        title: `${SURVEILLANCE_ALERT_KIND_LABELS.spoofing} in ${bond?.display_name ?? 'a bond'}`,
        summary: `${quotes.length} quotes placed and pulled within seconds, none traded, within ${Math.ceil(
          (last.created_at.getTime() - first.created_at.getTime()) / 1000,
        )} s.`,
        evidence: { items, facts: { isin: bond?.isin ?? null, pulled_quotes: quotes.length } },
        dedupeKey: `spoofing:${first.id}`,
        groupKey: null,
        occurredAt: last.updated_at,
      },
      entityIds: entityIdsOf(items),
    };
  });
}

export const quoteLife = (q: QuoteRow): QuoteLife => ({
  id: q.id,
  createdAt: q.created_at,
  endedAt: q.updated_at,
  quantum: q.quantum,
  remainingQuantum: q.remaining_quantum,
});

/** How long before the deal the first message came, in words ("under a minute before", "1 minute before", "2 hours 5 minutes before"). */
export function beforeDeal(minutes: number): string {
  if (minutes < 1) return 'under a minute before';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const part = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (hours === 0) return `${part(rest, 'minute')} before`;
  return `${part(hours, 'hour')}${rest > 0 ? ` ${part(rest, 'minute')}` : ''} before`;
}
