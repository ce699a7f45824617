/**
 * Ticketing participant search (`GET api/chatter/search-trade-participants`, spec §2 "Ticketing
 * participant search", §3 "Counterparty (user or client)", §7): other firms with trade access and
 * their active members, by firm or person name (never e-mail), the RFQ exchange filter, the 20-row
 * cap with firms first, bad queries, and that nothing private of another firm travels.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, userAccountPermissions, userAccounts, users } from '../src/db/schema';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

type Counterparty = {
  user_id: string | null;
  client_id: string;
  user_name: string | null;
  brand_name: string | null;
  nsccl_code: string | null;
  iccl_code: string | null;
  name: string;
};
const COUNTERPARTY_KEYS = ['brand_name', 'client_id', 'iccl_code', 'name', 'nsccl_code', 'user_id', 'user_name'];
const URL_PATH = '/api/chatter/search-trade-participants';

/** A row as the picker labels it: `Company: firm` or `Member: person · firm`. */
const labelOf = (row: Counterparty) => (row.user_id ? `Member: ${row.user_name} · ${row.name}` : `Company: ${row.name}`);

describe.each(DRIVERS)('ticketing participant search (%s)', (driver) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const firmId: Record<string, string> = {};

  const search = async (who: string, query: Record<string, string> = {}) => {
    const response = await t.app.inject({ method: 'GET', url: URL_PATH, query, headers: bearer(tok[who]!) });
    return {
      status: response.statusCode,
      body: response.body,
      results: response.statusCode === 200 ? json<{ results: Counterparty[] }>(response).results : [],
    };
  };
  const labels = async (who: string, query: Record<string, string> = {}) => (await search(who, query)).results.map(labelOf);

  beforeAll(async () => {
    t = await createTestApp(driver);
    for (const [who, email] of Object.entries({
      demo: 'dealer@demo.dart',
      second: 'dealer@second.dart',
      viewer: 'viewer@demo.dart',
      basic: 'basic@small.dart',
    }))
      tok[who] = (await login(t.app, email)).access;
    for (const row of await t.database.db.select({ id: clients.id, name: clients.name }).from(clients)) firmId[row.name] = row.id;
    // Exchange participant names and a credential reference, to see which of them travel.
    await t.database.db
      .update(clients)
      .set({ nsccl_name: 'SECOND BANK NSCCL', iccl_name: 'SECOND BANK ICCL', nscclCredentialsRef: 'vault://second/nsccl' })
      .where(eq(clients.id, firmId['Second Bank']!));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('offers the first firms by name when nothing is typed: never the own firm, never a firm without trade access', async () => {
    const { status, results } = await search('demo');
    expect(status).toBe(200);
    // Demo Capital is the caller's own firm; Dart (the platform's support desk) has no trader.
    expect(results.map(labelOf)).toEqual(['Company: Demo Brokers', 'Company: Second Bank', 'Company: Small Treasury']);
    expect(results[1]).toEqual({
      user_id: null,
      client_id: firmId['Second Bank'],
      user_name: null,
      brand_name: null,
      nsccl_code: 'SECOND BANK NSCCL',
      iccl_code: 'SECOND BANK ICCL',
      name: 'Second Bank',
    });
    expect(await labels('second')).toEqual(['Company: Demo Brokers', 'Company: Demo Capital', 'Company: Small Treasury']);
  });

  it('finds a firm by part of its name, in any case, with its members after it', async () => {
    expect(await labels('demo', { search_param: 'sEcOnD' })).toEqual(['Company: Second Bank', 'Member: Neha Kulkarni · Second Bank']);
    // Part of "Second Bank" as a dealer types it, spaces around it trimmed.
    expect(await labels('demo', { search_param: '  ond ba ' })).toEqual(['Company: Second Bank', 'Member: Neha Kulkarni · Second Bank']);
    // "Demo" matches Demo Brokers only: Demo Capital and its people are the caller's own.
    expect(await labels('demo', { search_param: 'demo' })).toEqual(['Company: Demo Brokers', 'Member: Farhan Shaikh · Demo Brokers']);
  });

  it("finds a person by first, last or full name, with the person's firm as the row's name", async () => {
    const { results } = await search('demo', { search_param: 'kulkarni' });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ user_name: 'Neha Kulkarni', name: 'Second Bank', client_id: firmId['Second Bank'] });
    expect(results[0]!.user_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await labels('demo', { search_param: 'NEHA' })).toEqual(['Member: Neha Kulkarni · Second Bank']);
    expect(await labels('demo', { search_param: 'neha kul' })).toEqual(['Member: Neha Kulkarni · Second Bank']);
    // Second Bank finds Demo Capital's active people (all of them: a member's firm is what is chosen).
    expect(await labels('second', { search_param: 'mehta' })).toEqual(['Member: Arjun Mehta · Demo Capital']);
    // The caller's own colleagues are never offered.
    expect(await labels('demo', { search_param: 'mehta' })).toEqual([]);
    expect(await labels('demo', { search_param: 'priya' })).toEqual([]);
  });

  it('never matches e-mail addresses (no enumeration), and treats LIKE wildcards as text', async () => {
    for (const search_param of ['dealer@second.dart', 'second.dart', '@', 'dealer', 'brokers.dart'])
      expect(await labels('demo', { search_param }), search_param).toEqual([]);
    for (const search_param of ['%', '_', '\\', 'S%B', 'Second_Bank'])
      expect(await labels('demo', { search_param }), search_param).toEqual([]);
  });

  it('for an RFQ on an exchange offers only firms enabled for RFQs there', async () => {
    await t.database.db
      .update(clients)
      .set({ rfqExchanges: ['BSE'] })
      .where(eq(clients.id, firmId['Second Bank']!));
    await t.database.db.update(clients).set({ rfqExchanges: [] }).where(eq(clients.id, firmId['Small Treasury']!));
    try {
      expect(await labels('demo', { for_rfq: 'true', exchange: 'NSE' })).toEqual(['Company: Demo Brokers']);
      expect(await labels('demo', { for_rfq: '1', exchange: 'BSE' })).toEqual(['Company: Demo Brokers', 'Company: Second Bank']);
      expect(await labels('demo', { for_rfq: 'true', exchange: 'NSE', search_param: 'neha' })).toEqual([]);
      expect(await labels('demo', { for_rfq: 'true', exchange: 'BSE', search_param: 'neha' })).toEqual([
        'Member: Neha Kulkarni · Second Bank',
      ]);
      // An RFQ without an exchange: firms enabled on any; no RFQ: the exchange does not filter.
      expect(await labels('demo', { for_rfq: 'true' })).toEqual(['Company: Demo Brokers', 'Company: Second Bank']);
      expect(await labels('demo', { for_rfq: 'false', exchange: 'NSE' })).toEqual([
        'Company: Demo Brokers',
        'Company: Second Bank',
        'Company: Small Treasury',
      ]);
    } finally {
      await t.database.db
        .update(clients)
        .set({ rfqExchanges: ['NSE', 'BSE'] })
        .where(eq(clients.id, firmId['Second Bank']!));
      await t.database.db
        .update(clients)
        .set({ rfqExchanges: ['NSE', 'BSE'] })
        .where(eq(clients.id, firmId['Small Treasury']!));
    }
  });

  it('drops inactive people, and firms whose only trader is inactive', async () => {
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.email, 'broker@brokers.dart'));
    try {
      expect(await labels('second', { search_param: 'farhan' })).toEqual([]);
      expect(await labels('second', { search_param: 'demo' })).toEqual([
        'Company: Demo Capital',
        'Member: Arjun Mehta · Demo Capital',
        'Member: Kavita Rao · Demo Capital',
        'Member: Priya Nair · Demo Capital',
        'Member: Sanjay Gupta · Demo Capital',
        'Member: Vikram Iyer · Demo Capital',
      ]);
    } finally {
      await t.database.db.update(users).set({ isActive: true }).where(eq(users.email, 'broker@brokers.dart'));
    }
  });

  it('answers at most 20 rows: firms first by name, then members by name', async () => {
    // 18 more trading firms "Zeta Fund 01…18", one trader each ("Zoe Trader 01…18").
    for (let i = 1; i <= 18; i++) {
      const n = String(i).padStart(2, '0');
      const [firm] = await t.database.db
        .insert(clients)
        .values({ name: `Zeta Fund ${n}`, clientType: 'CORP', pan: `AABCZ${n}00Z` })
        .returning();
      const [user] = await t.database.db
        .insert(users)
        .values({ uniqueId: `ZETA${n}`, email: `trader${n}@zeta.in`, firstName: 'Zoe', lastName: `Trader ${n}` })
        .returning();
      const [account] = await t.database.db.insert(userAccounts).values({ userId: user!.id, clientId: firm!.id }).returning();
      await t.database.db.insert(userAccountPermissions).values({ userAccountId: account!.id, permission: 'client.can_trade' });
    }
    const zeta = await labels('demo', { search_param: 'zeta' });
    expect(zeta).toHaveLength(20);
    expect(zeta.slice(0, 18)).toEqual(Array.from({ length: 18 }, (_, i) => `Company: Zeta Fund ${String(i + 1).padStart(2, '0')}`));
    expect(zeta.slice(18)).toEqual(['Member: Zoe Trader 01 · Zeta Fund 01', 'Member: Zoe Trader 02 · Zeta Fund 02']);
    // Nothing typed: the first 20 firms alphabetically, no members.
    const first = await labels('demo');
    expect(first).toHaveLength(20);
    expect(first.slice(0, 4)).toEqual([
      'Company: Demo Brokers',
      'Company: Second Bank',
      'Company: Small Treasury',
      'Company: Zeta Fund 01',
    ]);
  });

  it('carries exactly the Counterparty fields: no e-mail, PAN, mobile or credential of another firm', async () => {
    const { body, results } = await search('demo', { search_param: 'second' });
    expect(results.length).toBeGreaterThan(0);
    for (const row of results) expect(Object.keys(row).sort()).toEqual(COUNTERPARTY_KEYS);
    for (const secret of ['dealer@second.dart', 'AABCS5678F', '9876500006', 'vault://', 'password', 'email', 'pan', 'mobile'])
      expect(body, secret).not.toContain(secret);
  });

  it('lets view-only users search (a read), and refuses the signed out with 401', async () => {
    expect(await labels('viewer', { search_param: 'second bank' })).toEqual([
      'Company: Second Bank',
      'Member: Neha Kulkarni · Second Bank',
    ]);
    expect((await search('basic', { search_param: 'second' })).status).toBe(200);
    const anonymous = await t.app.inject({ method: 'GET', url: `${URL_PATH}?search_param=second` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('Second Bank');
  });

  it('refuses bad queries with 400 and field errors', async () => {
    const bad = async (query: Record<string, string>) => {
      const response = await t.app.inject({ method: 'GET', url: URL_PATH, query, headers: bearer(tok.demo!) });
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      return json<{ code: string; message: string; errors: Record<string, string[]> }>(response);
    };
    const unknown = await bad({ search_param: 'x', email: 'dealer@second.dart' });
    expect(unknown.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(unknown.errors)).toEqual(['email']);
    expect((await bad({ exchange: 'LSE' })).errors).toEqual({ exchange: ['Exchange should be NSE or BSE.'] });
    expect((await bad({ search_param: 'a'.repeat(101) })).errors).toEqual({ search_param: ['Search is at most 100 characters.'] });
    expect(Object.keys((await bad({ for_rfq: 'maybe' })).errors)).toEqual(['for_rfq']);
    // 100 characters is still a search (with no match).
    expect((await search('demo', { search_param: 'a'.repeat(100) })).status).toBe(200);
  });
});
