/**
 * Chat (issue 6) over real HTTP and real sockets, on every driver: sessions and close codes, the
 * terms gate, channels and visibility, invitations, bans, operators, ordering and exactly-once
 * resume, receipts, typing, rate limit, idempotent sends, files and the compliance export.
 */
import { CHAT_CLOSE, CHAT_LIMITS, CHAT_MESSAGES, type Channel, type ChatMessage } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusMessage } from '../src/lib/bus';
import { bearer, DRIVERS, json, login, type TestApp } from './helpers';
import { chatUser, connectChat, listeningChatApp, openChat, sleep, type ChatUser } from './chat-support';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

describe.each(DRIVERS)('chat (%s)', (driver) => {
  let t: TestApp;
  let wsUrl: string;
  let a: ChatUser; // dealer@demo.dart (Demo Capital)
  let b: ChatUser; // dealer@second.dart (Second Bank)
  let c: ChatUser; // broker@brokers.dart (Demo Brokers)
  let reqCounter = 0;
  const reqId = () => `req-${++reqCounter}-${Date.now()}`;

  beforeAll(async () => {
    const started = await listeningChatApp(driver, ['dealer@demo.dart', 'dealer@second.dart', 'broker@brokers.dart']);
    ({ t, wsUrl } = started);
    a = started.users['dealer@demo.dart'];
    b = started.users['dealer@second.dart'];
    c = started.users['broker@brokers.dart'];
  });
  afterAll(async () => {
    await t?.close();
  });

  const api = async (user: ChatUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(user.access), ...(payload === undefined ? {} : { payload: payload as object }) });
  const createChannel = async (user: ChatUser, payload: Record<string, unknown>) => {
    const response = await api(user, 'POST', '/api/chat/channels/', payload);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return json<Channel>(response);
  };
  const sendRest = async (user: ChatUser, url: string, message: string, id = reqId()) => {
    const response = await api(user, 'POST', `/api/chat/channels/${url}/messages/`, { reqId: id, message });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return json<ChatMessage>(response);
  };
  const channelsOf = async (user: ChatUser) =>
    json<{ channels: Channel[] }>(await api(user, 'GET', '/api/chat/channels/?limit=100')).channels;

  it('gates chat on the chat terms, and hides direct channels with users who have not onboarded', async () => {
    const basic = await chatUser(t.app, 'basic@small.dart');
    const gated = await api(basic, 'GET', '/api/chat/channels/');
    expect(gated.statusCode).toBe(403);
    expect(json(gated)).toMatchObject({ code: 'CHAT_TERMS_REQUIRED', message: CHAT_MESSAGES.termsRequired });
    // A session token is still issued (the socket then has nothing to show).
    expect((await api(basic, 'POST', '/api/issue-sb-session-token', { userId: basic.id })).statusCode).toBe(200);

    const direct = await createChannel(a, { isDistinct: true, customType: 'direct', invitedUserIds: [basic.id] });
    expect((await channelsOf(a)).map((ch) => ch.url)).not.toContain(direct.url);
    const bad = await api(basic, 'PATCH', '/api/client/chat-terms/', { has_accepted_chat_terms: false });
    expect(bad.statusCode).toBe(400);
    expect((await api(basic, 'PATCH', '/api/client/chat-terms/', { has_accepted_chat_terms: true })).statusCode).toBe(200);
    expect((await channelsOf(a)).map((ch) => ch.url)).toContain(direct.url);
    const invited = (await channelsOf(basic)).find((ch) => ch.url === direct.url);
    expect(invited?.myMemberState).toBe('invited');
    expect(invited?.inviter?.userId).toBe(a.id);
  });

  it('issues chat session tokens only for oneself; bad and expired tokens close 4401, revoked sessions 4403', async () => {
    expect((await api(a, 'POST', '/api/issue-sb-session-token', { userId: b.id })).statusCode).toBe(403);
    const bad = await connectChat(wsUrl);
    bad.send({ type: 'auth', token: 'not-a-token', cursors: {} });
    expect((await bad.closed).code).toBe(CHAT_CLOSE.tokenInvalid);

    // Expired: the app clock moves past the token's lifetime.
    const expiring = await a.token();
    t.advanceClock((CHAT_LIMITS.sessionTokenTtlSeconds + 60) * 1000);
    const expired = await connectChat(wsUrl);
    expired.send({ type: 'auth', token: expiring, cursors: {} });
    const closed = await expired.closed;
    t.advanceClock(-(CHAT_LIMITS.sessionTokenTtlSeconds + 60) * 1000);
    expect(closed.code).toBe(CHAT_CLOSE.tokenInvalid);

    // Revoked: an open socket closes at once; the old token then answers 4403.
    const viewer = await chatUser(t.app, 'viewer@demo.dart');
    const token = await viewer.token();
    const open = await connectChat(wsUrl);
    open.send({ type: 'auth', token, cursors: {} });
    await open.next((f) => f.type === 'resumed');
    const started = Date.now();
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/remove-sb-session?userId=${viewer.id}`,
      headers: bearer(viewer.access),
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await open.closed).code).toBe(CHAT_CLOSE.sessionEnded);
    expect(Date.now() - started).toBeLessThan(1000);
    const again = await connectChat(wsUrl);
    again.send({ type: 'auth', token, cursors: {} });
    expect((await again.closed).code).toBe(CHAT_CLOSE.sessionEnded);

    // Signing out ends the chat sessions issued under that sign-in.
    const backoffice = await chatUser(t.app, 'backoffice@demo.dart');
    const other = await openChat(wsUrl, backoffice);
    await t.app.inject({ method: 'POST', url: '/api/logout/', payload: {}, headers: bearer(backoffice.access) });
    expect((await other.closed).code).toBe(CHAT_CLOSE.sessionEnded);
  });

  it("closes a deactivated user's chat socket 4403 and refuses their token afterwards", async () => {
    const ops = await chatUser(t.app, 'opsadmin@demo.dart');
    const token = await ops.token();
    const socket = await connectChat(wsUrl);
    socket.send({ type: 'auth', token, cursors: {} });
    await socket.next((f) => f.type === 'resumed');
    await t.database.query('UPDATE users SET is_active = false WHERE id = $1', [ops.id]);
    await t.app.deps.bus.publish({ topic: 'auth.user_changed', payload: { userId: ops.id } });
    expect((await socket.closed).code).toBe(CHAT_CLOSE.sessionEnded);
    const again = await connectChat(wsUrl);
    again.send({ type: 'auth', token, cursors: {} });
    expect((await again.closed).code).toBe(CHAT_CLOSE.sessionEnded);
  });

  it('answers pings before auth, closes an unauthenticated socket after 4 s, and refuses floods and huge frames', async () => {
    const client = await connectChat(wsUrl);
    client.send({ type: 'ping' });
    await client.next((f) => f.type === 'pong');
    client.send({ type: 'send', channel_url: 'x', reqId: 'r', message: 'hi' });
    await client.next((f) => f.type === 'error' && f.code === 'UNAUTHENTICATED');
    expect((await client.closed).code).toBe(CHAT_CLOSE.tokenInvalid);
    const big = await connectChat(wsUrl);
    big.socket.send('x'.repeat(70 * 1024));
    expect((await big.closed).code).toBe(1009);
    const flood = await connectChat(wsUrl);
    for (let i = 0; i < 60; i++) flood.send({ type: 'ping' });
    expect((await flood.closed).code).toBe(1008);
  }, 15_000);

  it('creates a distinct direct channel once; messages get gap-free positions and page before/after', async () => {
    const first = await api(a, 'POST', '/api/chat/channels/', {
      isDistinct: true,
      customType: 'direct',
      invitedUserIds: [b.id],
      operatorUserIds: [a.id],
    });
    expect(first.statusCode).toBe(201);
    const again = await api(a, 'POST', '/api/chat/channels/', { isDistinct: true, customType: 'direct', invitedUserIds: [b.id] });
    expect(again.statusCode).toBe(200);
    const channel = json<Channel>(first);
    expect(json<Channel>(again).url).toBe(channel.url);
    // From the other side too.
    const reverse = await api(b, 'POST', '/api/chat/channels/', { isDistinct: true, customType: 'direct', invitedUserIds: [a.id] });
    expect(json<Channel>(reverse).url).toBe(channel.url);
    expect(channel.myRole).toBe('operator');
    expect(channel.members.map((m) => m.userId).sort()).toEqual([a.id, b.id].sort());

    // The invitee reads but must accept before sending.
    const early = await api(b, 'POST', `/api/chat/channels/${channel.url}/messages/`, { reqId: reqId(), message: 'hi' });
    expect(early.statusCode).toBe(403);
    expect((await api(b, 'POST', `/api/chat/channels/${channel.url}/accept/`, {})).statusCode).toBe(200);

    const sent = [];
    for (let i = 1; i <= 4; i++) sent.push(await sendRest(i % 2 ? a : b, channel.url, `message ${i}`));
    await sleep(1100);
    expect(sent.map((m) => m.position)).toEqual([1, 2, 3, 4]);
    const latest = json<{ messages: ChatMessage[]; has_more: boolean }>(
      await api(a, 'GET', `/api/chat/channels/${channel.url}/messages/?limit=2`),
    );
    expect(latest.messages.map((m) => m.position)).toEqual([3, 4]);
    expect(latest.has_more).toBe(true);
    const previous = json<{ messages: ChatMessage[]; has_more: boolean }>(
      await api(a, 'GET', `/api/chat/channels/${channel.url}/messages/?before=3&limit=5`),
    );
    expect(previous.messages.map((m) => m.position)).toEqual([1, 2]);
    expect(previous.has_more).toBe(false);
    const next = json<{ messages: ChatMessage[]; has_more: boolean }>(
      await api(a, 'GET', `/api/chat/channels/${channel.url}/messages/?after=1&limit=2`),
    );
    expect(next.messages.map((m) => m.position)).toEqual([2, 3]);
    expect(next.has_more).toBe(true);
    // Unread count: sending marks read, so A (who sent #3) has only #4 unread; reading never goes back.
    await api(a, 'POST', `/api/chat/channels/${channel.url}/read/`, { position: 1 });
    const mine = (await channelsOf(a)).find((ch) => ch.url === channel.url)!;
    expect(mine.unreadMessageCount).toBe(1);
    expect(mine.lastMessage?.message).toBe('message 4');
  });

  it('sends idempotently by reqId: a retry returns the stored message and uses no position', async () => {
    const channel = await createChannel(a, { customType: 'group', name: 'Idempotency desk', invitedUserIds: [b.id] });
    const id = reqId();
    const first = await api(a, 'POST', `/api/chat/channels/${channel.url}/messages/`, { reqId: id, message: 'once' });
    const second = await api(a, 'POST', `/api/chat/channels/${channel.url}/messages/`, { reqId: id, message: 'once' });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(json<ChatMessage>(second).messageId).toBe(json<ChatMessage>(first).messageId);
    await sleep(1100);
    const third = await sendRest(a, channel.url, 'twice');
    expect(third.position).toBe(2);
    // Concurrent duplicates: one message, one position.
    await sleep(1100);
    const same = reqId();
    const results = await Promise.all(
      [0, 1, 2].map(() => api(a, 'POST', `/api/chat/channels/${channel.url}/messages/`, { reqId: same, message: 'race' })),
    );
    expect(new Set(results.map((r) => json<ChatMessage>(r).messageId)).size).toBe(1);
    const list = json<{ messages: ChatMessage[] }>(await api(a, 'GET', `/api/chat/channels/${channel.url}/messages/`));
    expect(list.messages.map((m) => m.position)).toEqual([1, 2, 3]);
  });

  it('delivers over the socket in order, acks sends, and resumes after a disconnect with exactly what was missed', async () => {
    await sleep(1100);
    const channel = await createChannel(a, { customType: 'group', name: 'Ordering desk', invitedUserIds: [b.id] });
    await api(b, 'POST', `/api/chat/channels/${channel.url}/accept/`, {});
    const sa = await openChat(wsUrl, a);
    const sb = await openChat(wsUrl, b);
    const send = async (n: number) => {
      const id = reqId();
      sa.send({ type: 'send', channel_url: channel.url, reqId: id, message: `live ${n}` });
      const ack = await sa.next((f) => (f.type === 'ack' || f.type === 'nack') && f.reqId === id);
      expect(ack.type, JSON.stringify(ack)).toBe('ack');
      return (ack.message as ChatMessage).position;
    };
    for (let n = 1; n <= 4; n++) await send(n);
    await sb.next((f) => f.type === 'message' && f.channel_url === channel.url && f.position === 4);
    expect(sb.positions(channel.url)).toEqual([1, 2, 3, 4]);
    sb.socket.close();
    await sb.closed;
    await sleep(1000);
    for (let n = 5; n <= 7; n++) await send(n);
    // Another channel that B is in, but for which B sends no cursor: no replay there.
    const resumed = await openChat(wsUrl, b, { [channel.url]: 4, dart_group_not_mine: 0 });
    expect(resumed.positions(channel.url)).toEqual([5, 6, 7]);
    const resumedAt = resumed.frames.findIndex((f) => f.type === 'resumed');
    expect(resumed.frames.slice(resumedAt).some((f) => f.type === 'message')).toBe(false);
    await sleep(1000);
    await send(8);
    await resumed.next((f) => f.type === 'message' && f.position === 8);
    expect(resumed.positions(channel.url)).toEqual([5, 6, 7, 8]);
    // The sender's own socket gets each message once too.
    expect(sa.positions(channel.url)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    sa.socket.close();
    resumed.socket.close();
  });

  it('resumes with the edits and deletes made while away (by change sequence), before resumed, once and in order', async () => {
    await sleep(1100);
    const channel = await createChannel(a, { customType: 'group', name: 'Edits desk', invitedUserIds: [b.id] });
    await api(b, 'POST', `/api/chat/channels/${channel.url}/accept/`, {});
    const sent: ChatMessage[] = [];
    for (let n = 1; n <= 4; n++) sent.push(await sendRest(a, channel.url, `quote ${n}`));
    const page = json<{ change_seq: number }>(await api(b, 'GET', `/api/chat/channels/${channel.url}/messages/`));
    expect(page.change_seq).toBe(0);
    const edit = async (m: ChatMessage, text: string) =>
      expect((await api(a, 'PATCH', `/api/chat/channels/${channel.url}/messages/${m.messageId}/`, { message: text })).statusCode).toBe(200);
    const remove = async (m: ChatMessage) =>
      expect((await api(a, 'DELETE', `/api/chat/channels/${channel.url}/messages/${m.messageId}/`)).statusCode).toBe(200);
    const changes = (client: { frames: Array<Record<string, unknown>> }) =>
      client.frames
        .filter((f) => f.type === 'channel' && f.channel_url === channel.url && f.change_seq !== undefined)
        .map((f) => [f.change_seq, f.event, (f.message as ChatMessage).messageId, (f.message as ChatMessage).message]);

    // Live: the change frame carries the channel's change sequence.
    const live = await openChat(wsUrl, b, { [channel.url]: { position: 4, change_seq: page.change_seq } });
    await edit(sent[0]!, 'quote 1 revised');
    await live.next((f) => f.type === 'channel' && f.change_seq === 1);
    expect(changes(live)).toEqual([[1, 'message_updated', sent[0]!.messageId, 'quote 1 revised']]);
    live.socket.close();
    await live.closed;

    // Away: two edits of one message, a delete, and a new message edited at once.
    await edit(sent[1]!, 'quote 2 revised');
    await remove(sent[2]!);
    await edit(sent[1]!, 'quote 2 final');
    const fifth = await sendRest(a, channel.url, 'quote 5');
    await edit(fifth, 'quote 5 revised');
    const resumed = await openChat(wsUrl, b, { [channel.url]: { position: 4, change_seq: 1 } });
    // Each changed message once, as it is now, in change order; the new message comes as it is now, after them.
    expect(changes(resumed)).toEqual([
      [3, 'message_deleted', sent[2]!.messageId, ''],
      [4, 'message_updated', sent[1]!.messageId, 'quote 2 final'],
    ]);
    const order = resumed.frames.map((f) =>
      f.type === 'message' ? `m${f.position as number}` : f.type === 'channel' ? `c${f.change_seq as number}` : f.type,
    );
    expect(order.slice(order.indexOf('c3'))).toEqual(['c3', 'c4', 'm5', 'resumed']);
    expect((resumed.frames.find((f) => f.type === 'message')!.message as ChatMessage).message).toBe('quote 5 revised');
    const replayed = resumed.frames.find((f) => f.type === 'channel' && f.change_seq === 4)!;
    expect(replayed.actor).toEqual({ userId: a.id, nickname: 'Arjun Mehta' });
    expect((replayed.channel as Channel).url).toBe(channel.url);
    resumed.socket.close();

    // The first form of the cursor (a bare position) still works: no changes replayed.
    const plain = await openChat(wsUrl, b, { [channel.url]: 4 });
    expect(changes(plain)).toEqual([]);
    expect(plain.positions(channel.url)).toEqual([5]);
    plain.socket.close();
    // A cursor at the current change sequence replays nothing; the page says where it stands.
    const current = json<{ change_seq: number }>(await api(b, 'GET', `/api/chat/channels/${channel.url}/messages/`)).change_seq;
    expect(current).toBe(5);
    const upToDate = await openChat(wsUrl, b, { [channel.url]: { position: 5, change_seq: current } });
    expect(upToDate.frames.filter((f) => f.type === 'channel' || f.type === 'message')).toEqual([]);

    // A lost publish of a change: the next change finds the gap and reads it from the database.
    const bus = t.app.deps.bus;
    const original = bus.publish.bind(bus);
    let dropped = 0;
    bus.publish = async (message) => {
      if (message.topic === 'chat.channel' && (message.payload as { change_seq?: number }).change_seq === 6) {
        dropped++;
        return;
      }
      await original(message);
    };
    try {
      await edit(sent[3]!, 'quote 4 revised'); // change 6, never published
      await edit(fifth, 'quote 5 final'); // change 7
      await upToDate.next((f) => f.type === 'channel' && f.change_seq === 7);
    } finally {
      bus.publish = original;
    }
    expect(dropped).toBe(1);
    expect(changes(upToDate)).toEqual([
      [6, 'message_updated', sent[3]!.messageId, 'quote 4 revised'],
      [7, 'message_updated', fifth.messageId, 'quote 5 final'],
    ]);
    upToDate.socket.close();
    await sleep(1100); // A's five sends this second stay out of the next test's rate limit
  });

  it('delivers exactly once in order when publishes arrive out of order or get lost', async () => {
    const channel = await createChannel(a, { customType: 'group', name: 'Lossy desk', invitedUserIds: [b.id] });
    await api(b, 'POST', `/api/chat/channels/${channel.url}/accept/`, {});
    const sb = await openChat(wsUrl, b);
    const bus = t.app.deps.bus;
    const original = bus.publish.bind(bus);
    const held: BusMessage[] = [];
    let mode: 'hold' | 'drop' | 'pass' = 'hold';
    bus.publish = async (message) => {
      if (message.topic === 'chat.message' && (message.payload as { channel_url: string }).channel_url === channel.url && mode !== 'pass') {
        if (mode === 'hold') held.push(message);
        mode = 'pass';
        return;
      }
      await original(message);
    };
    try {
      await sendRest(a, channel.url, 'held back'); // position 1, held
      await sendRest(a, channel.url, 'overtakes'); // position 2 arrives first → 1 is read from the database
      await sb.next((f) => f.type === 'message' && f.position === 2);
      await original(held[0]!); // the late publish of 1 is dropped
      mode = 'drop';
      await sleep(1100);
      await sendRest(a, channel.url, 'lost'); // position 3, never published
      // No later message: the sweep finds position 3 in the database.
      await sb.next((f) => f.type === 'message' && f.position === 3, 8000);
      await sleep(300);
      expect(sb.positions(channel.url)).toEqual([1, 2, 3]);
    } finally {
      bus.publish = original;
      sb.socket.close();
    }
  }, 20_000);

  it('limits sends to 5 per second per user: REST 429, socket nack', async () => {
    const channel = await createChannel(c, { customType: 'group', name: 'Rate desk', invitedUserIds: [a.id] });
    await sleep(1100);
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await api(c, 'POST', `/api/chat/channels/${channel.url}/messages/`, { reqId: reqId(), message: `m${i}` })).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    await sleep(1100);
    const socket = await openChat(wsUrl, c);
    const ids = Array.from({ length: 6 }, () => reqId());
    for (const id of ids) socket.send({ type: 'send', channel_url: channel.url, reqId: id, message: 'fast' });
    const answers = await Promise.all(ids.map((id) => socket.next((f) => (f.type === 'ack' || f.type === 'nack') && f.reqId === id)));
    expect(answers.filter((f) => f.type === 'ack')).toHaveLength(5);
    expect(answers.find((f) => f.type === 'nack')).toMatchObject({ code: 'RATE_LIMITED', message: CHAT_MESSAGES.tooManyMessages });
    socket.socket.close();
  });

  it('keeps read and delivered receipts monotonic, throttles delivered, and tells the other members', async () => {
    const channel = await createChannel(a, { customType: 'group', name: 'Receipts desk', invitedUserIds: [b.id] });
    await api(b, 'POST', `/api/chat/channels/${channel.url}/accept/`, {});
    await sleep(1100);
    for (let i = 0; i < 5; i++) await sendRest(a, channel.url, `r${i}`);
    const sa = await openChat(wsUrl, a);
    const sb = await openChat(wsUrl, b);
    sb.send({ type: 'read', channel_url: channel.url, position: 2 });
    const receipt = await sa.next((f) => f.type === 'receipt' && f.user_id === b.id && f.read_position === 2);
    expect(receipt.delivered_position).toBe(2);
    const lower = json<{ read_position: number }>(await api(b, 'POST', `/api/chat/channels/${channel.url}/read/`, { position: 1 }));
    expect(lower.read_position).toBe(2);
    // Delivered: the first goes through, the second within 1000 ms is merged and written after the window.
    const d1 = json<{ throttled: boolean }>(await api(b, 'POST', `/api/chat/channels/${channel.url}/delivered/`, { position: 3 }));
    const d2 = json<{ throttled: boolean }>(await api(b, 'POST', `/api/chat/channels/${channel.url}/delivered/`, { position: 4 }));
    expect([d1.throttled, d2.throttled]).toEqual([false, true]);
    await sa.next((f) => f.type === 'receipt' && f.user_id === b.id && f.delivered_position === 3);
    const merged = await sa.next((f) => f.type === 'receipt' && f.user_id === b.id && f.delivered_position === 4, 3000);
    expect(merged.read_position).toBe(2);
    const beyond = json<{ read_position: number }>(await api(b, 'POST', `/api/chat/channels/${channel.url}/read/`, { position: 99 }));
    expect(beyond.read_position).toBe(5);
    const view = json<Channel>(await api(b, 'GET', `/api/chat/channels/${channel.url}/`));
    expect(view.members.find((m) => m.userId === b.id)).toMatchObject({ read_position: 5, delivered_position: 5 });
    expect(view.members.find((m) => m.userId === a.id)?.connectionStatus).toBe('online');
    expect(view.unreadMessageCount).toBe(0);
    sa.socket.close();
    sb.socket.close();
  });

  it('relays typing to the other members and stops it after the typing timeout', async () => {
    const channel = await createChannel(a, { customType: 'group', name: 'Typing desk', invitedUserIds: [b.id] });
    await api(b, 'POST', `/api/chat/channels/${channel.url}/accept/`, {});
    const sa = await openChat(wsUrl, a);
    const sb = await openChat(wsUrl, b);
    sa.send({ type: 'typing', channel_url: channel.url, typing: true });
    const started = await sb.next((f) => f.type === 'typing' && f.typing === true);
    expect(started).toMatchObject({ user_id: a.id, nickname: 'Arjun Mehta', channel_url: channel.url });
    const at = Date.now();
    await sb.next((f) => f.type === 'typing' && f.typing === false, CHAT_LIMITS.typingTimeoutMs + 2000);
    expect(Date.now() - at).toBeGreaterThan(CHAT_LIMITS.typingTimeoutMs - 1000);
    expect(sa.frames.some((f) => f.type === 'typing')).toBe(false);
    sa.socket.close();
    sb.socket.close();
  }, 15_000);

  it('group invitations: accept tells the members; decline tells the inviter "{nickname} declined your request"', async () => {
    const sa = await openChat(wsUrl, a);
    const sb = await openChat(wsUrl, b);
    const sc = await openChat(wsUrl, c);
    const group = await createChannel(a, { customType: 'trading group', name: 'Trading desk', invitedUserIds: [b.id, c.id] });
    const invited = await sb.next((f) => f.type === 'channel' && f.event === 'created' && f.channel_url === group.url);
    expect((invited.channel as Channel).myMemberState).toBe('invited');
    expect((await api(b, 'POST', `/api/chat/channels/${group.url}/accept/`, {})).statusCode).toBe(200);
    const joined = await sa.next((f) => f.type === 'channel' && f.event === 'joined' && f.channel_url === group.url);
    expect(joined.actor).toEqual({ userId: b.id, nickname: 'Neha Kulkarni' });
    expect((await api(c, 'POST', `/api/chat/channels/${group.url}/decline/`, {})).statusCode).toBe(200);
    const declined = await sa.next((f) => f.type === 'channel' && f.event === 'declined' && f.channel_url === group.url);
    expect(declined.target_user_ids).toEqual([a.id]);
    expect(CHAT_MESSAGES.declined((declined.actor as { nickname: string }).nickname)).toBe('Farhan Shaikh declined your request');
    expect((declined.channel as Channel).members.map((m) => m.userId)).not.toContain(c.id);
    const gone = await sc.next((f) => f.type === 'channel' && f.event === 'declined' && f.channel_url === group.url);
    expect(gone.channel).toBeNull();
    expect((await api(c, 'GET', `/api/chat/channels/${group.url}/`)).statusCode).toBe(404);
    // Declining twice is a conflict, not a crash.
    expect((await api(c, 'POST', `/api/chat/channels/${group.url}/decline/`, {})).statusCode).toBe(404);

    // Direct: the decliner loses the channel and leaves; the other member sees them removed.
    const direct = await createChannel(c, { isDistinct: true, customType: 'direct', invitedUserIds: [b.id] });
    await sb.next((f) => f.type === 'channel' && f.channel_url === direct.url);
    expect((await api(b, 'POST', `/api/chat/channels/${direct.url}/decline/`, {})).statusCode).toBe(200);
    expect((await sb.next((f) => f.type === 'channel' && f.event === 'declined' && f.channel_url === direct.url)).channel).toBeNull();
    const seen = await sc.next((f) => f.type === 'channel' && f.event === 'declined' && f.channel_url === direct.url);
    expect((seen.channel as Channel).members.map((m) => m.userId)).toEqual([c.id]);
    expect((await channelsOf(b)).map((ch) => ch.url)).not.toContain(direct.url);
    for (const s of [sa, sb, sc]) s.socket.close();
  });

  it('operators manage operators and bans; a banned user is told, removed and cannot come back; members can leave', async () => {
    const group = await createChannel(a, { customType: 'group', name: 'Ops desk', invitedUserIds: [b.id, c.id] });
    await api(b, 'POST', `/api/chat/channels/${group.url}/accept/`, {});
    await api(c, 'POST', `/api/chat/channels/${group.url}/accept/`, {});
    const notOperator = await api(b, 'POST', `/api/chat/channels/${group.url}/operators/`, { add: [b.id] });
    expect(notOperator.statusCode).toBe(403);
    expect(json(notOperator).message).toBe(CHAT_MESSAGES.notOperator);
    const promoted = json<Channel>(await api(a, 'POST', `/api/chat/channels/${group.url}/operators/`, { add: [b.id] }));
    expect(
      promoted.members
        .filter((m) => m.role === 'operator')
        .map((m) => m.userId)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    expect((await api(a, 'POST', `/api/chat/channels/${group.url}/operators/`, { remove: [a.id, b.id] })).statusCode).toBe(400);
    expect((await api(c, 'POST', `/api/chat/channels/${group.url}/ban/`, { user_id: a.id })).statusCode).toBe(403);

    const sb = await openChat(wsUrl, b);
    const sc = await openChat(wsUrl, c);
    const banned = await api(b, 'POST', `/api/chat/channels/${group.url}/ban/`, { user_id: c.id });
    expect(banned.statusCode, banned.body).toBe(200);
    const told = await sc.next((f) => f.type === 'channel' && f.event === 'banned' && f.channel_url === group.url);
    expect(told).toMatchObject({ channel: null, target_user_ids: [c.id] });
    const others = await sb.next((f) => f.type === 'channel' && f.event === 'banned' && f.channel_url === group.url);
    expect((others.channel as Channel).members.map((m) => m.userId)).not.toContain(c.id);
    expect((await api(c, 'GET', `/api/chat/channels/${group.url}/`)).statusCode).toBe(404);
    expect((await api(c, 'GET', `/api/chat/channels/${group.url}/messages/`)).statusCode).toBe(404);
    const back = await api(a, 'POST', '/api/chatter/invite-users', { channel_url: group.url, sendbird_user_ids: [c.id] });
    expect(back.statusCode).toBe(400);
    // Messages no longer reach the banned user's socket.
    await sendRest(a, group.url, 'after the ban');
    await sb.next((f) => f.type === 'message' && f.channel_url === group.url);
    expect(sc.frames.some((f) => f.type === 'message' && f.channel_url === group.url)).toBe(false);

    const left = await api(b, 'POST', `/api/chat/channels/${group.url}/leave/`, {});
    expect(left.statusCode).toBe(200);
    expect((await sb.next((f) => f.type === 'channel' && f.event === 'left' && f.channel_url === group.url)).channel).toBeNull();
    expect((await channelsOf(b)).map((ch) => ch.url)).not.toContain(group.url);
    sb.socket.close();
    sc.socket.close();
  });

  it('promotes the longest-joined member when the last operator of a group leaves; direct and broadcast channels keep none', async () => {
    const operatorsOf = (channel: Channel) =>
      channel.members
        .filter((m) => m.role === 'operator')
        .map((m) => m.userId)
        .sort();
    const group = await createChannel(a, { customType: 'trading group', name: 'Handover desk', invitedUserIds: [b.id, c.id] });
    await api(c, 'POST', `/api/chat/channels/${group.url}/accept/`, {}); // C joins before B: C is the longest-joined after A
    await sleep(20);
    await api(b, 'POST', `/api/chat/channels/${group.url}/accept/`, {});
    const sb = await openChat(wsUrl, b);
    const sc = await openChat(wsUrl, c);
    expect((await api(a, 'POST', `/api/chat/channels/${group.url}/leave/`, {})).statusCode).toBe(200);
    const told = await sb.next((f) => f.type === 'channel' && f.event === 'operators' && f.channel_url === group.url);
    expect(told).toMatchObject({ actor: null, target_user_ids: [c.id], message: null });
    expect(operatorsOf(told.channel as Channel)).toEqual([c.id]);
    // The same event the operators route sends, after the `left` event of the same change.
    const left = sb.frames.findIndex((f) => f.type === 'channel' && f.event === 'left' && f.channel_url === group.url);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(left).toBeLessThan(sb.frames.indexOf(told));
    const mine = await sc.next((f) => f.type === 'channel' && f.event === 'operators' && f.channel_url === group.url);
    expect((mine.channel as Channel).myRole).toBe('operator');
    expect(json<Channel>(await api(c, 'GET', `/api/chat/channels/${group.url}/`)).myRole).toBe('operator');
    const audits = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'chat.operators_changed' AND entity_id = $1`,
      [group.url],
    );
    expect(audits[0]!.n).toBe(1);
    // The new operator acts as one; when they leave too, the next in line takes over.
    expect((await api(c, 'POST', '/api/chatter/invite-users', { channel_url: group.url, sendbird_user_ids: [a.id] })).statusCode).toBe(200);
    expect((await api(c, 'POST', `/api/chat/channels/${group.url}/leave/`, {})).statusCode).toBe(200);
    const next = await sb.next((f) => f.type === 'channel' && f.event === 'operators' && f.channel_url === group.url && f !== told);
    expect(operatorsOf(next.channel as Channel)).toEqual([b.id]);

    // Nobody joined when the last operator leaves: the first to accept becomes the operator.
    const pending = await createChannel(a, { customType: 'group', name: 'Empty desk', invitedUserIds: [b.id] });
    expect((await api(a, 'POST', `/api/chat/channels/${pending.url}/leave/`, {})).statusCode).toBe(200);
    expect(json<Channel>(await api(b, 'GET', `/api/chat/channels/${pending.url}/`)).members.every((m) => m.role === 'none')).toBe(true);
    const accepted = json<Channel>(await api(b, 'POST', `/api/chat/channels/${pending.url}/accept/`, {}));
    expect(accepted.myRole).toBe('operator');
    await sb.next((f) => f.type === 'channel' && f.event === 'operators' && f.channel_url === pending.url);

    // Direct: operators have nothing to do there, so nobody is promoted.
    const support = await chatUser(t.app, 'support@dart.in');
    const direct = await createChannel(support, { isDistinct: true, customType: 'direct', invitedUserIds: [b.id] });
    await api(b, 'POST', `/api/chat/channels/${direct.url}/accept/`, {});
    expect((await api(support, 'POST', `/api/chat/channels/${direct.url}/leave/`, {})).statusCode).toBe(200);
    expect(operatorsOf(json<Channel>(await api(b, 'GET', `/api/chat/channels/${direct.url}/`)))).toEqual([]);
    // Broadcast: the creator's alone; its hidden recipients never become operators.
    const broadcast = await createChannel(c, { customType: 'broadcast', name: 'Closing axes', invitedUserIds: [a.id, b.id] });
    expect((await api(c, 'POST', `/api/chat/channels/${broadcast.url}/leave/`, {})).statusCode).toBe(200);
    const rows = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM chat_members m JOIN chat_channels ch ON ch.id = m.channel_id WHERE ch.url = $1 AND m.role = 'operator'`,
      [broadcast.url],
    );
    expect(rows[0]!.n).toBe(0);
    sb.socket.close();
    sc.socket.close();
  });

  it('broadcast channels are visible only to their creator; each recipient gets the message in a direct channel', async () => {
    await sleep(1100);
    const broadcast = await createChannel(c, { customType: 'broadcast', name: 'Morning axes', invitedUserIds: [a.id, b.id] });
    expect(broadcast.members.map((m) => m.userId).sort()).toEqual([a.id, b.id, c.id].sort());
    expect((await api(a, 'GET', `/api/chat/channels/${broadcast.url}/`)).statusCode).toBe(404);
    expect((await channelsOf(a)).some((ch) => ch.customType === 'broadcast')).toBe(false);
    const sa = await openChat(wsUrl, a);
    await sendRest(c, broadcast.url, 'Offering 7.10% 2033 GSec');
    const copy = await sa.next((f) => f.type === 'message' && (f.message as ChatMessage).message === 'Offering 7.10% 2033 GSec');
    const directUrl = copy.channel_url as string;
    expect(directUrl).not.toBe(broadcast.url);
    expect((copy.message as ChatMessage).data).toMatchObject({ broadcast: { channel_url: broadcast.url } });
    const creatorList = await channelsOf(c);
    expect(creatorList.some((ch) => ch.url === broadcast.url)).toBe(true);
    const direct = creatorList.find((ch) => ch.url === directUrl)!;
    expect(direct.customType).toBe('direct');
    // The direct channels the creator made from a broadcast go last in the creator's list.
    const index = creatorList.findIndex((ch) => ch.url === directUrl);
    expect(creatorList.slice(index).every((ch) => ch.data.created_from === 'broadcast' || ch.url === directUrl)).toBe(true);
    expect((await channelsOf(b)).some((ch) => ch.url === broadcast.url)).toBe(false);
    // Recipients cannot send into the broadcast channel.
    expect((await api(a, 'POST', `/api/chat/channels/${broadcast.url}/messages/`, { reqId: reqId(), message: 'x' })).statusCode).toBe(404);
    sa.socket.close();
  });

  it('files: type and size limits, download only for members, safe headers', async () => {
    const channel = await createChannel(a, { customType: 'group', name: 'Files desk', invitedUserIds: [b.id] });
    const upload = (user: ChatUser, type: string, body: Buffer, name = 'term sheet.png') =>
      t.app.inject({
        method: 'POST',
        url: `/api/chat/channels/${channel.url}/files/?reqId=${reqId()}&fileName=${encodeURIComponent(name)}`,
        headers: { ...bearer(user.access), 'content-type': type },
        payload: body,
      });
    await sleep(1100);
    const ok = await upload(a, 'image/png', PNG, '../../etc/passwd\r\n.png');
    expect(ok.statusCode, ok.body).toBe(201);
    const message = json<ChatMessage>(ok);
    expect(message).toMatchObject({ messageType: 'file', type: 'image/png' });
    expect(message.file?.size).toBe(PNG.length);
    expect(message.file?.name).not.toContain('/');
    const zip = await upload(a, 'application/zip', PNG);
    expect(zip.statusCode).toBe(400);
    expect(json(zip).message).toBe(CHAT_MESSAGES.fileTypeNotAllowed);
    const disguised = await upload(a, 'image/png', Buffer.from('<script>alert(1)</script>'));
    expect(disguised.statusCode).toBe(400);
    const huge = await upload(a, 'application/pdf', Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(CHAT_LIMITS.fileMaxBytes)]));
    expect(huge.statusCode).toBe(413);
    expect(json(huge).message).toBe(CHAT_MESSAGES.fileTooLarge);
    const notMember = await upload(c, 'image/png', PNG);
    expect(notMember.statusCode).toBe(404);

    const download = await api(b, 'GET', message.file!.url);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PNG)).toBe(true);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="/);
    expect(String(download.headers['content-disposition'])).not.toMatch(/[\r\n]/);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect((await api(c, 'GET', message.file!.url)).statusCode).toBe(404);
    expect((await api(c, 'GET', '/api/chat/files/00000000-0000-0000-0000-000000000000/')).statusCode).toBe(404);
    expect((await api(c, 'GET', `/api/chat/channels/${channel.url}/messages/`)).statusCode).toBe(404);
  });

  it('exports a transcript with files, edits and deletes to members and to compliance of a member firm; audited', async () => {
    const channel = await createChannel(a, { customType: 'group', name: 'Export desk', invitedUserIds: [b.id] });
    await api(b, 'POST', `/api/chat/channels/${channel.url}/accept/`, {});
    await sleep(1100);
    const start = new Date(Date.now() - 60_000).toISOString();
    const edited = await sendRest(a, channel.url, 'Bid 7.05 for 5 cr');
    const deleted = await sendRest(b, channel.url, 'Will check and revert');
    const file = await t.app.inject({
      method: 'POST',
      url: `/api/chat/channels/${channel.url}/files/?reqId=${reqId()}&fileName=axes.png`,
      headers: { ...bearer(a.access), 'content-type': 'image/png' },
      payload: PNG,
    });
    expect(file.statusCode).toBe(201);
    const edit = await api(a, 'PATCH', `/api/chat/channels/${channel.url}/messages/${edited.messageId}/`, { message: 'Bid 7.06 for 5 cr' });
    expect(json<ChatMessage>(edit)).toMatchObject({ message: 'Bid 7.06 for 5 cr' });
    expect(
      (await api(b, 'PATCH', `/api/chat/channels/${channel.url}/messages/${edited.messageId}/`, { message: 'hijack' })).statusCode,
    ).toBe(403);
    // Special kinds (a buzz) are not text to rewrite; their sender cannot edit them either.
    const buzz = json<ChatMessage>(
      await api(a, 'POST', `/api/chat/channels/${channel.url}/messages/`, { reqId: reqId(), message: 'Buzz!', customType: 'buzz' }),
    );
    expect((await api(a, 'PATCH', `/api/chat/channels/${channel.url}/messages/${buzz.messageId}/`, { message: 'x' })).statusCode).toBe(403);
    // NUL cannot be stored in PostgreSQL text: a clear 400, never a 500.
    expect((await api(a, 'POST', `/api/chat/channels/${channel.url}/messages/`, { reqId: reqId(), message: 'a\u0000b' })).statusCode).toBe(
      400,
    );
    expect((await api(a, 'DELETE', `/api/chat/channels/${channel.url}/messages/${deleted.messageId}/`)).statusCode).toBe(403);
    expect((await api(b, 'DELETE', `/api/chat/channels/${channel.url}/messages/${deleted.messageId}/`)).statusCode).toBe(200);
    const listed = json<{ messages: ChatMessage[] }>(await api(a, 'GET', `/api/chat/channels/${channel.url}/messages/`)).messages;
    expect(listed.find((m) => m.messageId === deleted.messageId)).toMatchObject({ message: '', deletedAt: expect.any(String) });

    const body = { startTime: start, endTime: new Date(Date.now() + 60_000).toISOString(), channelIds: [channel.url] };
    const exported = await api(b, 'POST', '/api/download-chats', body);
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.headers['content-type']).toContain('text/plain');
    expect(exported.headers['content-disposition']).toContain('attachment');
    const text = exported.body;
    expect(text).toContain('Bid 7.05 for 5 cr');
    expect(text).toContain('[edited');
    expect(text).toContain('Bid 7.06 for 5 cr');
    expect(text).toContain('Will check and revert');
    expect(text).toContain('[deleted');
    expect(text).toMatch(/\[file\] axes\.png \(\d+ bytes, image\/png\)/);

    const compliance = await login(t.app, 'compliance@demo.dart');
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/download-chats', headers: bearer(compliance.access), payload: body })).statusCode,
    ).toBe(200);
    expect((await api(c, 'POST', '/api/download-chats', body)).statusCode).toBe(404);
    const badRange = await api(b, 'POST', '/api/download-chats', { ...body, endTime: start });
    expect(badRange.statusCode).toBe(400);
    expect(json(badRange).errors).toEqual({ endTime: [CHAT_MESSAGES.rangeRequired] });
    const audits = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'chat.exported' AND entity_id = $1`,
      [channel.url],
    );
    expect(audits[0]!.n).toBe(2);
  });

  it('builds link previews of Dart bonds from our database only', async () => {
    await t.database.query(
      `INSERT INTO finstruments (isin, display_name, security_type, search_text, content_hash, coupon_rate, maturity_date)
       VALUES ('INE002A08534', 'RELIANCE 7.79% 2033', 'CORPORATE', 'reliance', 'x', 0.0779, '2033-11-10') ON CONFLICT DO NOTHING`,
    );
    const channel = await createChannel(a, { customType: 'group', name: 'Links desk', invitedUserIds: [b.id] });
    await sleep(1100);
    const withLink = await sendRest(a, channel.url, 'Look at https://dart.example/security/INE002A08534 please');
    expect(withLink.ogMetaData).toMatchObject({ kind: 'bond', title: 'RELIANCE 7.79% 2033', url: '/security/INE002A08534' });
    expect(withLink.ogMetaData?.description).toContain('INE002A08534');
    const external = await sendRest(a, channel.url, 'see https://example.com/news');
    expect(external.ogMetaData).toBeNull();
  });

  it('finds users by name, e-mail or firm; suggests connections first when the query is empty', async () => {
    const byFirm = json<{ results: Array<{ id: string; brand_name: string; is_connection: boolean }>; suggested: boolean }>(
      await api(a, 'GET', '/api/chatter/user/search?search_param=second'),
    );
    expect(byFirm.suggested).toBe(false);
    expect(byFirm.results.map((u) => u.id)).toContain(b.id);
    const suggested = json<{ results: Array<{ id: string; is_connection: boolean }>; suggested: boolean; page_size: number }>(
      await api(a, 'GET', '/api/chatter/user/search'),
    );
    expect(suggested.suggested).toBe(true);
    expect(suggested.page_size).toBe(20);
    expect(suggested.results[0]!.is_connection).toBe(true);
    expect(suggested.results.map((u) => u.id)).not.toContain(a.id);
    const connections = json<{ results: Array<{ is_connection: boolean }> }>(
      await api(a, 'GET', '/api/chatter/user/search?connections_only=true'),
    );
    expect(connections.results.every((u) => u.is_connection)).toBe(true);
    expect(JSON.stringify(byFirm)).not.toContain('@second.dart');
    expect((await api(a, 'GET', '/api/chatter/user/search?page_size=500')).statusCode).toBe(400);
  });

  it('shows staff members under the product name', async () => {
    await t.database.query(`INSERT INTO chat_staff (user_id) VALUES ($1) ON CONFLICT DO NOTHING`, [c.id]);
    const channel = await createChannel(a, { customType: 'group', name: 'Staff desk', invitedUserIds: [c.id] });
    const staff = channel.members.find((m) => m.userId === c.id)!;
    expect(staff.nickname).toBe(t.config.productName);
    expect(staff.metaData.is_staff).toBe(true);
    await t.database.query(`DELETE FROM chat_staff WHERE user_id = $1`, [c.id]);
  });

  it('seeds a staff member of Dart (support@dart.in) who chats under the product name', async () => {
    const support = await chatUser(t.app, 'support@dart.in');
    const direct = await createChannel(support, { isDistinct: true, customType: 'direct', invitedUserIds: [a.id] });
    const seen = json<Channel>(await api(a, 'GET', `/api/chat/channels/${direct.url}/`)).members.find((m) => m.userId === support.id);
    expect(seen).toMatchObject({ nickname: t.config.productName, metaData: { is_staff: true, brand_name: 'Dart' } });
    const sent = await sendRest(support, direct.url, 'Welcome to Dart chat. How can we help?');
    expect(sent.sender).toEqual({ userId: support.id, nickname: t.config.productName, is_staff: true });
    const found = json<{ results: Array<{ id: string; nickname: string; is_staff: boolean }> }>(
      await api(a, 'GET', '/api/chatter/user/search?search_param=support'),
    ).results.find((u) => u.id === support.id);
    expect(found).toMatchObject({ nickname: t.config.productName, is_staff: true });
  });

  it('answers bad input with 4xx and field errors, never 500', async () => {
    const empty = await api(a, 'POST', '/api/chat/channels/', {});
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(json<{ errors: object }>(empty).errors)).toEqual(expect.arrayContaining(['invitedUserIds', 'customType']));
    const unknown = await api(a, 'POST', '/api/chat/channels/', { customType: 'group', name: 'x', invitedUserIds: [b.id], client_id: 'x' });
    expect(json(unknown).errors).toEqual({ client_id: ['Unknown field.'] });
    const self = await api(a, 'POST', '/api/chat/channels/', { customType: 'group', name: 'x', invitedUserIds: [a.id] });
    expect(json(self).errors).toEqual({ invitedUserIds: [CHAT_MESSAGES.cannotInviteSelf] });
    const ghost = await api(a, 'POST', '/api/chat/channels/', { customType: 'group', name: 'x', invitedUserIds: ['not-a-user'] });
    expect(json(ghost).errors).toEqual({ invitedUserIds: [CHAT_MESSAGES.userNotFound] });
    const twoDirect = await api(a, 'POST', '/api/chat/channels/', { customType: 'direct', invitedUserIds: [b.id, c.id] });
    expect(json(twoDirect).errors).toEqual({ invitedUserIds: [CHAT_MESSAGES.directNeedsOne] });
    const group = await createChannel(a, { customType: 'group', name: 'Validation desk', invitedUserIds: [b.id] });
    const blank = await api(a, 'POST', `/api/chat/channels/${group.url}/messages/`, { reqId: 'x', message: '   ' });
    expect(json(blank).errors).toEqual({ message: [CHAT_MESSAGES.emptyMessage] });
    expect((await api(a, 'GET', `/api/chat/channels/${group.url}/messages/?before=0`)).statusCode).toBe(400);
    expect((await api(a, 'GET', `/api/chat/channels/${group.url}/messages/?before=3&after=1`)).statusCode).toBe(400);
    expect((await api(a, 'GET', '/api/chat/channels/?token=garbage')).statusCode).toBe(400);
    expect((await api(a, 'GET', '/api/chat/channels/no-such-channel/')).statusCode).toBe(404);
    expect((await api(a, 'PATCH', `/api/chat/channels/${group.url}/messages/not-a-uuid/`, { message: 'x' })).statusCode).toBe(404);
    const viewer = await chatUser(t.app, 'viewer@demo.dart');
    const viewOnly = await api(viewer, 'POST', '/api/chat/channels/', { customType: 'group', name: 'x', invitedUserIds: [b.id] });
    expect(json(viewOnly).code).toBe('VIEW_ONLY');
    // Socket: a malformed send gets a nack with the field, not a crash.
    const socket = await openChat(wsUrl, a);
    socket.send({ type: 'send', channel_url: group.url, reqId: 'bad-1', message: '' });
    expect(await socket.next((f) => f.type === 'nack' && f.reqId === 'bad-1')).toMatchObject({ code: 'VALIDATION_FAILED' });
    socket.send({ type: 'send', channel_url: 'dart_group_nope', reqId: 'bad-2', message: 'hello' });
    expect(await socket.next((f) => f.type === 'nack' && f.reqId === 'bad-2')).toMatchObject({ code: 'NOT_FOUND' });
    socket.socket.close();
  });

  it('pages the channel list with a cursor, newest activity first', async () => {
    const first = json<{ channels: Channel[]; next: string | null }>(await api(a, 'GET', '/api/chat/channels/?limit=3'));
    expect(first.channels).toHaveLength(3);
    expect(first.next).not.toBeNull();
    const all: Channel[] = [...first.channels];
    let next = first.next;
    while (next) {
      const page = json<{ channels: Channel[]; next: string | null }>(await api(a, 'GET', `/api/chat/channels/?limit=3&token=${next}`));
      all.push(...page.channels);
      next = page.next;
    }
    const urls = all.map((ch) => ch.url);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls.sort()).toEqual((await channelsOf(a)).map((ch) => ch.url).sort());
    const times = (await channelsOf(a))
      .filter((ch) => ch.myMemberState === 'joined' && !(ch.data.created_from === 'broadcast'))
      .map((ch) => Date.parse(ch.lastMessage?.createdAt ?? ch.createdAt));
    expect(times).toEqual([...times].sort((x, y) => y - x));
  });
});
