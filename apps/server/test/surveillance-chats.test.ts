/**
 * Issue 16 §1, "the compliance officer reads all of the own firm's chats (never another firm's)": the channels with a
 * member of the officer's firm (search, paging), their messages in a period of IST days (oldest first, paging, edits
 * and deletes as chat keeps them), another firm's channel 404 and absent, compliance officers only, 400 with field
 * errors on bad input, and one audit row per read.
 */
import { randomUUID } from 'node:crypto';
import {
  SURVEILLANCE_CHAT_MESSAGES,
  SURVEILLANCE_MESSAGES,
  type SurveillanceChat,
  type SurveillanceChatList,
  type SurveillanceChatMessageList,
} from '@dart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema';
import { bearer, createTestApp, DRIVERS, json, type TestApp } from './helpers';
import { call, postTradeActors, type Actor } from './post-trade-support';
import { demoSecondChat, say, secondBankCompliance } from './surveillance-support';

describe.each(DRIVERS)('surveillance chats (%s)', (driver) => {
  let t: TestApp;
  let actors: Record<string, Actor>;
  let demo: string;
  let second: string;
  let desk: string;
  let deskId: string;
  let secondOnlyId: string;
  const said: string[] = [];

  const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
  const list = async (token: string, query = '') => {
    const response = await get(token, `/api/surveillance/chats/${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return json<SurveillanceChatList>(response);
  };
  const messages = async (token: string, id: string, query = '') => {
    const response = await get(token, `/api/surveillance/chats/${id}/messages/${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return json<SurveillanceChatMessageList>(response);
  };
  const channelId = async (url: string) =>
    String(
      (
        (await t.database.db.execute(sql`SELECT id FROM chat_channels WHERE url = ${url}`)) as unknown as {
          rows: Array<{ id: string }>;
        }
      ).rows[0]!.id,
    );
  /** Setup steps fail loudly (expect belongs in the tests). */
  const ok = (response: { statusCode: number; body: string }) => {
    if (response.statusCode >= 300) throw new Error(`setup call failed: ${response.statusCode} ${response.body}`);
  };
  const setTime = (messageId: string, at: string) =>
    t.database.db.execute(sql`UPDATE chat_messages SET created_at = ${at}::timestamptz WHERE id = ${messageId}::uuid`);

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    actors = await postTradeActors(t);
    demo = actors.compliance!.token;
    const secondOfficer = await secondBankCompliance(t);
    second = secondOfficer.token;
    desk = await demoSecondChat(t, 'Gilt desk');
    deskId = await channelId(desk);
    for (const text of ['Morning, any 2033 paper?', 'Offer 7.10 for 5 cr', 'Done at 7.10', 'Confirming', 'Thanks'])
      said.push(await say(t, said.length % 2 === 0 ? 'demo' : 'second', desk, text));
    // IST days: 10 Jan 23:00 IST is 17:30 UTC on the 10th; 11 Jan 00:30 IST is 19:00 UTC on the 10th.
    await setTime(said[0]!, '2026-01-10T23:00:00+05:30');
    await setTime(said[1]!, '2026-01-11T00:30:00+05:30');
    // An edit and a delete, kept as chat keeps them.
    const edited = await call(
      t,
      'demo',
      'PATCH',
      `/api/chat/channels/${desk}/messages/${said[2]}/`,
      { message: 'Done at 7.11' },
      {
        'idempotency-key': randomUUID(),
      },
    );
    ok(edited);
    const deleted = await call(t, 'demo', 'DELETE', `/api/chat/channels/${desk}/messages/${said[4]}/`, undefined, {
      'idempotency-key': randomUUID(),
    });
    ok(deleted);
    // Second Bank's own chat (its dealer and its compliance officer): no member of Demo Capital.
    const created = await call(t, 'second', 'POST', '/api/chat/channels/', {
      customType: 'group',
      name: 'Second internal',
      invitedUserIds: [secondOfficer.userId],
    });
    ok(created);
    const secondOnly = json<{ url: string }>(created).url;
    secondOnlyId = await channelId(secondOnly);
    await say(t, 'second', secondOnly, 'Internal only: our book is long');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers compliance officers only: a dealer, a viewer and a back office user get 403, no token 401', async () => {
    for (const who of ['demo', 'viewer', 'backoffice'] as const) {
      const token = actors[who]!.token;
      expect((await get(token, '/api/surveillance/chats/')).statusCode).toBe(403);
      expect((await get(token, `/api/surveillance/chats/${deskId}/messages/`)).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/surveillance/chats/' })).statusCode).toBe(401);
  });

  it("lists the channels with a member of the officer's firm, with members, count and last message", async () => {
    const mine = await list(demo);
    const chat = mine.results.find((c) => c.id === deskId) as SurveillanceChat;
    expect(chat).toMatchObject({ url: desk, name: 'Gilt desk', type: 'group', message_count: 5 });
    expect(chat.last_message_at).not.toBeNull();
    expect(chat.members.map((m) => m.firm).sort()).toEqual(['Demo Capital', 'Second Bank']);
    expect(chat.members.find((m) => m.firm === 'Demo Capital')).toMatchObject({ own_firm: true, left: false });
    expect(chat.members.find((m) => m.firm === 'Second Bank')).toMatchObject({ own_firm: false });
    expect(mine.count).toBe(mine.results.length);
  });

  it("keeps firms apart: another firm's channel is absent from the list and 404 on its messages", async () => {
    const mine = await list(demo);
    expect(mine.results.some((c) => c.id === secondOnlyId)).toBe(false);
    expect(JSON.stringify(mine)).not.toContain('Second internal');
    const refused = await get(demo, `/api/surveillance/chats/${secondOnlyId}/messages/`);
    expect(refused.statusCode).toBe(404);
    expect(json<{ message: string }>(refused).message).toBe(SURVEILLANCE_CHAT_MESSAGES.notFound);
    expect(refused.body).not.toContain('our book is long');
    expect((await get(demo, `/api/surveillance/chats/${randomUUID()}/messages/`)).statusCode).toBe(404);
    // Second Bank's officer sees both: the shared desk and its own chat.
    const theirs = await list(second);
    expect(theirs.results.map((c) => c.id)).toEqual(expect.arrayContaining([deskId, secondOnlyId]));
    expect((await messages(second, secondOnlyId)).results.map((m) => m.text)).toEqual(['Internal only: our book is long']);
  });

  it('searches by chat name, member name and firm, and pages the list', async () => {
    expect((await list(demo, '?search=gilt')).results.map((c) => c.id)).toEqual([deskId]);
    expect((await list(demo, '?search=second%20bank')).results.map((c) => c.id)).toContain(deskId);
    expect((await list(demo, '?search=no-such-chat-anywhere')).results).toEqual([]);
    expect((await list(demo, '?search=100%25')).count).toBe(0);
    const first = await list(demo, '?page_size=1');
    expect(first.results).toHaveLength(1);
    expect(first.count).toBe((await list(demo)).count);
    const beyond = await list(demo, `?page_size=1&page=${first.count + 1}`);
    expect(beyond.results).toEqual([]);
    expect(beyond.count).toBe(first.count);
  });

  it('reads the messages oldest first with sender and firm, edits and deletes, paged', async () => {
    const all = await messages(demo, deskId);
    expect(all.chat.id).toBe(deskId);
    expect(all.count).toBe(5);
    expect(all.results.map((m) => m.id)).toEqual(said);
    expect(all.results[0]).toMatchObject({ sender_firm: 'Demo Capital', type: 'user', text: 'Morning, any 2033 paper?', deleted_at: null });
    expect(all.results[1]).toMatchObject({ sender_firm: 'Second Bank' });
    expect(all.results[0]!.sender_name).toBeTruthy();
    expect(all.results[2]).toMatchObject({ text: 'Done at 7.11', edits: [{ previous_text: 'Done at 7.10' }] });
    expect(all.results[4]!.deleted_at).not.toBeNull();
    expect(all.results[4]!.text).toBe('Thanks');
    const page1 = await messages(demo, deskId, '?page_size=2');
    const page3 = await messages(demo, deskId, '?page_size=2&page=3');
    expect(page1.results.map((m) => m.id)).toEqual(said.slice(0, 2));
    expect(page3.results.map((m) => m.id)).toEqual(said.slice(4));
    expect(page3.count).toBe(5);
  });

  it('filters the messages by IST days', async () => {
    expect((await messages(demo, deskId, '?from=2026-01-10&to=2026-01-10')).results.map((m) => m.id)).toEqual([said[0]]);
    expect((await messages(demo, deskId, '?from=2026-01-11&to=2026-01-11')).results.map((m) => m.id)).toEqual([said[1]]);
    const since = await messages(demo, deskId, '?from=2026-01-11');
    expect(since.results.map((m) => m.id)).toEqual(said.slice(1));
    expect((await messages(demo, deskId, '?to=2026-01-09')).count).toBe(0);
  });

  it('answers 400 with field errors on bad input', async () => {
    const cases: Array<[string, string]> = [
      [`/api/surveillance/chats/${deskId}/messages/?from=2026-13-01`, 'from'],
      [`/api/surveillance/chats/${deskId}/messages/?from=2026-02-02&to=2026-02-01`, 'to'],
      [`/api/surveillance/chats/${deskId}/messages/?page_size=1000`, 'page_size'],
      [`/api/surveillance/chats/${deskId}/messages/?page=0`, 'page'],
      [`/api/surveillance/chats/${'x'.repeat(5)}/messages/`, 'id'],
      [`/api/surveillance/chats/?search=${'a'.repeat(101)}`, 'search'],
      ['/api/surveillance/chats/?page_size=0', 'page_size'],
    ];
    for (const [url, field] of cases) {
      const response = await get(demo, url);
      expect(response.statusCode, url).toBe(400);
      const body = json<{ code: string; errors?: Record<string, string[]> }>(response);
      expect(body.code, url).toBe('VALIDATION_FAILED');
      expect(Object.keys(body.errors ?? {}), url).toContain(field);
    }
    // Unknown parameters are refused, not ignored (mass assignment).
    const unknown = await get(demo, `/api/surveillance/chats/${deskId}/messages/?channel=x`);
    expect(unknown.statusCode).toBe(400);
    expect(json<{ code: string }>(unknown).code).toBe('VALIDATION_FAILED');
    const order = json<{ errors: Record<string, string[]> }>(
      await get(demo, `/api/surveillance/chats/${deskId}/messages/?from=2026-02-02&to=2026-02-01`),
    );
    expect(order.errors.to).toContain(SURVEILLANCE_MESSAGES.dateOrder);
  });

  it('audits each read once, with the channel, the period and the count', async () => {
    const reads = () =>
      t.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'surveillance.chat_read'), eq(auditLog.entityId, desk)));
    const before = (await reads()).length;
    await messages(demo, deskId, '?from=2026-01-10&to=2026-01-10');
    const after = await reads();
    expect(after.length).toBe(before + 1);
    const row = after.at(-1)!;
    expect(row.actorUserId).toBe(actors.compliance!.userId);
    expect(row.actorClientId).toBe(actors.compliance!.clientId);
    expect(row.after).toMatchObject({ from: '2026-01-10', to: '2026-01-10', messages: 1 });
    // A refused read writes nothing.
    const total = async () => (await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'surveillance.chat_read'))).length;
    const count = await total();
    await get(demo, `/api/surveillance/chats/${secondOnlyId}/messages/`);
    expect(await total()).toBe(count);
  });

  it('lets the officer export the transcript of a listed chat through POST /api/download-chats', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/download-chats',
      headers: bearer(demo),
      payload: { startTime: '2026-01-01T00:00:00.000Z', endTime: new Date(Date.now() + 60_000).toISOString(), channelIds: [desk] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toContain('Morning, any 2033 paper?');
  });
});
