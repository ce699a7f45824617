/**
 * Chat presence pushed live (issue 6), over real sockets on every driver: a user's first chat socket
 * announces them online, and `presenceOfflineDelayMs` after their last one closes (with no new one)
 * they are announced offline, to the users who see them as a member of a channel and nobody else.
 */
import { CHAT_LIMITS, type Channel } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, DRIVERS, json, type TestApp } from './helpers';
import { listeningChatApp, openChat, sleep, type ChatClient, type ChatUser } from './chat-support';

const DELAY = CHAT_LIMITS.presenceOfflineDelayMs;

describe.each(DRIVERS)('chat presence (%s)', (driver) => {
  let t: TestApp;
  let wsUrl: string;
  let a: ChatUser; // dealer@demo.dart
  let b: ChatUser; // dealer@second.dart: in a group with A
  let c: ChatUser; // broker@brokers.dart: sends A a broadcast
  let d: ChatUser; // backoffice@demo.dart: shares nothing with A

  beforeAll(async () => {
    const started = await listeningChatApp(driver, [
      'dealer@demo.dart',
      'dealer@second.dart',
      'broker@brokers.dart',
      'backoffice@demo.dart',
    ]);
    ({ t, wsUrl } = started);
    a = started.users['dealer@demo.dart'];
    b = started.users['dealer@second.dart'];
    c = started.users['broker@brokers.dart'];
    d = started.users['backoffice@demo.dart'];
  });
  afterAll(async () => {
    await t?.close();
  });

  const api = (user: ChatUser, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(user.access), ...(payload ? { payload } : {}) });
  const presenceOf = (client: ChatClient, userId: string) =>
    client.frames.filter((f) => f.type === 'presence' && f.user_id === userId).map((f) => f.connection_status);
  const statusIn = async (viewer: ChatUser, url: string, userId: string) =>
    json<Channel>(await api(viewer, 'GET', `/api/chat/channels/${url}/`)).members.find((m) => m.userId === userId)?.connectionStatus;

  it('pushes online on the first socket and offline after the delay to those who see the user, and not on a quick reconnect', async () => {
    const group = json<Channel>(
      await api(a, 'POST', '/api/chat/channels/', { customType: 'group', name: 'Presence desk', invitedUserIds: [b.id] }),
    );
    expect((await api(b, 'POST', `/api/chat/channels/${group.url}/accept/`, {})).statusCode).toBe(200);
    // A is a hidden recipient of C's broadcast: C lists A among its members, so C is told too.
    const broadcast = await api(c, 'POST', '/api/chat/channels/', { customType: 'broadcast', name: 'Axes', invitedUserIds: [a.id] });
    expect(broadcast.statusCode).toBe(201);
    const sb = await openChat(wsUrl, b);
    const sc = await openChat(wsUrl, c);
    const sd = await openChat(wsUrl, d);
    expect(await statusIn(b, group.url, a.id)).toBe('offline');

    const sa = await openChat(wsUrl, a);
    expect(await sb.next((f) => f.type === 'presence' && f.user_id === a.id)).toEqual({
      type: 'presence',
      user_id: a.id,
      connection_status: 'online',
    });
    await sc.next((f) => f.type === 'presence' && f.user_id === a.id);
    expect(await statusIn(b, group.url, a.id)).toBe('online');

    // A second socket, then closing one of the two: no change. Closing both and reconnecting within the delay: none either.
    const second = await openChat(wsUrl, a);
    sa.socket.close();
    await sa.closed;
    second.socket.close();
    await second.closed;
    await sleep(DELAY / 2);
    const back = await openChat(wsUrl, a);
    await sleep(DELAY / 2 + 1500);
    expect(presenceOf(sb, a.id)).toEqual(['online']);
    expect(await statusIn(b, group.url, a.id)).toBe('online');

    // Gone for good: offline once the delay has passed, not before.
    back.socket.close();
    await back.closed;
    const closedAt = Date.now();
    await sb.next((f) => f.type === 'presence' && f.user_id === a.id && f.connection_status === 'offline', DELAY + 3000);
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(DELAY - 250);
    await sc.next((f) => f.type === 'presence' && f.user_id === a.id && f.connection_status === 'offline', 2000);
    expect(presenceOf(sb, a.id)).toEqual(['online', 'offline']);
    expect(presenceOf(sc, a.id)).toEqual(['online', 'offline']);
    expect(await statusIn(b, group.url, a.id)).toBe('offline');
    // D shares no channel with A; nobody is told about themselves.
    expect(presenceOf(sd, a.id)).toEqual([]);
    expect(presenceOf(sb, b.id)).toEqual([]);
    for (const s of [sb, sc, sd]) s.socket.close();
  }, 30_000);
});
