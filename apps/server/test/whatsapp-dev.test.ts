/**
 * The simulated WhatsApp endpoint's phone side for e2e tests and developers (README "The simulator"):
 * `GET api/dev/whatsapp/outbox/` lists what it accepted, `POST api/dev/whatsapp/settle/` sends what is queued and
 * produces every receipt now. Both are public, so neither exists in production.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

const GSEC_2033 = 'IN0020220151';
type Outbox = { results: Array<{ provider_message_id: string; to: string; template: string | null; body: string; statuses: string[] }> };

describe.each(DRIVERS)('WhatsApp simulator dev calls (%s)', (driver) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let demoClient = '';
  let gsec = 0;

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    t.app.whatsapp.simulator!.configure({ failureRate: 0, readRate: 1, pairIntervalMs: 0 });
    for (const [name, email] of Object.entries({ demo: 'dealer@demo.dart', second: 'dealer@second.dart' }))
      tok[name] = (await login(t.app, email)).access;
    demoClient = json<{ client_id: string }>(
      await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(tok.demo!) }),
    ).client_id;
    gsec = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const outbox = async (to?: string) =>
    json<Outbox>(await t.app.inject({ method: 'GET', url: `/api/dev/whatsapp/outbox/${to ? `?to=${encodeURIComponent(to)}` : ''}` }));
  const settle = async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/dev/whatsapp/settle/' });
    expect(response.statusCode, response.body).toBe(200);
    return json<{ accepted: number }>(response);
  };
  const setConsent = async (consented: boolean) => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/whatsapp/consent/',
      payload: { consented },
      headers: bearer(tok.demo!),
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const privateRun = async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/trade/eoi/',
      headers: bearer(tok.second!),
      payload: { quantum: 500_000, finstrument_id: gsec, yield_stored: 0.0712, validity: 60, counterparties: [demoClient] },
    });
    expect(response.statusCode, response.body).toBe(201);
  };

  it('settle sends the alert of a committed run and its receipts; the outbox lists it by a 10-digit or full number', async () => {
    await setConsent(true);
    expect((await outbox('9876500001')).results).toHaveLength(0);
    await privateRun();
    // The elected node's producer may have sent it already (it runs every second): the outbox is what counts.
    expect((await settle()).accepted).toBeGreaterThanOrEqual(0);
    const mine = (await outbox('9876500001')).results;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ to: '919876500001', template: 'dart_alert', statuses: ['sent', 'delivered', 'read'] });
    expect(mine[0]!.body).toContain('private run');
    expect((await outbox('+919876500001')).results.map((m) => m.provider_message_id)).toEqual([mine[0]!.provider_message_id]);
    // Everyone's, and nobody else's number.
    expect((await outbox()).results.map((m) => m.to)).toEqual(['919876500001']);
    // The firm's log shows the receipts settle produced.
    const ops = (await login(t.app, 'opsadmin@demo.dart')).access;
    const log = json<{ results: Array<{ status: string; provider_message_id: string | null }> }>(
      await t.app.inject({ method: 'GET', url: '/api/whatsapp/messages/', headers: bearer(ops) }),
    );
    expect(log.results[0]).toMatchObject({ status: 'read', provider_message_id: mine[0]!.provider_message_id });
  });

  it('after a withdrawal the next run reaches nobody; a malformed number is a field error', async () => {
    await setConsent(false);
    await privateRun();
    await settle();
    expect((await outbox('9876500001')).results).toHaveLength(1);
    const bad = await t.app.inject({ method: 'GET', url: '/api/dev/whatsapp/outbox/?to=abc' });
    expect(bad.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(bad).errors).toEqual({ to: ['Should be a mobile number.'] });
  });

  it('neither call exists in production', async () => {
    const production = await createTestApp(driver, { NODE_ENV: 'production', DEMO_SEED: '0' });
    try {
      expect(production.app.routeInventory.some((r) => r.url.startsWith('/api/dev/whatsapp/'))).toBe(false);
      expect((await production.app.inject({ method: 'GET', url: '/api/dev/whatsapp/outbox/' })).statusCode).toBe(404);
      expect((await production.app.inject({ method: 'POST', url: '/api/dev/whatsapp/settle/' })).statusCode).toBe(404);
    } finally {
      await production.close();
    }
  });
});
