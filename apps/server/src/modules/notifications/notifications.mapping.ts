/**
 * Which outbox events become notifications, for whom, and with what words (README "Mapping"). Pure: the producer
 * looks up what the payloads do not carry (the firms of a negotiation, the owner of a quote, the bond's name,
 * who wrote a support reply) and passes it in.
 */
import {
  ACCOUNT_TOPICS,
  formatRupeesCompact,
  MARKET_TOPICS,
  NOTIFY_SOURCE_TOPICS,
  POST_TRADE_TOPICS,
  REPORTING_ALERT_MINUTES,
  REPORTING_DEADLINE_MINUTES,
  TICKET_HISTORY_LABELS,
  ticketNumber,
  type NotificationCategory,
} from '@dart/contracts';

/** An events row as the producer reads it. */
export interface SourceEvent {
  position: number;
  topic: string;
  clientId: string | null;
  payload: unknown;
}

/** What the producer must look up before mapping a batch. */
export interface Lookups {
  negotiations: ReadonlyMap<string, { quoterClientId: string; responderClientId: string }>;
  quotes: ReadonlyMap<string, { clientId: string; finstrumentId: number }>;
  bonds: ReadonlyMap<number, { isin: string; displayName: string }>;
  /** Support ticket id → whether its latest message is Dart Support's. */
  supportLastByStaff: ReadonlyMap<string, boolean>;
  /** Chat channel url → its name ('' for a direct chat) and type. */
  chatChannels: ReadonlyMap<string, { name: string; customType: string }>;
  /** User id → name and firm (who invited). */
  people: ReadonlyMap<string, { name: string; firm: string }>;
}

export interface NeededLookups {
  negotiationIds: Set<string>;
  quoteIds: Set<string>;
  finstrumentIds: Set<number>;
  supportTicketIds: Set<string>;
  chatChannelUrls: Set<string>;
  userIds: Set<string>;
}

/** One notification to make: for one user, or for every trading user of the firm. */
export interface NotificationIntent {
  sourcePosition: number;
  clientId: string;
  /** Set: that user only. Unset: the firm's active users with `client.can_trade`. */
  userId?: string;
  category: NotificationCategory;
  kind: string;
  title: string;
  body: string;
  link: string | null;
}

/** The topics the producer reads payloads of; every other event only moves the cursor. */
export const NOTIFYING_TOPICS: readonly string[] = [
  MARKET_TOPICS.rfqNegotiation,
  MARKET_TOPICS.inquiries,
  MARKET_TOPICS.privateRun,
  MARKET_TOPICS.cluster,
  MARKET_TOPICS.considerationUpdate,
  POST_TRADE_TOPICS.refreshTickets,
  POST_TRADE_TOPICS.considerationUpdate,
  POST_TRADE_TOPICS.openOrders,
  'support.ticket_changed',
  NOTIFY_SOURCE_TOPICS.chatInvited,
  ACCOUNT_TOPICS.upgradeGranted,
];

const WORKSPACE = '/dart';
const ORDER_STATES_NOTIFIED = new Set(['reported', 'rejected', 'settled', 'failed']);

type Payload = Record<string, unknown> & {
  negotiation_id?: string;
  quote_id?: string;
  action?: string;
  status?: string;
  state?: string;
  finstrument_id?: number;
  ticket_id?: string;
  /** A ticket step's acting firm (null: the system's step). */
  actor_client_id?: string | null;
  /** An order's firm (`trade.open_orders`). */
  client_id?: string;
  user_id?: string;
  number?: number;
  channel_url?: string;
  inviter_id?: string;
  user_ids?: string[];
  last?: { action?: string; by_client?: 'quoter' | 'responder'; yield_stored?: number; quantum?: number };
  quote?: { finstrument_id?: number; side?: string } | null;
  yield?: number;
  quantum?: number;
};

const payloadOf = (event: SourceEvent) => (event.payload ?? {}) as Payload;

/** Records what `map` will need for `event`. */
export function collectLookups(event: SourceEvent, needed: NeededLookups): void {
  const p = payloadOf(event);
  switch (event.topic) {
    case MARKET_TOPICS.rfqNegotiation:
      if (p.negotiation_id) needed.negotiationIds.add(p.negotiation_id);
      if (p.quote_id) needed.quoteIds.add(p.quote_id);
      break;
    case MARKET_TOPICS.inquiries:
    case MARKET_TOPICS.privateRun:
      if (p.action === 'created' && p.quote_id) needed.quoteIds.add(p.quote_id);
      if (typeof p.finstrument_id === 'number') needed.finstrumentIds.add(p.finstrument_id);
      break;
    case MARKET_TOPICS.cluster:
    case MARKET_TOPICS.considerationUpdate:
      if (typeof p.finstrument_id === 'number') needed.finstrumentIds.add(p.finstrument_id);
      break;
    case 'support.ticket_changed':
      if (p.action === 'replied' && p.ticket_id) needed.supportTicketIds.add(p.ticket_id);
      break;
    case NOTIFY_SOURCE_TOPICS.chatInvited:
      if (p.channel_url) needed.chatChannelUrls.add(p.channel_url);
      if (p.inviter_id) needed.userIds.add(p.inviter_id);
      break;
  }
}

const percent = (fraction: number | undefined) => (typeof fraction === 'number' ? `${(fraction * 100).toFixed(4)}%` : '');
/** Quantum is face value in rupees (issue 12 §1): ₹1.00 Cr. */
const amount = (n: number | undefined) => (typeof n === 'number' ? formatRupeesCompact(n) : '');

function bondName(lookups: Lookups, finstrumentId: number | undefined): string {
  const bond = finstrumentId === undefined ? undefined : lookups.bonds.get(finstrumentId);
  return bond ? `${bond.displayName} (${bond.isin})` : 'a bond';
}

/** The notifications `event` makes (none for most events). */
export function mapEvent(event: SourceEvent, lookups: Lookups): NotificationIntent[] {
  const clientId = event.clientId;
  if (!clientId) return []; // market-wide events (public runs, refreshes) concern no one in particular
  const p = payloadOf(event);
  const base = { sourcePosition: event.position, clientId };
  switch (event.topic) {
    case MARKET_TOPICS.rfqNegotiation: {
      const negotiation = p.negotiation_id ? lookups.negotiations.get(p.negotiation_id) : undefined;
      const last = p.last;
      if (!negotiation || !last?.by_client) return [];
      const actingFirm = last.by_client === 'quoter' ? negotiation.quoterClientId : negotiation.responderClientId;
      if (actingFirm === clientId) return []; // the firm that acted knows already
      const quote = p.quote_id ? lookups.quotes.get(p.quote_id) : undefined;
      const bond = bondName(lookups, quote?.finstrumentId);
      if (last.action === 'accept')
        return [
          {
            ...base,
            category: 'negotiation',
            kind: 'negotiation.accepted',
            title: 'Counter accepted',
            body: `Your terms on ${bond} were accepted.`,
            link: WORKSPACE,
          },
        ];
      if (last.action === 'reject')
        return [
          {
            ...base,
            category: 'negotiation',
            kind: 'negotiation.rejected',
            title: 'Negotiation rejected',
            body: `The negotiation on ${bond} was rejected.`,
            link: WORKSPACE,
          },
        ];
      return [
        {
          ...base,
          category: 'negotiation',
          kind: 'negotiation.counter',
          title: 'Counter received',
          body: `A counter on ${bond}: yield ${percent(last.yield_stored)}, face value ${amount(last.quantum)}.`,
          link: WORKSPACE,
        },
      ];
    }
    case MARKET_TOPICS.inquiries:
    case MARKET_TOPICS.privateRun: {
      if (p.action !== 'created' || !p.quote_id) return [];
      const quote = lookups.quotes.get(p.quote_id);
      if (!quote || quote.clientId === clientId) return []; // the raiser's own copy
      const bond = bondName(lookups, p.finstrument_id);
      const exchangeRfq = event.topic === MARKET_TOPICS.inquiries;
      return [
        {
          ...base,
          category: 'rfq',
          kind: exchangeRfq ? 'rfq.exchange_received' : 'rfq.private_received',
          title: 'RFQ received',
          body: exchangeRfq ? `An exchange RFQ on ${bond} is open for your response.` : `A private run on ${bond} was sent to you.`,
          link: WORKSPACE,
        },
      ];
    }
    case MARKET_TOPICS.cluster:
      if (p.status !== 'proposed') return [];
      return [
        {
          ...base,
          category: 'match',
          kind: 'match.proposed',
          title: 'Match found',
          body: `Your quote on ${bondName(lookups, p.finstrument_id)} matched. Accept to trade.`,
          link: WORKSPACE,
        },
      ];
    case MARKET_TOPICS.considerationUpdate:
      return [
        {
          ...base,
          category: 'deal',
          kind: 'deal.done',
          title: 'Deal done',
          body: `${bondName(lookups, p.finstrument_id)}: face value ${amount(p.quantum)} at yield ${percent(p.yield)}.`,
          link: WORKSPACE,
        },
      ];
    case POST_TRADE_TOPICS.refreshTickets: {
      const ticket = typeof p.number === 'number' ? `Ticket ${ticketNumber(p.number)}` : 'A ticket';
      // The reporting deadline (orders README "Deadline"): its own words, not "a ticket was report alert".
      if (p.action === 'report_alert')
        return [
          {
            ...base,
            category: 'ticket',
            kind: 'ticket.report_alert',
            title: 'Reporting deadline approaching',
            body: `${ticket} is not reported ${REPORTING_ALERT_MINUTES} minutes after the trade; it must be reported within ${REPORTING_DEADLINE_MINUTES}.`,
            link: WORKSPACE,
          },
        ];
      if (p.action === 'report_escalated')
        return [
          {
            ...base,
            category: 'ticket',
            kind: 'ticket.report_escalated',
            title: 'Reporting deadline missed',
            body: `${ticket} was not reported within the ${REPORTING_DEADLINE_MINUTES}-minute deadline; it is escalated.`,
            link: WORKSPACE,
          },
        ];
      if (p.actor_client_id === clientId) return []; // the firm that acted knows already (its ticket refreshes live)
      const state = String(p.state ?? '').replace(/_/g, ' ');
      // The history's own stamp ("Quoted", "Consideration accepted"), as the ticket dialog shows it.
      const stamp =
        p.action && Object.hasOwn(TICKET_HISTORY_LABELS, p.action)
          ? TICKET_HISTORY_LABELS[p.action as keyof typeof TICKET_HISTORY_LABELS]
          : null;
      return [
        {
          ...base,
          category: 'ticket',
          kind: `ticket.${p.action ?? 'changed'}`,
          title: 'Ticket updated',
          body: stamp
            ? `${ticket}: ${stamp.toLowerCase()}; it is now ${state}.`
            : `${ticket} was ${String(p.action ?? 'changed').replace(/_/g, ' ')}; it is now ${state}.`,
          link: WORKSPACE,
        },
      ];
    }
    case POST_TRADE_TOPICS.considerationUpdate:
      if (p.actor_client_id === clientId) return []; // the firm that re-priced knows already
      return [
        {
          ...base,
          category: 'ticket',
          kind: 'ticket.consideration',
          title: 'Consideration updated',
          body: 'The consideration of a ticket changed.',
          link: WORKSPACE,
        },
      ];
    case POST_TRADE_TOPICS.openOrders: {
      const state = p.state ?? '';
      if (!ORDER_STATES_NOTIFIED.has(state)) return [];
      // The firm whose order it is: the counterparty hears of its own order (and of the ticket's step), not twice.
      if (p.client_id && p.client_id !== clientId) return [];
      return [
        {
          ...base,
          category: 'order',
          kind: `order.${state}`,
          title: `Order ${state}`,
          body: `An order was ${state} by the exchange.`,
          link: WORKSPACE,
        },
      ];
    }
    case 'support.ticket_changed': {
      if (!p.user_id || !p.ticket_id) return [];
      const ticket = p.number ? `#${p.number}` : '';
      if (p.action === 'replied') {
        if (lookups.supportLastByStaff.get(p.ticket_id) !== true) return []; // the requester's own message
        return [
          {
            ...base,
            userId: p.user_id,
            category: 'support',
            kind: 'support.reply',
            title: 'Support replied',
            body: `Dart Support replied to your request ${ticket}.`,
            link: '/support/requests',
          },
        ];
      }
      if (p.action === 'status')
        return [
          {
            ...base,
            userId: p.user_id,
            category: 'support',
            kind: 'support.status',
            title: 'Support request updated',
            body: `Your request ${ticket} is now ${String(p.status ?? '').replace(/_/g, ' ')}.`,
            link: '/support/requests',
          },
        ];
      return [];
    }
    case NOTIFY_SOURCE_TOPICS.chatInvited: {
      const channel = p.channel_url ? lookups.chatChannels.get(p.channel_url) : undefined;
      const inviter = p.inviter_id ? lookups.people.get(p.inviter_id) : undefined;
      if (!channel || !Array.isArray(p.user_ids)) return [];
      const who = inviter ? `${inviter.name} (${inviter.firm})` : 'Someone';
      const what = channel.customType === 'direct' || !channel.name ? 'a chat' : `the group “${channel.name}”`;
      return p.user_ids.map((userId) => ({
        ...base,
        userId,
        category: 'chat' as const,
        kind: 'chat.invited',
        title: 'Chat invitation',
        body: `${who} invited you to ${what}.`,
        link: WORKSPACE,
      }));
    }
    case ACCOUNT_TOPICS.upgradeGranted:
      if (!p.user_id) return [];
      return [
        {
          ...base,
          userId: p.user_id,
          category: 'account',
          kind: 'account.upgrade_granted',
          title: 'Upgrade granted',
          body: `Your organisation is now on the Premium plan${typeof p.number === 'number' ? ` (request #${p.number})` : ''}.`,
          link: '/support/requests',
        },
      ];
    default:
      return [];
  }
}
