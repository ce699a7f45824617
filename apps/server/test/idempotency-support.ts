/**
 * The idempotent routes as scenarios, shared by the one-node (both drivers) and the two-node suites:
 * each prepares what its submit needs through the API and says how to count the submit's effect in
 * the database. `x-request-id` is set per request, so "exactly one effect" is also checked through the
 * audit trail: only one of the concurrent requests may have written audit rows.
 */
import { expect } from 'vitest';

/** Sizes are face value in rupees (issue 12 §1): ₹1 L is one ₹1 L NCD or 1,000 G-sec bonds. */
const LAKH = 100_000;

export type Who = 'demo' | 'second' | 'ops';
export interface Submit {
  who: Who;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  json?: unknown;
  raw?: { body: string; contentType: string };
}
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}
export interface Harness {
  /** Sends on node `node` (one-node suites: always the one app). */
  send(node: number, submit: Submit, headers?: Record<string, string>): Promise<Answer>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  users: Record<Who, { id: string; clientId: string }>;
  gsec: number;
  /** Venue RFQs live on every node's SimulatedExchange. */
  venueRfqs(): Promise<number>;
}
export interface Scenario {
  name: string;
  prepare(h: Harness): Promise<{ submit: Submit; effect: () => Promise<number> }>;
}

let sequence = 0;
/**
 * A quantum no other scenario uses, so rows can be told apart: face value in rupees (issue 12 §1), a
 * whole number of ₹100 G-sec bonds (₹1 L to about ₹90 Cr).
 */
export const uniqueQuantum = () => (1000 + Math.floor(Math.random() * 900_000) * 10 + (++sequence % 10)) * 100;

export async function ok<T = Record<string, unknown>>(h: Harness, submit: Submit): Promise<T> {
  const answer = await h.send(0, submit);
  expect(answer.status, `${submit.method} ${submit.url}: ${answer.body}`).toBeLessThan(300);
  return JSON.parse(answer.body) as T;
}
const count = async (h: Harness, sql: string, params: unknown[]) => Number((await h.query<{ n: string }>(sql, params))[0]!.n);
const auditCount = (h: Harness, action: string, entityId: string) =>
  count(h, `SELECT count(*)::text AS n FROM audit_log WHERE action = $1 AND entity_id = $2`, [action, entityId]);

const quote = (h: Harness, who: Who, body: Record<string, unknown> = {}) =>
  ok<{ id: string; exchange_ref: string | null }>(h, {
    who,
    method: 'POST',
    url: '/api/trade/eoi/',
    json: { quantum: uniqueQuantum(), finstrument_id: h.gsec, yield_stored: 0.0712, validity: 60, ...body },
  });
/** A proposed cluster: a demo BID and a second ASK at one yield cross at once. */
async function cluster(h: Harness) {
  const quantum = uniqueQuantum();
  const bid = await quote(h, 'demo', { quantum, yield_stored: 0.0655 });
  await quote(h, 'second', { quantum, yield_stored: 0.0655, quote_type: 'ASK' });
  const [row] = await h.query<{ id: string }>(`SELECT id FROM clusters WHERE bid_quote_id = $1 AND status = 'proposed'`, [bid.id]);
  expect(row, 'a proposed cluster').toBeDefined();
  return { id: row!.id, bidId: bid.id };
}
async function group(h: Harness, name: string) {
  return ok<{ url: string }>(h, {
    who: 'demo',
    method: 'POST',
    url: '/api/chat/channels/',
    json: { customType: 'group', name, invitedUserIds: [h.users.second.id] },
  });
}
const stamp = () => `${Date.now().toString(36)}${(++sequence).toString(36)}`;

export const SCENARIOS: Scenario[] = [
  {
    name: 'POST api/trade/eoi/ (quote)',
    prepare: async (h) => {
      const quantum = uniqueQuantum();
      return {
        submit: { who: 'demo', method: 'POST', url: '/api/trade/eoi/', json: { quantum, finstrument_id: h.gsec, yield_stored: 0.0701 } },
        effect: () => count(h, `SELECT count(*)::text AS n FROM quotes WHERE quantum = $1`, [quantum]),
      };
    },
  },
  {
    name: 'POST api/eoi/add/ (response)',
    prepare: async (h) => {
      const target = await quote(h, 'demo');
      return {
        submit: {
          who: 'second',
          method: 'POST',
          url: '/api/eoi/add/',
          json: { respond_to: target.id, quantum: 10 * LAKH, yield_stored: 0.0702 },
        },
        effect: () => count(h, `SELECT count(*)::text AS n FROM quotes WHERE respond_to = $1`, [target.id]),
      };
    },
  },
  {
    name: 'POST api/trade/eoi/ send_to_rfq (exchange RFQ raise)',
    prepare: async (h) => {
      const quantum = uniqueQuantum();
      const venueBefore = await h.venueRfqs();
      return {
        submit: {
          who: 'demo',
          method: 'POST',
          url: '/api/trade/eoi/',
          json: { quantum, finstrument_id: h.gsec, yield_stored: 0.0712, send_to_rfq: true, clearing_corporation: 'NSCCL' },
        },
        effect: async () => {
          const stored = await count(h, `SELECT count(*)::text AS n FROM quotes WHERE quantum = $1 AND exchange = 'NSE'`, [quantum]);
          // Nothing reached the venue for the duplicates: exactly one new RFQ there too.
          expect((await h.venueRfqs()) - venueBefore).toBe(stored);
          return stored;
        },
      };
    },
  },
  {
    name: 'POST api/eoi/add/ (exchange RFQ response)',
    prepare: async (h) => {
      const rfq = await quote(h, 'demo', { send_to_rfq: true, clearing_corporation: 'NSCCL' });
      return {
        submit: {
          who: 'second',
          method: 'POST',
          url: '/api/eoi/add/',
          json: { respond_to: rfq.id, quantum: 10 * LAKH, yield_stored: 0.0713 },
        },
        effect: () => count(h, `SELECT count(*)::text AS n FROM quotes WHERE respond_to = $1`, [rfq.id]),
      };
    },
  },
  {
    name: 'PUT api/trade/d/eoi/{id}/close/',
    prepare: async (h) => {
      const q = await quote(h, 'demo');
      return {
        submit: { who: 'demo', method: 'PUT', url: `/api/trade/d/eoi/${q.id}/close/` },
        effect: () => auditCount(h, 'quote.closed', q.id),
      };
    },
  },
  {
    name: 'PUT api/trade/d/eoi/close/ (several)',
    prepare: async (h) => {
      const [a, b] = [await quote(h, 'demo'), await quote(h, 'demo')];
      return {
        submit: { who: 'demo', method: 'PUT', url: '/api/trade/d/eoi/close/', json: { ids: [a.id, b.id] } },
        effect: () => auditCount(h, 'quote.closed', b.id),
      };
    },
  },
  {
    name: 'POST api/eoi/expire/{id}/',
    prepare: async (h) => {
      const q = await quote(h, 'demo');
      return {
        submit: { who: 'demo', method: 'POST', url: `/api/eoi/expire/${q.id}/` },
        effect: () => auditCount(h, 'quote.expired', q.id),
      };
    },
  },
  {
    name: 'PUT api/eoi/update/{id}/',
    prepare: async (h) => {
      const q = await quote(h, 'demo');
      return {
        submit: { who: 'demo', method: 'PUT', url: `/api/eoi/update/${q.id}/`, json: { quantum: uniqueQuantum() } },
        effect: () => auditCount(h, 'quote.updated', q.id),
      };
    },
  },
  {
    name: 'POST api/eoi/upload/ (bulk upload)',
    prepare: async (h) => {
      const quantum = uniqueQuantum();
      return {
        submit: {
          who: 'demo',
          method: 'POST',
          url: '/api/eoi/upload/',
          raw: { body: `isin,quantum,yield\nIN0020220151,${quantum},7.05\n`, contentType: 'text/csv' },
        },
        effect: () => count(h, `SELECT count(*)::text AS n FROM quotes WHERE quantum = $1 AND source = 'UPLOAD'`, [quantum]),
      };
    },
  },
  {
    name: 'POST api/eoi/add-negotiation/ (counter)',
    prepare: async (h) => {
      const q = await quote(h, 'demo');
      return {
        submit: { who: 'second', method: 'POST', url: '/api/eoi/add-negotiation/', json: { quote_id: q.id, yield_stored: 0.0721 } },
        // One negotiation with one history entry.
        effect: () =>
          count(h, `SELECT coalesce(sum(jsonb_array_length(history)), 0)::text AS n FROM negotiations WHERE quote_id = $1`, [q.id]),
      };
    },
  },
  {
    name: 'POST api/eoi/add-negotiation/ (exchange RFQ counter)',
    prepare: async (h) => {
      const rfq = await quote(h, 'demo', { send_to_rfq: true, clearing_corporation: 'NSCCL' });
      return {
        submit: { who: 'second', method: 'POST', url: '/api/eoi/add-negotiation/', json: { quote_id: rfq.id, yield_stored: 0.0722 } },
        effect: () =>
          count(h, `SELECT coalesce(sum(jsonb_array_length(history)), 0)::text AS n FROM negotiations WHERE quote_id = $1`, [rfq.id]),
      };
    },
  },
  {
    name: 'POST api/eoi/add-negotiation/ (accept → deal)',
    prepare: async (h) => {
      const q = await quote(h, 'demo');
      const negotiation = await ok<{ id: string }>(h, {
        who: 'second',
        method: 'POST',
        url: '/api/eoi/add-negotiation/',
        json: { quote_id: q.id, yield_stored: 0.0723, quantum: 5 * LAKH },
      });
      return {
        submit: {
          who: 'demo',
          method: 'POST',
          url: '/api/eoi/add-negotiation/',
          json: { quote_id: q.id, negotiation_id: negotiation.id, action: 'accept' },
        },
        effect: () => count(h, `SELECT count(*)::text AS n FROM deals WHERE negotiation_id = $1`, [negotiation.id]),
      };
    },
  },
  {
    name: 'PUT api/trade/cluster/{id}/ (close)',
    prepare: async (h) => {
      const c = await cluster(h);
      return {
        submit: { who: 'demo', method: 'PUT', url: `/api/trade/cluster/${c.id}/`, json: { status: 'closed' } },
        effect: () => auditCount(h, 'cluster.closed', c.id),
      };
    },
  },
  {
    name: 'POST api/cluster/{id}/accept/',
    prepare: async (h) => {
      const c = await cluster(h);
      return {
        submit: { who: 'demo', method: 'POST', url: `/api/cluster/${c.id}/accept/?lsId=${c.bidId}` },
        effect: () => auditCount(h, 'cluster.leg_accepted', c.id),
      };
    },
  },
  {
    name: 'POST api/chat/channels/ (create)',
    prepare: async (h) => {
      const name = `Idem ${stamp()}`;
      return {
        submit: {
          who: 'demo',
          method: 'POST',
          url: '/api/chat/channels/',
          json: { customType: 'group', name, invitedUserIds: [h.users.second.id] },
        },
        effect: () => count(h, `SELECT count(*)::text AS n FROM chat_channels WHERE name = $1`, [name]),
      };
    },
  },
  {
    name: 'POST api/chat/channels/{url}/messages/',
    prepare: async (h) => {
      const channel = await group(h, `Msgs ${stamp()}`);
      const reqId = `r-${stamp()}`;
      return {
        submit: { who: 'demo', method: 'POST', url: `/api/chat/channels/${channel.url}/messages/`, json: { reqId, message: 'hello' } },
        effect: () => count(h, `SELECT count(*)::text AS n FROM chat_messages WHERE req_id = $1`, [reqId]),
      };
    },
  },
  {
    name: 'POST api/chat/channels/{url}/files/',
    prepare: async (h) => {
      const channel = await group(h, `Files ${stamp()}`);
      const reqId = `f-${stamp()}`;
      return {
        submit: {
          who: 'demo',
          method: 'POST',
          url: `/api/chat/channels/${channel.url}/files/?reqId=${reqId}&fileName=axes.csv`,
          raw: { body: 'isin,axe\nIN0020220151,bid\n', contentType: 'text/csv' },
        },
        effect: () => count(h, `SELECT count(*)::text AS n FROM chat_messages WHERE req_id = $1`, [reqId]),
      };
    },
  },
  {
    name: 'PATCH api/chat/channels/{url}/messages/{id}/ (edit)',
    prepare: async (h) => {
      const channel = await group(h, `Edit ${stamp()}`);
      const message = await ok<{ messageId: string }>(h, {
        who: 'demo',
        method: 'POST',
        url: `/api/chat/channels/${channel.url}/messages/`,
        json: { reqId: `e-${stamp()}`, message: 'first' },
      });
      return {
        submit: {
          who: 'demo',
          method: 'PATCH',
          url: `/api/chat/channels/${channel.url}/messages/${message.messageId}/`,
          json: { message: 'second' },
        },
        effect: () =>
          count(h, `SELECT count(*)::text AS n FROM audit_log WHERE entity_id = $1 AND action LIKE '%edit%'`, [message.messageId]),
      };
    },
  },
  {
    name: 'DELETE api/chat/channels/{url}/messages/{id}/',
    prepare: async (h) => {
      const channel = await group(h, `Delete ${stamp()}`);
      const message = await ok<{ messageId: string }>(h, {
        who: 'demo',
        method: 'POST',
        url: `/api/chat/channels/${channel.url}/messages/`,
        json: { reqId: `d-${stamp()}`, message: 'gone' },
      });
      return {
        submit: { who: 'demo', method: 'DELETE', url: `/api/chat/channels/${channel.url}/messages/${message.messageId}/` },
        effect: () =>
          count(h, `SELECT count(*)::text AS n FROM audit_log WHERE entity_id = $1 AND action LIKE '%delete%'`, [message.messageId]),
      };
    },
  },
  {
    name: 'POST api/chatter/invite-users',
    prepare: async (h) => {
      const channel = await ok<{ url: string }>(h, {
        who: 'demo',
        method: 'POST',
        url: '/api/chat/channels/',
        json: { customType: 'group', name: `Invite ${stamp()}`, invitedUserIds: [h.users.ops.id] },
      });
      return {
        submit: {
          who: 'demo',
          method: 'POST',
          url: '/api/chatter/invite-users',
          json: { channel_url: channel.url, sendbird_user_ids: [h.users.second.id] },
        },
        effect: () => count(h, `SELECT count(*)::text AS n FROM audit_log WHERE action LIKE '%invite%' AND entity_id = $1`, [channel.url]),
      };
    },
  },
  ...(['accept', 'decline', 'leave'] as const).map((action): Scenario => ({
    name: `POST api/chat/channels/{url}/${action}/`,
    prepare: async (h) => {
      const channel = await group(h, `${action} ${stamp()}`);
      if (action === 'leave') await ok(h, { who: 'second', method: 'POST', url: `/api/chat/channels/${channel.url}/accept/` });
      return {
        submit: { who: 'second', method: 'POST', url: `/api/chat/channels/${channel.url}/${action}/` },
        effect: () =>
          count(h, `SELECT count(*)::text AS n FROM audit_log WHERE action = $1 AND entity_id = $2 AND actor_user_id = $3`, [
            { accept: 'chat.invitation_accepted', decline: 'chat.invitation_declined', leave: 'chat.left' }[action],
            channel.url,
            h.users.second.id,
          ]),
      };
    },
  })),
  {
    name: 'POST api/chat/channels/{url}/operators/',
    prepare: async (h) => {
      const channel = await group(h, `Ops ${stamp()}`);
      await ok(h, { who: 'second', method: 'POST', url: `/api/chat/channels/${channel.url}/accept/` });
      return {
        submit: { who: 'demo', method: 'POST', url: `/api/chat/channels/${channel.url}/operators/`, json: { add: [h.users.second.id] } },
        effect: () =>
          count(h, `SELECT count(*)::text AS n FROM audit_log WHERE action LIKE '%operator%' AND entity_id = $1`, [channel.url]),
      };
    },
  },
  {
    name: 'POST api/chat/channels/{url}/ban/',
    prepare: async (h) => {
      const channel = await group(h, `Ban ${stamp()}`);
      await ok(h, { who: 'second', method: 'POST', url: `/api/chat/channels/${channel.url}/accept/` });
      return {
        submit: { who: 'demo', method: 'POST', url: `/api/chat/channels/${channel.url}/ban/`, json: { user_id: h.users.second.id } },
        effect: () => count(h, `SELECT count(*)::text AS n FROM audit_log WHERE action LIKE '%ban%' AND entity_id = $1`, [channel.url]),
      };
    },
  },
  {
    name: 'POST api/client/invites/',
    prepare: async (h) => {
      const email = `idem-${stamp()}@demo.dart`;
      return {
        submit: { who: 'ops', method: 'POST', url: '/api/client/invites/', json: { email, roles: ['clientviewer'] } },
        effect: () => count(h, `SELECT count(*)::text AS n FROM invites WHERE email = $1`, [email]),
      };
    },
  },
  {
    name: 'POST api/support/requests/',
    prepare: async (h) => {
      const message = `Idempotent ${stamp()}`;
      return {
        submit: { who: 'demo', method: 'POST', url: '/api/support/requests/', json: { kind: 'support', message } },
        effect: () => count(h, `SELECT count(*)::text AS n FROM support_tickets WHERE description = $1`, [message]),
      };
    },
  },
];

/**
 * Fires `n` copies of one submit at once with one key, spread over `nodes` nodes, and checks the
 * promise: every answer is the first result (replayed ones marked) or 409 + Retry-After, never 5xx,
 * and the submit took effect exactly once.
 */
export async function concurrentSubmits(h: Harness, scenario: Scenario, nodes: number, n = 5): Promise<number[]> {
  const { submit, effect } = await scenario.prepare(h);
  const key = `k-${stamp()}`;
  const requestIds = Array.from({ length: n }, (_, i) => `${key}-req-${i}`);
  const answers = await Promise.all(requestIds.map((id, i) => h.send(i % nodes, submit, { 'idempotency-key': key, 'x-request-id': id })));
  const statuses = answers.map((a) => a.status);
  for (const a of answers) expect(a.status, `${scenario.name}: ${statuses.join(',')} ${a.body}`).toBeLessThan(500);
  const firsts = answers.filter((a) => a.status !== 409 && a.headers['idempotency-replayed'] !== 'true');
  expect(firsts.length, `${scenario.name}: one first answer among ${statuses.join(',')}`).toBe(1);
  const first = firsts[0]!;
  expect(first.status, `${scenario.name}: ${first.body}`).toBeLessThan(300);
  for (const a of answers) {
    if (a === first) continue;
    if (a.status === 409) {
      expect(a.headers['retry-after'], `${scenario.name}: 409 ${a.body}`).toBeDefined();
      continue;
    }
    expect(a.headers['idempotency-replayed']).toBe('true');
    expect(a.status).toBe(first.status);
    expect(JSON.parse(a.body)).toEqual(JSON.parse(first.body));
  }
  expect(await effect(), `${scenario.name}: effects`).toBe(1);
  // Only the request that ran wrote audit rows.
  const audited = await h.query<{ request_id: string }>(`SELECT DISTINCT request_id FROM audit_log WHERE request_id = ANY($1)`, [
    requestIds,
  ]);
  expect(audited.length, `${scenario.name}: audited requests`).toBeLessThanOrEqual(1);
  // A later retry replays the same answer.
  const retry = await h.send(nodes - 1, submit, { 'idempotency-key': key });
  expect(retry.status).toBe(first.status);
  expect(retry.headers['idempotency-replayed']).toBe('true');
  expect(JSON.parse(retry.body)).toEqual(JSON.parse(first.body));
  expect(await effect()).toBe(1);
  return statuses;
}
