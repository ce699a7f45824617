/**
 * Issue 12 §5 fix 7, surveillance: the audit trail reads as words (action labels, people and firms,
 * the entity's name, details) with no ids; it filters by dates, user, category, action and text on the
 * server with strict validation; it exports the filtered trail as formula-safe CSV; a firm sees only its
 * own people's rows; and a page view no longer adds a `chat.session_issued` row each time.
 */
import { AUDIT_EXPORT_COLUMNS, AUDIT_FILTER_MESSAGES } from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, login, startRedisCluster, type RedisCluster, type TestApp } from './helpers';

const GSEC_2033 = 'IN0020220151';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** A chat name that a spreadsheet would run as a formula, with a comma and quotes to escape too. */
const FORMULA_NAME = '=HYPERLINK("http://x.example","click"),1';

type Entry = {
  id: string;
  at: string;
  actor_name: string | null;
  actor_email: string | null;
  actor_client_name: string | null;
  action: string;
  action_label: string;
  category: string | null;
  entity_label: string;
  entity_name: string | null;
  details: string;
  ip: string | null;
};
type AuditList = { count: number; results: Entry[] };

/** Parses RFC 4180 CSV (quoted cells, doubled quotes, CRLF rows). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

describe.each(DRIVERS)('surveillance: readable audit trail (%s)', (driver) => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const ids: Record<string, string> = {};
  let gsec: number;

  const get = (who: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(tok[who]!) });
  const trail = async (query = '', who = 'compliance') => {
    const response = await get(who, `/api/surveillance/audit/${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return json<AuditList>(response);
  };
  const userId = async (email: string) => (await t.database.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]))[0]!.id;

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    const who = {
      compliance: 'compliance@demo.dart',
      dealer: 'dealer@demo.dart',
      second: 'dealer@second.dart',
      viewer: 'viewer@demo.dart',
    };
    for (const [name, email] of Object.entries(who)) {
      tok[name] = (await login(t.app, email)).access;
      ids[name] = await userId(email);
    }
    gsec = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
    // Demo's dealer posts a bid (₹1 Cr of the 2033 G-sec) and opens a group chat with Second Bank.
    const quote = await t.app.inject({
      method: 'POST',
      url: '/api/trade/eoi/',
      payload: { quantum: 10_000_000, finstrument_id: gsec, yield_stored: 0.0701 },
      headers: bearer(tok.dealer!),
    });
    if (quote.statusCode !== 201) throw new Error(`setup: quote ${quote.body}`);
    const chat = await t.app.inject({
      method: 'POST',
      url: '/api/chat/channels/',
      payload: { customType: 'group', name: FORMULA_NAME, invitedUserIds: [ids.second] },
      headers: bearer(tok.dealer!),
    });
    if (chat.statusCode !== 200 && chat.statusCode !== 201) throw new Error(`setup: chat ${chat.body}`);
    // Second Bank's dealer does something of its own that Demo's compliance must never see.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/trade/eoi/',
      payload: { quantum: 10_000_000, finstrument_id: gsec, yield_stored: 0.0799 },
      headers: bearer(tok.second!),
    });
    if (other.statusCode !== 201) throw new Error(`setup: second's quote ${other.body}`);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('shows each entry in words: label, person, firm, the entity by name, details; no ids and no raw codes', async () => {
    const { results, count } = await trail('?page_size=100');
    expect(count).toBeGreaterThan(3);
    const signIn = results.find((e) => e.action === 'auth.login' && e.actor_email === 'dealer@demo.dart');
    expect(signIn).toMatchObject({
      action_label: 'Signed in',
      actor_name: 'Arjun Mehta',
      actor_client_name: 'Demo Capital',
      category: 'auth',
    });
    const posted = results.find((e) => e.action === 'quote.created');
    expect(posted).toMatchObject({ action_label: 'Quote posted', entity_label: 'Quote', actor_name: 'Arjun Mehta' });
    expect(posted!.entity_name).toMatch(/^Bid · .*2033/);
    const chat = results.find((e) => e.action === 'chat.channel_created');
    expect(chat).toMatchObject({ action_label: 'Chat created', entity_label: 'Chat', entity_name: FORMULA_NAME });
    // Nothing a person reads carries a UUID or an action code.
    for (const entry of results) {
      const readable = [
        entry.actor_name,
        entry.actor_client_name,
        entry.action_label,
        entry.entity_label,
        entry.entity_name,
        entry.details,
      ];
      expect(readable.join(' | '), entry.action).not.toMatch(UUID);
      expect(entry.action_label).not.toContain(entry.action);
      expect(entry.action_label).not.toMatch(/^[a-z]+\.[a-z_]+$/);
    }
  });

  it('keeps firms apart: another firm’s rows are neither listed, found by user, nor exported', async () => {
    const all = await trail('?page_size=100');
    expect(all.results.every((e) => e.actor_client_name === 'Demo Capital')).toBe(true);
    expect(all.results.some((e) => e.actor_email === 'dealer@second.dart')).toBe(false);
    expect((await trail(`?user_id=${ids.second}`)).count).toBe(0);
    expect((await trail('?q=Second%20Bank')).results.some((e) => e.actor_email === 'dealer@second.dart')).toBe(false);
    const csv = (await get('compliance', '/api/surveillance/audit/export/')).body;
    expect(csv).not.toContain('dealer@second.dart');
    expect(csv).not.toContain('Neha Kulkarni');
    // The people list of the user filter is the caller's firm only.
    const people = json<{ results: Array<{ email: string; name: string }> }>(await get('compliance', '/api/surveillance/audit/users/'));
    expect(people.results.map((p) => p.email)).toContain('dealer@demo.dart');
    expect(people.results.find((p) => p.email === 'dealer@demo.dart')?.name).toBe('Arjun Mehta');
    expect(people.results.some((p) => p.email === 'dealer@second.dart')).toBe(false);
  });

  it('filters on the server by user, category, action, text and IST days, and pages', async () => {
    const byUser = await trail(`?user_id=${ids.dealer}&page_size=100`);
    expect(byUser.count).toBeGreaterThan(0);
    expect(byUser.results.every((e) => e.actor_email === 'dealer@demo.dart')).toBe(true);

    const quotes = await trail('?category=quote');
    expect(quotes.count).toBeGreaterThan(0);
    expect(quotes.results.every((e) => e.category === 'quote')).toBe(true);

    const signIns = await trail('?action=auth.login&page_size=100');
    expect(signIns.results.map((e) => e.actor_email).sort()).toEqual(['compliance@demo.dart', 'dealer@demo.dart', 'viewer@demo.dart']);

    // Text finds the entity's name, the person and the action's words.
    expect((await trail('?q=hyperlink')).results.map((e) => e.action)).toContain('chat.channel_created');
    expect((await trail('?q=priya&action=auth.login')).results.map((e) => e.actor_email)).toEqual(['viewer@demo.dart']);
    expect((await trail('?q=quote%20posted')).results.map((e) => e.action)).toEqual(['quote.created']);
    // '_' is a character, not a LIKE wildcard.
    expect((await trail('?q=_')).count).toBe(0);

    // Days are IST calendar days, both ends included.
    const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
    const all = await trail();
    expect((await trail(`?from=${today}&to=${today}`)).count).toBe(all.count);
    expect((await trail('?from=2001-01-01&to=2001-01-31')).count).toBe(0);

    const first = await trail('?page=1&page_size=2');
    const second = await trail('?page=2&page_size=2');
    expect(first.results).toHaveLength(2);
    expect(Number(first.results[1]!.id)).toBeGreaterThan(Number(second.results[0]!.id));
  });

  it('refuses bad filters with 400 field errors', async () => {
    const cases: Array<[string, string, string]> = [
      ['?from=2025-13-01', 'from', AUDIT_FILTER_MESSAGES.date],
      ['?from=2025-06-02&to=2025-06-01', 'to', AUDIT_FILTER_MESSAGES.dateOrder],
      ['?user_id=dealer', 'user_id', AUDIT_FILTER_MESSAGES.user],
      ['?category=everything', 'category', ''],
      ['?action=chat.session_flooded', 'action', ''],
      [`?q=${'x'.repeat(101)}`, 'q', AUDIT_FILTER_MESSAGES.search],
      ['?page_size=101', 'page_size', ''],
      ['?sort=id', 'sort', ''],
    ];
    for (const [query, field, message] of cases) {
      for (const path of ['/api/surveillance/audit/', '/api/surveillance/audit/export/']) {
        if (path.endsWith('export/') && field === 'page_size') continue;
        const response = await get('compliance', `${path}${query}`);
        expect(response.statusCode, `${path}${query}`).toBe(400);
        const body = json<{ code: string; errors: Record<string, string[]> }>(response);
        expect(body.code).toBe('VALIDATION_FAILED');
        expect(Object.keys(body.errors), query).toContain(field);
        const wanted = message || body.errors[field]?.[0];
        expect(wanted).toBeTruthy();
        expect(body.errors[field]).toContain(wanted);
      }
    }
  });

  it('exports the filtered trail as CSV: named file, header, readable rows, formula cells neutralised', async () => {
    const response = await get('compliance', '/api/surveillance/audit/export/?category=chat');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="dart-audit-trail-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.body.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(response.body.slice(1));
    expect(rows[0]).toEqual([...AUDIT_EXPORT_COLUMNS]);
    const listed = await trail('?category=chat&page_size=100');
    expect(rows.length - 1).toBe(listed.count);
    const created = rows.find((row) => row[4] === 'Chat created')!;
    expect(created).toBeDefined();
    expect(created[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(created.slice(1, 4)).toEqual(['Arjun Mehta', 'dealer@demo.dart', 'Demo Capital']);
    expect(created[5]).toBe('Chat');
    // The name starts with '=': the cell is prefixed with an apostrophe, then quoted for its comma and quotes.
    expect(created[6]).toBe(`'${FORMULA_NAME}`);
    expect(response.body).toContain(`"'=HYPERLINK(""http://x.example"",""click""),1"`);
    expect(response.body).not.toMatch(UUID);
    // Only chat rows: the category filter applies to the file too.
    expect(rows.slice(1).every((row) => row[4]!.toLowerCase().includes('chat'))).toBe(true);
  });

  it('records a chat session once per sign-in, however many page views fetch a token', async () => {
    const countRows = async () =>
      Number(
        (
          await t.database.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM audit_log WHERE action = 'chat.session_issued' AND actor_user_id = $1",
            [ids.viewer],
          )
        )[0]!.n,
      );
    const issue = (token: string) =>
      t.app.inject({ method: 'POST', url: '/api/issue-sb-session-token', payload: { userId: ids.viewer }, headers: bearer(token) });
    const before = await countRows();
    // Ten page views under one sign-in, two of them at once.
    for (let i = 0; i < 8; i++) expect((await issue(tok.viewer!)).statusCode).toBe(200);
    await Promise.all([issue(tok.viewer!), issue(tok.viewer!)]);
    expect((await countRows()) - before).toBe(1);
    // A new sign-in is a new compliance fact.
    const again = (await login(t.app, 'viewer@demo.dart')).access;
    expect((await issue(again)).statusCode).toBe(200);
    expect((await issue(again)).statusCode).toBe(200);
    expect((await countRows()) - before).toBe(2);
    const shown = (await trail('?action=chat.session_issued')).results.filter((e) => e.actor_email === 'viewer@demo.dart');
    expect(shown).toHaveLength(2);
    expect(shown[0]).toMatchObject({ action_label: 'Chat opened for this sign-in', entity_label: 'Sign-in' });
  });
});

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('surveillance on two nodes over PostgreSQL + Redis', () => {
  let cluster: RedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster(2);
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('records one chat session per sign-in when both nodes issue tokens at once, and either node lists it', async () => {
    const [a, b] = cluster.nodes as [FastifyInstance, FastifyInstance];
    const { access } = await login(a, 'viewer@demo.dart');
    const compliance = (await login(b, 'compliance@demo.dart')).access;
    const session = json<{ user_info: { id: string } }>(await a.inject({ method: 'GET', url: '/api/session/', headers: bearer(access) }));
    const issue = (node: FastifyInstance) =>
      node.inject({
        method: 'POST',
        url: '/api/issue-sb-session-token',
        payload: { userId: session.user_info.id },
        headers: bearer(access),
      });
    const answers = await Promise.all([issue(a), issue(b), issue(a), issue(b), issue(a), issue(b)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const node of [a, b]) {
      const listed = json<AuditList>(
        await node.inject({ method: 'GET', url: '/api/surveillance/audit/?action=chat.session_issued', headers: bearer(compliance) }),
      );
      expect(listed.results.filter((e) => e.actor_email === 'viewer@demo.dart')).toHaveLength(1);
    }
  });
});
