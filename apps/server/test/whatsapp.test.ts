/**
 * The WhatsApp link (issue 16 §2) through the HTTP API and the simulated WhatsApp Business endpoint, on both drivers:
 * consent with time and source, quote alerts to consenting recipients only, withdrawal at once (a queued message too),
 * receipts moving the status, rate limits and failures, a linked chat channel both ways, tenant isolation, roles.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../src/db/client';
import type { SimulatedWhatsAppBridge } from '../src/modules/whatsapp';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

const LAKH = 100_000;
const GSEC_2033 = 'IN0020220151';
/** The demo seed's mobiles, as WhatsApp numbers. */
const PHONE = { demo: '919876500001', second: '919876500006', broker: '919876500008' };

type Consent = {
  consented: boolean;
  source: string | null;
  at: string | null;
  has_mobile: boolean;
  history: Array<{ consented: boolean; source: string; source_ref: string | null; at: string }>;
};
type Bridged = {
  id: string;
  direction: string;
  user_id: string | null;
  phone: string;
  channel_url: string | null;
  chat_message_id: string | null;
  kind: string;
  template: string | null;
  body: string;
  provider_message_id: string | null;
  status: string;
  failure_reason: string | null;
  status_history: Array<{ status: string; reason: string | null }>;
};
type BridgedList = { count: number; results: Bridged[] };

describe.each(DRIVERS)('WhatsApp link (%s)', (driver) => {
  let t: TestApp;
  let sim: SimulatedWhatsAppBridge;
  let gsec: number;
  const tok: Record<string, string> = {};
  const ids: Record<string, { user: string; client: string }> = {};
  const who = {
    demo: 'dealer@demo.dart',
    viewer: 'viewer@demo.dart',
    ops: 'opsadmin@demo.dart',
    compliance: 'compliance@demo.dart',
    second: 'dealer@second.dart',
    broker: 'broker@brokers.dart',
  };

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    sim = t.app.whatsapp.simulator!;
    // Deterministic: every message delivered and read, no pair limit (one test turns it on).
    sim.configure({ failureRate: 0, readRate: 1, pairIntervalMs: 0 });
    for (const [name, email] of Object.entries(who)) {
      tok[name] = (await login(t.app, email)).access;
      const session = json<{ client_id: string; user_info: { id: string } }>(await call(name, 'GET', '/api/session/'));
      ids[name] = { user: session.user_info.id, client: session.client_id };
    }
    gsec = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const call = (name: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: bearer(tok[name]!) });
  const consent = async (name: string) => json<Consent>(await call(name, 'GET', '/api/whatsapp/consent/'));
  const setConsent = async (name: string, consented: boolean) => {
    const response = await call(name, 'PUT', '/api/whatsapp/consent/', { consented });
    expect(response.statusCode, response.body).toBe(200);
    return json<Consent>(response);
  };
  const query = <T>(statement: ReturnType<typeof sql>) => sqlRows<T>(t.database.db, statement);
  const drain = () => t.app.whatsapp.producer.drain();
  const bridged = async (name: string, search = '') => json<BridgedList>(await call(name, 'GET', `/api/whatsapp/messages/${search}`));
  /** `from` posts a private run on the 2033 G-Sec to the firms of `to`; returns the quote id. */
  async function privateRun(from: string, to: string[], extra: object = {}): Promise<string> {
    const response = await call(from, 'POST', '/api/trade/eoi/', {
      quantum: 5 * LAKH,
      finstrument_id: gsec,
      yield_stored: 0.0712,
      validity: 60,
      counterparties: to.map((name) => ids[name]!.client),
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(201);
    return json<{ id: string }>(response).id;
  }

  it('records consent with its time and source, and refuses a malformed answer with a field error', async () => {
    const before = await consent('broker');
    expect(before).toMatchObject({ consented: false, source: null, has_mobile: true, history: [] });
    const given = await setConsent('broker', true);
    expect(given).toMatchObject({ consented: true, source: 'profile' });
    expect(given.history).toHaveLength(1);
    expect(Date.parse(given.at!)).not.toBeNaN();
    const withdrawn = await setConsent('broker', false);
    expect(withdrawn).toMatchObject({ consented: false, source: 'profile' });
    expect(withdrawn.history.map((h) => h.consented)).toEqual([false, true]);

    const empty = await call('broker', 'PUT', '/api/whatsapp/consent/', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('consented');
    const extra = await call('broker', 'PUT', '/api/whatsapp/consent/', { consented: true, source: 'quote' });
    expect(extra.statusCode).toBe(400);
    expect((await consent('broker')).consented).toBe(false);
    // Audited, as the user's own act.
    const audit = await query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'user.whatsapp_consent_changed' AND entity_id = ${ids.broker!.user}`,
    );
    expect(Number(audit[0]!.n)).toBe(2);
  });

  it('sends a quote alert to a consenting recipient and none to a recipient who has not consented', async () => {
    await setConsent('demo', true);
    expect((await consent('broker')).consented).toBe(false);
    const demoBefore = sim.outbox(PHONE.demo).length;
    const brokerBefore = sim.outbox(PHONE.broker).length;
    await privateRun('second', ['demo', 'broker']);
    await drain();
    const toDemo = sim.outbox(PHONE.demo).slice(demoBefore);
    expect(toDemo).toHaveLength(1);
    expect(toDemo[0]).toMatchObject({ kind: 'template', template: 'dart_alert' });
    expect(toDemo[0]!.body).toContain(GSEC_2033);
    expect(toDemo[0]!.body).toContain('private run');
    expect(sim.outbox(PHONE.broker).length).toBe(brokerBefore);
    // The quoter's own firm gets no alert for its own quote.
    expect(sim.outbox(PHONE.second)).toHaveLength(0);
  });

  it('moves the status with the receipts: sent, delivered, read, or failed with the reason', async () => {
    await privateRun('second', ['demo']);
    await drain();
    let latest = (await bridged('ops', '?direction=outbound')).results[0]!;
    expect(latest.status).toBe('accepted');
    expect(latest.provider_message_id).toMatch(/^wamid\./);
    await sim.settle();
    latest = (await bridged('ops', '?direction=outbound')).results[0]!;
    expect(latest.status).toBe('read');
    expect(latest.status_history.map((h) => h.status)).toEqual(['queued', 'accepted', 'sent', 'delivered', 'read']);
    expect(latest.phone).toMatch(/^•+0001$/);

    sim.configure({ failureRate: 1 });
    try {
      await privateRun('second', ['demo']);
      await drain();
      await sim.settle();
    } finally {
      sim.configure({ failureRate: 0 });
    }
    const failed = (await bridged('ops', '?direction=outbound')).results[0]!;
    expect(failed.status).toBe('failed');
    expect(failed.failure_reason).toBe('131026 Message undeliverable');
    // A repeated receipt changes nothing.
    const receipt = { providerMessageId: failed.provider_message_id!, status: 'delivered' as const, at: new Date() };
    await t.app.whatsapp.service.onReceipt(receipt);
    await t.app.whatsapp.service.onReceipt(receipt);
    const after = (await bridged('ops', '?direction=outbound')).results[0]!;
    expect(after.status).toBe('failed');
    expect(after.status_history.filter((h) => h.status === 'delivered')).toHaveLength(1);
  });

  it('stops at once on withdrawal: a message held by the rate limit is cancelled, and the next quote sends nothing', async () => {
    sim.configure({ pairIntervalMs: 60 * 60 * 1000 });
    try {
      // The last message to this number left seconds ago: the pair rate limit holds the next one, queued.
      const sent = sim.outbox(PHONE.demo).length;
      await privateRun('second', ['demo']);
      await drain();
      // Held, queued, with the provider's reason.
      const held = (await bridged('ops', '?direction=outbound')).results[0]!;
      expect(held.status).toBe('queued');
      expect(held.failure_reason).toContain('131056');
      expect(sim.outbox(PHONE.demo).length).toBe(sent);

      await setConsent('demo', false);
      const cancelled = (await bridged('ops', '?direction=outbound')).results.find((m) => m.id === held.id)!;
      expect(cancelled.status).toBe('cancelled');
    } finally {
      sim.configure({ pairIntervalMs: 0 });
    }
    const before = sim.outbox(PHONE.demo).length;
    const count = (await bridged('ops')).count;
    await privateRun('second', ['demo']);
    await drain();
    expect(sim.outbox(PHONE.demo).length).toBe(before);
    expect((await bridged('ops')).count).toBe(count);
  });

  it('records the consent a quote carries (source quote), and none from a quote without it', async () => {
    expect((await consent('broker')).consented).toBe(false);
    await privateRun('broker', ['second'], { whatsapp_consent: false });
    await drain();
    expect((await consent('broker')).consented).toBe(false);
    const quoteId = await privateRun('broker', ['second'], { whatsapp_consent: true });
    await drain();
    const now = await consent('broker');
    expect(now).toMatchObject({ consented: true, source: 'quote' });
    expect(now.history[0]).toMatchObject({ consented: true, source: 'quote', source_ref: quoteId });
    await setConsent('broker', false);
  });

  it('keeps tenants apart and lets only compliance and ops read the log', async () => {
    const demoLog = await bridged('compliance');
    expect(demoLog.count).toBeGreaterThan(0);
    expect(demoLog.results.every((m) => m.user_id === ids.demo!.user || m.user_id === null || m.user_id === ids.viewer!.user)).toBe(true);
    // Second Bank's and the broker's messages never show in Demo Capital's log, and the reverse.
    const rows = await query<{ client_id: string }>(sql`SELECT DISTINCT client_id FROM whatsapp_messages WHERE client_id IS NOT NULL`);
    const firms = rows.map((r) => r.client_id);
    expect(firms).toEqual([ids.demo!.client]);
    for (const name of ['demo', 'viewer', 'second', 'broker'])
      expect((await call(name, 'GET', '/api/whatsapp/messages/')).statusCode).toBe(403);
    expect((await call('ops', 'GET', '/api/whatsapp/messages/?page_size=0')).statusCode).toBe(400);
  });

  it('relays a linked chat channel both ways: out to consenting members, a reply back in as a chat message', async () => {
    for (const name of ['demo', 'second', 'broker'])
      expect((await call(name, 'PATCH', '/api/client/chat-terms/', { has_accepted_chat_terms: true })).statusCode).toBe(200);
    const created = await call('demo', 'POST', '/api/chat/channels/', {
      customType: 'group',
      name: 'G-Sec desk',
      invitedUserIds: [ids.second!.user],
      operatorUserIds: [ids.demo!.user],
    });
    expect(created.statusCode, created.body).toBe(201);
    const url = json<{ url: string }>(created).url;
    expect((await call('second', 'POST', `/api/chat/channels/${url}/accept/`, {})).statusCode).toBe(200);

    // Roles: a view-only user cannot link; a non-member does not see the channel; the second member is no operator.
    expect((await call('viewer', 'PUT', `/api/whatsapp/channels/${url}/link/`, { linked: true })).statusCode).toBe(403);
    expect((await call('broker', 'PUT', `/api/whatsapp/channels/${url}/link/`, { linked: true })).statusCode).toBe(404);
    expect((await call('second', 'PUT', `/api/whatsapp/channels/${url}/link/`, { linked: true })).statusCode).toBe(403);
    expect((await call('demo', 'PUT', `/api/whatsapp/channels/${url}/link/`, { linked: 'yes' })).statusCode).toBe(400);

    // Posted before the link: never relayed.
    await call('demo', 'POST', `/api/chat/channels/${url}/messages/`, { reqId: 'wa-1', message: 'before the link' });
    const linked = await call('demo', 'PUT', `/api/whatsapp/channels/${url}/link/`, { linked: true });
    expect(json(linked)).toEqual({ url, is_whatsapp_linked_channel: true });
    expect(
      json<{ is_whatsapp_linked_channel: boolean }>(await call('second', 'GET', `/api/chat/channels/${url}/`)).is_whatsapp_linked_channel,
    ).toBe(true);

    await setConsent('second', true);
    expect((await consent('demo')).consented).toBe(false);
    await call('demo', 'POST', `/api/chat/channels/${url}/messages/`, { reqId: 'wa-2', message: 'Can you do 7.10 on the 2033?' });
    await drain();
    const toSecond = sim.outbox(PHONE.second);
    expect(toSecond.map((m) => m.body)).toEqual(['Arjun Mehta in G-Sec desk: Can you do 7.10 on the 2033?']);
    // Outside the 24-hour window: a template, as the provider requires.
    expect(toSecond[0]).toMatchObject({ kind: 'template', template: 'dart_chat_message' });

    // The reply on the phone, to that message: a chat message of Second Bank's dealer in the channel.
    const providerId = await query<{ provider_message_id: string }>(
      sql`SELECT provider_message_id FROM whatsapp_messages WHERE phone = ${PHONE.second} AND channel_id IS NOT NULL`,
    );
    const reply = await t.app.inject({
      method: 'POST',
      url: '/api/dev/whatsapp/inbound/',
      payload: { from: `+${PHONE.second}`, text: 'Done, 5 lakh at 7.10', context_message_id: providerId[0]!.provider_message_id },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const messages = json<{ messages: Array<{ message: string; user?: { userId: string }; data: Record<string, unknown> }> }>(
      await call('demo', 'GET', `/api/chat/channels/${url}/messages/`),
    ).messages;
    const last = messages.at(-1)!;
    expect(last.message).toBe('Done, 5 lakh at 7.10');
    expect(last.data).toMatchObject({
      whatsapp: { provider_message_id: json<{ provider_message_id: string }>(reply).provider_message_id },
    });
    // Demo's dealer has not consented: the reply is not relayed back to them; the sender never gets their own.
    const demoBefore = sim.outbox(PHONE.demo).length;
    await drain();
    expect(sim.outbox(PHONE.demo).length).toBe(demoBefore);
    expect(sim.outbox(PHONE.second)).toHaveLength(1);

    // Inside the window the user opened, the next message goes as free text.
    await call('demo', 'POST', `/api/chat/channels/${url}/messages/`, { reqId: 'wa-3', message: 'Booked.' });
    await drain();
    expect(sim.outbox(PHONE.second).at(-1)).toMatchObject({ kind: 'text', body: 'Arjun Mehta in G-Sec desk: Booked.' });

    // A number Dart does not know is kept, not posted.
    const stranger = await t.app.inject({
      method: 'POST',
      url: '/api/dev/whatsapp/inbound/',
      payload: { from: '919999999999', text: 'hello?' },
    });
    expect(stranger.statusCode).toBe(200);
    const kept = await query<{ status: string; failure_reason: string }>(
      sql`SELECT status, failure_reason FROM whatsapp_messages WHERE phone = '919999999999'`,
    );
    expect(kept).toEqual([{ status: 'unrouted', failure_reason: 'No Dart user has this number.' }]);

    // Tenants: Second Bank's side of the conversation is Second Bank's; Demo Capital's log never shows it.
    const secondRows = await query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM whatsapp_messages WHERE client_id = ${ids.second!.client}`,
    );
    expect(Number(secondRows[0]!.n)).toBe(3); // two out, one reply in
    const demoLog = await bridged('ops', '?page_size=200');
    expect(demoLog.results.filter((m) => m.user_id === ids.second!.user)).toEqual([]);
    expect(demoLog.results.every((m) => m.user_id === ids.demo!.user)).toBe(true);

    // Unlinked: nothing more goes out.
    await call('demo', 'PUT', `/api/whatsapp/channels/${url}/link/`, { linked: false });
    const count = sim.outbox(PHONE.second).length;
    await call('demo', 'POST', `/api/chat/channels/${url}/messages/`, { reqId: 'wa-4', message: 'after unlinking' });
    await drain();
    expect(sim.outbox(PHONE.second).length).toBe(count);
  });
});
