/**
 * Exchange credentials (issue 14, modules/credentials/README.md): the firm's ops admin sets its NSCCL / ICCL
 * login; the API shows only "Set on {date} by {user}"; the password is sealed at rest and never appears in an
 * answer, a log line, the audit trail or the table in clear; other roles and other firms are refused; the
 * session's exchange fields and the RFQ raise follow the stored credentials; the participant searches read the
 * published clearing-bank lists.
 */
import { CREDENTIAL_MESSAGES } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentialsService } from '../src/modules/credentials';
import { bearer, createTestApp, DRIVERS, exchangeRfqBody, json, login, type TestApp } from './helpers';

const GSEC_2033 = 'IN0020220151';
const NSE_PASSWORD = 'Nse#Pass-7731 zebra';
const BSE_PASSWORD = 'Bse!Pass-4410 quokka';
type Status = {
  corp: string;
  exchange: string;
  is_set: boolean;
  participant_code: string | null;
  participant_name: string | null;
  set_by: string | null;
  set_at: string | null;
  status: string;
};
type Session = {
  client_id: string;
  allowed_exchanges: string[];
  nsccl_credentials: boolean;
  iccl_credentials: boolean;
  nsccl_name: string | null;
  iccl_name: string | null;
};

describe.each(DRIVERS)('exchange credentials (%s)', (driver) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let gsec: number;
  let demoClientId: string;

  const get = (who: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(tok[who]!) });
  const post = (who: string, url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers: bearer(tok[who]!) });
  const session = async (who: string) => json<Session>(await get(who, '/api/session/'));
  const statuses = async (who: string) => json<{ results: Status[] }>(await get(who, '/api/client/credentials/')).results;
  const nse = { corp: 'NSCCL', participant_code: 'M50213', username: 'demo.capital.rfq', password: NSE_PASSWORD };

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    for (const [name, email] of Object.entries({
      ops: 'opsadmin@demo.dart',
      dealer: 'dealer@demo.dart',
      viewer: 'viewer@demo.dart',
      compliance: 'compliance@demo.dart',
      second: 'dealer@second.dart',
    }))
      tok[name] = (await login(t.app, email)).access;
    gsec = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
    demoClientId = (await session('dealer')).client_id;
    // Demo Capital starts like a newly registered firm: no credentials (the demo seed gives it both).
    await t.database.query(`DELETE FROM exchange_credentials WHERE client_id = $1`, [demoClientId]);
    await t.database.query(
      `UPDATE clients SET nsccl_credentials_ref = NULL, iccl_credentials_ref = NULL, nsccl_name = NULL, iccl_name = NULL WHERE id = $1`,
      [demoClientId],
    );
    // Second Bank's dealer also administers its firm, to show one firm's ops admin never sees another's.
    await t.database.query(
      `INSERT INTO user_account_roles (user_account_id, role)
         SELECT a.id, 'clientopsadmin' FROM user_accounts a JOIN users u ON u.id = a.user_id WHERE u.email = 'dealer@second.dart'`,
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('shows both clearing corporations as not set for a firm without credentials, and the session agrees', async () => {
    const list = await statuses('ops');
    expect(list.map((s) => [s.corp, s.exchange, s.is_set, s.status])).toEqual([
      ['NSCCL', 'NSE', false, 'Not set'],
      ['ICCL', 'BSE', false, 'Not set'],
    ]);
    const s = await session('dealer');
    expect(s).toMatchObject({
      nsccl_credentials: false,
      iccl_credentials: false,
      nsccl_name: null,
      iccl_name: null,
      allowed_exchanges: [],
    });
  });

  it('refuses an NSE RFQ without NSCCL credentials with a clear 403, storing nothing', async () => {
    const response = await post('dealer', '/api/trade/eoi/', exchangeRfqBody(gsec));
    expect(response.statusCode).toBe(403);
    expect(json<{ message: string }>(response).message).toBe(CREDENTIAL_MESSAGES.rfqNeedsCredentials('NSCCL'));
    const [{ count } = { count: -1 }] = await t.database.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM quotes WHERE client_id = $1 AND exchange IS NOT NULL`,
      [demoClientId],
    );
    expect(count).toBe(0);
  });

  it("lets only the firm's ops admin set credentials: dealer, viewer, compliance 403, signed out 401", async () => {
    for (const who of ['dealer', 'viewer', 'compliance']) {
      expect((await post(who, '/api/client/credentials/', nse)).statusCode, who).toBe(403);
      expect((await get(who, '/api/client/credentials/')).statusCode, who).toBe(403);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/client/credentials/', payload: nse })).statusCode).toBe(401);
    expect((await statuses('ops')).every((s) => !s.is_set)).toBe(true);
  });

  it('answers malformed input with field errors, never echoing the password', async () => {
    const response = await post('ops', '/api/client/credentials/', {
      corp: 'NSE',
      participant_code: 'has space',
      username: '',
      password: NSE_PASSWORD,
    });
    expect(response.statusCode).toBe(400);
    const body = json<{ errors: Record<string, string[]> }>(response);
    expect(body.errors).toMatchObject({
      corp: [CREDENTIAL_MESSAGES.corp],
      participant_code: [CREDENTIAL_MESSAGES.participantCodeFormat],
      username: [CREDENTIAL_MESSAGES.usernameRequired],
    });
    expect(response.body).not.toContain(NSE_PASSWORD);
    const missing = await post('ops', '/api/client/credentials/', { corp: 'ICCL', participant_code: 'B1', username: 'u' });
    expect(json<{ errors: Record<string, string[]> }>(missing).errors).toEqual({ password: [CREDENTIAL_MESSAGES.passwordRequired] });
    // A firm cannot be named: the caller's own firm is the only one.
    const other = await post('ops', '/api/client/credentials/', { ...nse, client_id: demoClientId });
    expect(other.statusCode).toBe(400);
  });

  it('sets NSCCL credentials: the answer and the list say "Set on {date} by {user}", never the username or password', async () => {
    const response = await post('ops', '/api/client/credentials/', { ...nse, participant_name: 'HDFC Bank Ltd.' });
    expect(response.statusCode, response.body).toBe(200);
    const status = json<Status>(response);
    expect(status).toMatchObject({
      corp: 'NSCCL',
      is_set: true,
      participant_code: 'M50213',
      participant_name: 'HDFC Bank Ltd.',
      set_by: 'Kavita Rao',
    });
    expect(status.status).toMatch(/^Set on \d{2} [A-Z][a-z]{2} \d{4} by Kavita Rao$/);
    expect(response.body).not.toContain(NSE_PASSWORD);
    expect(response.body).not.toContain(nse.username);
    const list = await statuses('ops');
    expect(list.find((s) => s.corp === 'NSCCL')).toEqual(status);
    expect(list.find((s) => s.corp === 'ICCL')!.is_set).toBe(false);
    // A retry of the same call leaves the same credentials (one record per firm and corp).
    expect((await post('ops', '/api/client/credentials/', { ...nse, participant_name: 'HDFC Bank Ltd.' })).statusCode).toBe(200);
    const [{ count } = { count: -1 }] = await t.database.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM exchange_credentials WHERE client_id = $1`,
      [demoClientId],
    );
    expect(count).toBe(1);
  });

  it('makes the session follow: NSCCL set, NSE allowed, ICCL not yet (not only-ICCL)', async () => {
    const s = await session('dealer');
    expect(s).toMatchObject({
      nsccl_credentials: true,
      iccl_credentials: false,
      nsccl_name: 'HDFC Bank Ltd.',
      iccl_name: null,
      allowed_exchanges: ['NSE'],
    });
  });

  it('then lets the dealer raise an NSE RFQ while BSE stays refused until ICCL is set', async () => {
    const nseRfq = await post('dealer', '/api/trade/eoi/', exchangeRfqBody(gsec));
    expect(nseRfq.statusCode, nseRfq.body).toBe(201);
    const bse = await post('dealer', '/api/trade/eoi/', exchangeRfqBody(gsec, { clearing_corporation: 'ICCL' }));
    expect(bse.statusCode).toBe(403);
    expect(json<{ message: string; errors: Record<string, string[]> }>(bse).errors).toEqual({
      clearing_corporation: [CREDENTIAL_MESSAGES.rfqNeedsCredentials('ICCL')],
    });

    const set = await post('ops', '/api/client/credentials/', {
      corp: 'ICCL',
      participant_code: 'B6632',
      username: 'demo.bse',
      password: BSE_PASSWORD,
    });
    expect(set.statusCode, set.body).toBe(200);
    // No participant picked: the firm's own name.
    expect(json<Status>(set).participant_name).toBe('Demo Capital');
    expect((await session('dealer')).allowed_exchanges).toEqual(['NSE', 'BSE']);
    const bseAgain = await post('dealer', '/api/trade/eoi/', exchangeRfqBody(gsec, { clearing_corporation: 'ICCL' }));
    expect(bseAgain.statusCode, bseAgain.body).toBe(201);
  });

  it("keeps firms apart: another firm's ops admin sees only its own credentials, untouched", async () => {
    const theirs = await statuses('second');
    expect(theirs.map((s) => [s.corp, s.is_set, s.set_by])).toEqual([
      ['NSCCL', true, 'Demo seed'],
      ['ICCL', true, 'Demo seed'],
    ]);
    expect(theirs.some((s) => s.participant_code === 'M50213' || s.participant_name === 'HDFC Bank Ltd.')).toBe(false);
    expect((await session('second')).nsccl_name).toBe('Second Bank');
  });

  it('never stores, logs or audits the password in clear, and the venue can still open it', async () => {
    const rows = await t.database.query<{ row: string }>(`SELECT row_to_json(c)::text AS row FROM exchange_credentials c`);
    const audit = await t.database.query<{ row: string }>(`SELECT row_to_json(a)::text AS row FROM audit_log a`);
    const claims = await t.database.query<{ row: string }>(`SELECT row_to_json(i)::text AS row FROM idempotency_claims i`).catch(() => []);
    for (const secret of [NSE_PASSWORD, BSE_PASSWORD]) {
      expect(rows.some((r) => r.row.includes(secret))).toBe(false);
      expect(audit.some((r) => r.row.includes(secret))).toBe(false);
      expect(claims.some((r) => r.row.includes(secret))).toBe(false);
      expect(t.logs.some((line) => line.includes(secret))).toBe(false);
    }
    const sets = audit.filter((r) => r.row.includes('client.exchange_credentials_set') && r.row.includes(demoClientId));
    expect(sets.length).toBeGreaterThanOrEqual(3);
    expect(sets.some((r) => r.row.includes('demo.capital.rfq'))).toBe(false);

    const service = createCredentialsService(t.app.deps);
    expect(await service.openForVenue(demoClientId, 'NSCCL')).toEqual({
      participantCode: 'M50213',
      username: 'demo.capital.rfq',
      password: NSE_PASSWORD,
    });
    // Under another key the record does not open: a clear 409, never the secret.
    const rotated = createCredentialsService({ ...t.app.deps, config: { ...t.app.deps.config, credentialsKey: Buffer.alloc(32, 9) } });
    await expect(rotated.openForVenue(demoClientId, 'NSCCL')).rejects.toThrow(CREDENTIAL_MESSAGES.keyChanged);
  });

  it('searches the published NSE Clearing and ICCL participant lists', async () => {
    const nseHits = json<{ results: Array<{ name: string; participant_code: string | null; source: string }> }>(
      await get('dealer', '/api/search-nsscl-participants/?search_param=hdfc'),
    ).results;
    expect(nseHits).toEqual([{ name: 'HDFC Bank Ltd.', participant_code: null, source: expect.stringContaining('NSE Clearing') }]);
    const all = json<{ results: unknown[] }>(await get('ops', '/api/search-nsscl-participants/')).results;
    expect(all).toHaveLength(15);
    const iccl = json<{ results: Array<{ name: string }> }>(
      await get('ops', '/api/search-iccl-participants/?search_param=bank%20of%20india'),
    ).results;
    expect(iccl.map((p) => p.name)).toEqual(['Bank Of India', 'Central Bank of India', 'State Bank Of India', 'Union Bank of India']);
    expect(json<{ results: unknown[] }>(await get('ops', '/api/search-iccl-participants/')).results).toHaveLength(24);
    // No published list gives member codes: ucc_only finds none of them.
    expect(json<{ results: unknown[] }>(await get('ops', '/api/search-iccl-participants/?ucc_only=true')).results).toEqual([]);
    expect((await get('ops', '/api/search-iccl-participants/?ucc_only=maybe')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/search-iccl-participants/' })).statusCode).toBe(401);
  });
});
