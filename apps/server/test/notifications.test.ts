/**
 * The notification centre (issue 15 §3) through the HTTP API and the live socket, on both drivers: a counter makes
 * exactly one notification for the other dealer's firm (fanned out on read), tenants stay apart, reads clear every
 * device, the preference rules hold, a newcomer gets none of the firm's history, and a socket that reconnects is
 * caught up without duplicates. The two-node case is in
 * notifications-cross-node.test.ts.
 */
import type { AddressInfo } from 'node:net';
import { NOTIFICATION_MESSAGES, NOTIFICATION_SNOOZE_MS } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent, publishAll } from '../src/lib/events';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';
import { connectLive, type LiveSocket } from './live-socket';

const LAKH = 100_000;
const GSEC_2033 = 'IN0020220151';

type Message = {
  type: string;
  position?: number;
  topic?: string;
  payload?: { notification?: { id: string; kind: string; title: string }; unread?: number; silent?: boolean; ids?: string[] | null };
};
type Notification = {
  id: string;
  category: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  read_at: string | null;
};
type List = { count: number; unread: number; results: Notification[] };

type Socket = LiveSocket<Message>;

describe.each(DRIVERS)('notification centre (%s)', (driver) => {
  let t: TestApp;
  let wsUrl: string;
  let gsec: number;
  const tok: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    wsUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws/trade/d/`;
    const who = { demo: 'dealer@demo.dart', demo2: 'dealer@demo.dart', second: 'dealer@second.dart', viewer: 'viewer@demo.dart' };
    for (const [name, email] of Object.entries(who)) tok[name] = (await login(t.app, email)).access;
    gsec = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const call = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: bearer(tok[who]!) });
  const list = async (who: string, query = '') => json<List>(await call(who, 'GET', `/api/notifications/${query}`));
  const drain = () => t.app.notifications.producer.drain();
  /** An event every signed-in socket gets (client_id null): a marker that what came before it has been delivered. */
  async function everyoneEvent(): Promise<number> {
    const message = await t.database.db.transaction((tx) => appendEvent(tx, { topic: 'test.marker', clientId: null, payload: {} }));
    await publishAll(t.app.deps.bus, [message]);
    return message.position!;
  }

  /** Demo Capital bids; Second Bank counters it. Returns the quote id. */
  async function counterOnDemoQuote(yieldFraction: number): Promise<string> {
    const quote = await call('demo', 'POST', '/api/trade/eoi/', {
      quantum: 5 * LAKH,
      finstrument_id: gsec,
      yield_stored: yieldFraction,
      validity: 60,
    });
    expect(quote.statusCode, quote.body).toBe(201);
    const id = json<{ id: string }>(quote).id;
    const counter = await call('second', 'POST', '/api/eoi/add-negotiation/', { quote_id: id, yield_stored: yieldFraction - 0.0005 });
    expect(counter.statusCode, counter.body).toBe(200);
    return id;
  }

  const connect = (token: string, lastPosition?: number): Promise<Socket> => connectLive<Message>(wsUrl, token, lastPosition);

  it('a counter makes exactly one notification, for the other dealer only, even when its events are read again', async () => {
    const before = (await list('demo')).count;
    const quoteId = await counterOnDemoQuote(0.0731);
    await drain();
    const demo = await list('demo');
    expect(demo.count).toBe(before + 1);
    expect(demo.results[0]).toMatchObject({
      category: 'negotiation',
      kind: 'negotiation.counter',
      title: 'Counter received',
      link: '/dart',
      read_at: null,
    });
    expect(demo.results[0]!.body).toContain(GSEC_2033);
    // The firm that countered and Demo Capital's view-only users get nothing.
    expect((await list('second')).results.some((n) => n.kind === 'negotiation.counter')).toBe(false);
    expect((await list('viewer')).count).toBe(0);

    const rows = await t.database.query<{ user_id: string; source_ref: string }>(
      `SELECT n.user_id, n.source_ref FROM notifications n JOIN events e ON e.position = n.source_position
        WHERE e.topic = 'market.rfq_negotiation' AND e.payload->>'quote_id' = $1`,
      [quoteId],
    );
    // One row for the firm's audience (fan-out on read), not one per user.
    expect(rows).toEqual([expect.objectContaining({ user_id: null })]);

    // A replayed stretch of the outbox (the cursor moved back) makes no second row and no second live event.
    const [cursor] = await t.database.query<{ position: string }>(`SELECT position FROM event_cursors WHERE name = 'notifications'`);
    const position = cursor!.position;
    const created = async () =>
      Number((await t.database.query<{ n: string }>(`SELECT count(*) AS n FROM events WHERE topic = 'notify.created'`))[0]!.n);
    const eventsBefore = await created();
    await t.database.query(`UPDATE event_cursors SET position = $1 WHERE name = 'notifications'`, [Math.max(0, Number(position) - 20)]);
    await drain();
    expect((await list('demo')).count).toBe(before + 1);
    expect(await created()).toBe(eventsBefore);
  });

  it('delivers a notification live to its user only: not to other users of the firm, never to another firm', async () => {
    const dealer = await connect(tok.demo!);
    const viewer = await connect(tok.viewer!);
    const second = await connect(tok.second!);
    await counterOnDemoQuote(0.0732);
    const live = await dealer.next((m) => m.topic === 'notify.created');
    expect(live.payload?.notification?.kind).toBe('negotiation.counter');
    expect(live.payload?.unread).toBe((await list('demo')).unread);
    expect(live.payload?.silent).toBe(false);
    // A later event for everyone reached the other sockets, so the notification would have by now.
    const sentinel = await everyoneEvent();
    await viewer.next((m) => m.position === sentinel);
    await second.next((m) => m.position === sentinel);
    expect(viewer.messages.some((m) => m.topic?.startsWith('notify.'))).toBe(false);
    expect(second.messages.some((m) => m.topic?.startsWith('notify.'))).toBe(false);

    // Another firm cannot read it, mark it read or see it in its list.
    const id = live.payload!.notification!.id;
    expect((await call('second', 'POST', `/api/notifications/${id}/read/`)).statusCode).toBe(404);
    expect(json<{ message: string }>(await call('second', 'POST', `/api/notifications/${id}/read/`)).message).toBe(
      NOTIFICATION_MESSAGES.notFound,
    );
    expect((await list('second')).results.map((n) => n.id)).not.toContain(id);
    // A replaying socket of the other firm does not get it either.
    const secondReplay = await connect(tok.second!, live.position! - 1);
    await secondReplay.next((m) => m.type === 'auth_ok');
    const viewerReplay = await connect(tok.viewer!, live.position! - 1);
    await counterOnDemoQuote(0.0733);
    await dealer.next((m) => m.topic === 'notify.created' && m.payload?.notification?.id !== id);
    const after = await everyoneEvent();
    await viewerReplay.next((m) => m.position === after);
    await secondReplay.next((m) => m.position === after);
    expect(secondReplay.messages.some((m) => m.topic?.startsWith('notify.'))).toBe(false);
    expect(viewerReplay.messages.some((m) => m.topic?.startsWith('notify.'))).toBe(false);
    for (const s of [dealer, viewer, second, secondReplay, viewerReplay]) s.socket.close();
  });

  it('marks read on one device and every other device of the user clears it live', async () => {
    const phone = await connect(tok.demo2!);
    const desk = await connect(tok.demo!);
    await counterOnDemoQuote(0.0734);
    const created = await phone.next((m) => m.topic === 'notify.created');
    await desk.next((m) => m.topic === 'notify.created' && m.position === created.position);
    const id = created.payload!.notification!.id;

    const read = await call('demo2', 'POST', `/api/notifications/${id}/read/`);
    expect(read.statusCode, read.body).toBe(200);
    const unreadAfter = json<{ unread: number; notification: Notification }>(read);
    expect(unreadAfter.notification.read_at).not.toBeNull();
    const cleared = await desk.next((m) => m.topic === 'notify.read');
    expect(cleared.payload).toMatchObject({ ids: [id], unread: unreadAfter.unread });
    expect((await list('demo')).results.find((n) => n.id === id)?.read_at).not.toBeNull();
    // Reading it again changes nothing and announces nothing.
    expect((await call('demo', 'POST', `/api/notifications/${id}/read/`)).statusCode).toBe(200);

    const all = json<{ updated: number; unread: number }>(await call('demo', 'POST', '/api/notifications/read-all/'));
    expect(all.unread).toBe(0);
    expect(json<{ unread: number }>(await call('demo2', 'GET', '/api/notifications/unread-count/')).unread).toBe(0);
    expect((await list('demo', '?unread=true')).count).toBe(0);
    expect(all.updated).toBeGreaterThan(0);
    await phone.next((m) => m.topic === 'notify.read' && m.payload?.ids === null);
    const reads = desk.messages.filter((m) => m.topic === 'notify.read' && m.payload?.ids?.[0] === id);
    expect(reads).toHaveLength(1);
    phone.socket.close();
    desk.socket.close();
  });

  it('keeps trade-critical notifications on, honours e-mail per category, and snoozes for an hour', async () => {
    const defaults = json<{
      categories: Array<{ category: string; in_app: boolean; email: boolean; trade_critical: boolean }>;
      snoozed_until: null;
    }>(await call('demo', 'GET', '/api/notifications/preferences/'));
    expect(defaults.snoozed_until).toBeNull();
    expect(defaults.categories.find((c) => c.category === 'negotiation')).toMatchObject({
      in_app: true,
      email: false,
      trade_critical: true,
    });

    const refused = await call('demo', 'PUT', '/api/notifications/preferences/', {
      categories: [
        { category: 'rfq', in_app: false },
        { category: 'negotiation', in_app: false },
      ],
    });
    expect(refused.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(refused).errors).toEqual({
      'categories.1.in_app': [NOTIFICATION_MESSAGES.tradeCritical],
    });
    // Nothing of a refused change is kept.
    expect(
      json<typeof defaults>(await call('demo', 'GET', '/api/notifications/preferences/')).categories.find((c) => c.category === 'rfq')
        ?.in_app,
    ).toBe(true);
    const bad = await call('demo', 'PUT', '/api/notifications/preferences/', { categories: [{ category: 'weather', in_app: false }] });
    expect(bad.statusCode).toBe(400);

    const saved = await call('demo', 'PUT', '/api/notifications/preferences/', {
      categories: [
        { category: 'negotiation', email: true },
        { category: 'rfq', in_app: false },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const prefs = json<typeof defaults>(saved).categories;
    expect(prefs.find((c) => c.category === 'negotiation')).toMatchObject({ in_app: true, email: true });
    expect(prefs.find((c) => c.category === 'rfq')).toMatchObject({ in_app: false });

    const outbox = async () =>
      json<{ results: Array<{ subject: string; body: string }> }>(
        await t.app.inject({ method: 'GET', url: '/api/dev/outbox?to=dealer@demo.dart' }),
      ).results.filter((m) => m.subject.endsWith('Counter received'));
    const mailsBefore = (await outbox()).length;
    await counterOnDemoQuote(0.0735);
    await drain();
    expect((await outbox()).length).toBe(mailsBefore + 1);

    const snoozed = json<{ snoozed_until: string }>(await call('demo', 'POST', '/api/notifications/snooze/'));
    expect(new Date(snoozed.snoozed_until).getTime() - Date.now()).toBeGreaterThan(NOTIFICATION_SNOOZE_MS - 60_000);
    expect(json<typeof defaults>(await call('demo', 'GET', '/api/notifications/preferences/')).snoozed_until).toBe(snoozed.snoozed_until);
    const socket = await connect(tok.demo!);
    await counterOnDemoQuote(0.0736);
    const silent = await socket.next((m) => m.topic === 'notify.created');
    expect(silent.payload?.silent).toBe(true);
    expect((await outbox()).length).toBe(mailsBefore + 1); // stored and counted, but no e-mail while snoozed
    t.advanceClock(NOTIFICATION_SNOOZE_MS + 1000);
    expect(json<typeof defaults>(await call('demo', 'GET', '/api/notifications/preferences/')).snoozed_until).toBeNull();
    socket.socket.close();
  });

  it('catches a reconnecting socket up on the notifications it missed, each once, then live ones', async () => {
    const first = await connect(tok.demo!);
    const last = first.position;
    first.socket.close();
    await counterOnDemoQuote(0.0737);
    await drain();
    const missed = json<List>(await call('demo', 'GET', '/api/notifications/?page_size=1')).results[0]!;

    const resumed = await connect(tok.demo!, last);
    await resumed.next((m) => m.topic === 'notify.created' && m.payload?.notification?.id === missed.id);
    await counterOnDemoQuote(0.0738);
    const live = await resumed.next((m) => m.topic === 'notify.created' && m.payload?.notification?.id !== missed.id);
    const ids = resumed.messages.filter((m) => m.topic === 'notify.created').map((m) => m.payload!.notification!.id);
    expect(ids).toEqual([missed.id, live.payload!.notification!.id]);
    const positions = resumed.messages.filter((m) => m.type === 'event').map((m) => m.position!);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(new Set(positions).size).toBe(positions.length);
    resumed.socket.close();
  });

  it('sends a live event that arrives after a later position once, instead of dropping it', async () => {
    const socket = await connect(tok.demo!);
    const append = () => t.database.db.transaction((tx) => appendEvent(tx, { topic: 'test.marker', clientId: null, payload: {} }));
    const earlier = await append();
    const later = await append();
    // The earlier transaction's publish comes last, as when it commits after the later one.
    await publishAll(t.app.deps.bus, [later, earlier, later, earlier]);
    await socket.next((m) => m.position === earlier.position);
    const marker = await everyoneEvent();
    await socket.next((m) => m.position === marker);
    expect(socket.messages.filter((m) => m.type === 'event').map((m) => m.position)).toEqual([later.position, earlier.position, marker]);
    socket.socket.close();
  });

  /** A new trading user of Demo Capital (the dealer's roles and permissions), joined now, with a live token. */
  async function joinDemoCapital(): Promise<{ userId: string; clientId: string; token: string }> {
    const [dealer] = await t.database.query<{ account: string; client_id: string }>(
      `SELECT a.id AS account, a.client_id FROM user_accounts a JOIN users u ON u.id = a.user_id WHERE u.email = 'dealer@demo.dart'`,
    );
    const tag = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const [user] = await t.database.query<{ id: string }>(
      `INSERT INTO users (unique_id, email, first_name, last_name) VALUES ($1, $2, 'New', 'Joiner') RETURNING id`,
      [`JOIN${tag}`, `joiner${tag}@demo.dart`],
    );
    const [account] = await t.database.query<{ id: string }>(
      // Joined now by the app's clock (which the snooze case moved an hour on), as notifications are stamped.
      `INSERT INTO user_accounts (user_id, client_id, created_at) VALUES ($1, $2, $3) RETURNING id`,
      [user!.id, dealer!.client_id, t.app.deps.now().toISOString()],
    );
    await t.database.query(
      `INSERT INTO user_account_roles (user_account_id, role) SELECT $1, role FROM user_account_roles WHERE user_account_id = $2`,
      [account!.id, dealer!.account],
    );
    await t.database.query(
      `INSERT INTO user_account_permissions (user_account_id, permission)
         SELECT $1, permission FROM user_account_permissions WHERE user_account_id = $2`,
      [account!.id, dealer!.account],
    );
    const [session] = await t.database.query<{ id: string }>(
      `INSERT INTO auth_sessions (user_id, user_account_id, expires_at) VALUES ($1, $2, now() + interval '1 hour') RETURNING id`,
      [user!.id, account!.id],
    );
    const token = await t.app.deps.tokens.sign({ userId: user!.id, sessionId: session!.id, clientId: dealer!.client_id });
    return { userId: user!.id, clientId: dealer!.client_id, token };
  }

  it('fans a firm-wide notification out on read: one row, a read mark per user, no history for a newcomer', async () => {
    const older = (await list('demo')).results[0]!;
    const joiner = await joinDemoCapital();
    const service = t.app.notifications.service;
    // Joined after every notification so far: none of the firm's history is theirs, nor can they mark it.
    expect(await service.list(joiner, {})).toMatchObject({ count: 0, unread: 0 });
    await expect(service.markRead(joiner, older.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const joinerSocket = await connect(joiner.token);
    const dealerSocket = await connect(tok.demo!);
    const dealerUnread = (await list('demo')).unread;
    const quoteId = await counterOnDemoQuote(0.0739);
    const [live, dealerLive] = await Promise.all([
      joinerSocket.next((m) => m.topic === 'notify.created'),
      dealerSocket.next((m) => m.topic === 'notify.created'),
    ]);
    // One event for the firm, each socket its own copy: the same notification, each user's own count.
    expect(live.position).toBe(dealerLive.position);
    expect(live.payload?.notification?.id).toBe(dealerLive.payload?.notification?.id);
    expect(live.payload?.unread).toBe(1);
    expect(dealerLive.payload?.unread).toBe(dealerUnread + 1);
    const rows = await t.database.query<{ user_id: string | null }>(
      `SELECT n.user_id FROM notifications n JOIN events e ON e.position = n.source_position
        WHERE e.topic = 'market.rfq_negotiation' AND e.payload->>'quote_id' = $1`,
      [quoteId],
    );
    expect(rows).toEqual([{ user_id: null }]);

    // A read is the reader's own: the dealer's copy stays unread.
    const id = live.payload!.notification!.id;
    expect((await service.markRead(joiner, id)).unread).toBe(0);
    expect((await list('demo')).results.find((n) => n.id === id)?.read_at).toBeNull();
    expect((await service.list(joiner, {})).results).toMatchObject([{ id, read_at: expect.any(String) }]);
    expect(dealerSocket.messages.some((m) => m.topic === 'notify.read' && m.payload?.ids?.includes(id))).toBe(false);
    joinerSocket.socket.close();
    dealerSocket.socket.close();
  });

  it('keeps a notification of a category switched off in-app from that user only, live and in the inbox', async () => {
    // The preferences case above switched Demo Capital's dealer's RFQ notifications off in-app; a newcomer has defaults.
    const joiner = await joinDemoCapital();
    const dealerSocket = await connect(tok.demo!);
    const joinerSocket = await connect(joiner.token);
    const quote = await call('second', 'POST', '/api/trade/eoi/', {
      quantum: 5 * LAKH,
      finstrument_id: gsec,
      yield_stored: 0.0751,
      validity: 60,
    });
    expect(quote.statusCode, quote.body).toBe(201);
    const run = await t.database.db.transaction((tx) =>
      appendEvent(tx, {
        topic: 'market.private_run',
        clientId: joiner.clientId,
        payload: { action: 'created', quote_id: json<{ id: string }>(quote).id, finstrument_id: gsec },
      }),
    );
    await publishAll(t.app.deps.bus, [run]);
    await drain();
    const received = await joinerSocket.next((m) => m.topic === 'notify.created');
    expect(received.payload?.notification).toMatchObject({ kind: 'rfq.private_received', title: 'RFQ received' });
    const sentinel = await everyoneEvent();
    await dealerSocket.next((m) => m.position === sentinel);
    expect(dealerSocket.messages.some((m) => m.position === received.position)).toBe(false);
    const id = received.payload!.notification!.id;
    expect((await list('demo')).results.map((n) => n.id)).not.toContain(id);
    expect((await call('demo', 'POST', `/api/notifications/${id}/read/`)).statusCode).toBe(404);
    expect((await t.app.notifications.service.list(joiner, {})).results.map((n) => n.id)).toContain(id);
    // A replay from before it withholds it from the dealer too.
    const replay = await connect(tok.demo!, received.position! - 1);
    const after = await everyoneEvent();
    await replay.next((m) => m.position === after);
    expect(replay.messages.some((m) => m.topic === 'notify.created' && m.payload?.notification?.id === id)).toBe(false);
    for (const s of [dealerSocket, joinerSocket, replay]) s.socket.close();
  });

  it('tells an invitee of a chat invitation by name, and a requester of an upgrade granted', async () => {
    const userId = async (who: string) => json<{ user_info: { id: string } }>(await call(who, 'GET', '/api/session/')).user_info.id;
    const secondId = await userId('second');
    const group = await call('demo', 'POST', '/api/chat/channels/', {
      customType: 'group',
      name: 'Notify desk',
      invitedUserIds: [secondId],
    });
    expect(group.statusCode, group.body).toBe(201);
    await drain();
    const invitation = (await list('second')).results.find((n) => n.kind === 'chat.invited');
    expect(invitation).toMatchObject({ category: 'chat', title: 'Chat invitation', link: '/dart', read_at: null });
    expect(invitation!.body).toBe('Arjun Mehta (Demo Capital) invited you to the group “Notify desk”.');
    // The inviter's firm is not told of its own invitation.
    expect((await list('demo')).results.some((n) => n.kind === 'chat.invited')).toBe(false);

    // Dart Support grants Small Treasury Premium on its access request: the requester hears of it.
    tok.basic = (await login(t.app, 'basic@small.dart')).access;
    tok.staff = (await login(t.app, 'support@dart.in')).access;
    const ticket = await call('basic', 'POST', '/api/support/requests/', { kind: 'upgrade', message: '', page: '/inventory' });
    expect(ticket.statusCode, ticket.body).toBe(201);
    const granted = await call('staff', 'POST', `/ext/tickets/${json<{ id: string }>(ticket).id}/grant-upgrade/`, { version: 1 });
    expect(granted.statusCode, granted.body).toBe(200);
    await drain();
    tok.basic = (await login(t.app, 'basic@small.dart')).access;
    const upgrade = (await list('basic')).results.find((n) => n.kind === 'account.upgrade_granted');
    expect(upgrade).toMatchObject({ category: 'account', title: 'Upgrade granted', link: '/support/requests' });
    expect(upgrade!.body).toMatch(/^Your organisation is now on the Premium plan \(request #\d+\)\.$/);
  });

  it('pages the inbox and refuses bad paging with a readable message', async () => {
    const page = json<List & { page: number; page_size: number }>(await call('demo', 'GET', '/api/notifications/?page=2&page_size=2'));
    expect(page).toMatchObject({ page: 2, page_size: 2 });
    expect(page.results.length).toBeLessThanOrEqual(2);
    const bad = await call('demo', 'GET', '/api/notifications/?page_size=500');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Page size must be 1 to 100.');
    expect((await call('demo', 'GET', '/api/notifications/?colour=red')).statusCode).toBe(400);
  });
});
