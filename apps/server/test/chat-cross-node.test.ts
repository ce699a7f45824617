/**
 * Chat on two app nodes sharing one PostgreSQL database and the Redis bus (runs when DATABASE_URL
 * and REDIS_URL are set): live delivery across nodes, concurrent senders on both nodes, resume on
 * the other node, the per-user rate limit and presence shared through Redis, presence changes decided
 * once for the cluster, and a session revoked on one node closing the socket on the other.
 */
import { CHAT_CLOSE, CHAT_LIMITS, type Channel, type ChatMessage } from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, startRedisCluster, type RedisCluster } from './helpers';
import { chatUser, openChat, sleep, type ChatUser } from './chat-support';

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('chat on two nodes over PostgreSQL + Redis', () => {
  let cluster: RedisCluster;
  let nodes: FastifyInstance[] = [];
  let wsUrl: string[] = [];
  let a: ChatUser;
  let b: ChatUser;
  let counter = 0;
  const reqId = () => `x-${++counter}-${Date.now()}`;

  beforeAll(async () => {
    cluster = await startRedisCluster(2);
    nodes = cluster.nodes;
    wsUrl = cluster.origins.map((origin) => `${origin}/ws/chat/`);
    a = await chatUser(nodes[0]!, 'dealer@demo.dart');
    b = await chatUser(nodes[1]!, 'dealer@second.dart');
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  const group = async (name: string) => {
    const created = await nodes[0]!.inject({
      method: 'POST',
      url: '/api/chat/channels/',
      headers: bearer(a.access),
      payload: { customType: 'group', name, invitedUserIds: [b.id] },
    });
    const channel = json<Channel>(created);
    await nodes[1]!.inject({ method: 'POST', url: `/api/chat/channels/${channel.url}/accept/`, headers: bearer(b.access), payload: {} });
    return channel;
  };
  const sendOn = (node: number, user: ChatUser, url: string, message: string) =>
    nodes[node]!.inject({
      method: 'POST',
      url: `/api/chat/channels/${url}/messages/`,
      headers: bearer(user.access),
      payload: { reqId: reqId(), message },
    });

  it('delivers across nodes in order, once, with both nodes sending at the same time', async () => {
    const channel = await group('Cross-node desk');
    const sa = await openChat(wsUrl[0]!, a);
    const sb = await openChat(wsUrl[1]!, b);
    // Four senders per second in all (two users × two nodes), inside the 5/s per-user limit.
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([
        sendOn(0, a, channel.url, `a${round}-0`),
        sendOn(1, a, channel.url, `a${round}-1`),
        sendOn(0, b, channel.url, `b${round}-0`),
        sendOn(1, b, channel.url, `b${round}-1`),
      ]);
      expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
      await sleep(1100);
    }
    await sa.next((f) => f.type === 'message' && f.channel_url === channel.url && f.position === 12);
    await sb.next((f) => f.type === 'message' && f.channel_url === channel.url && f.position === 12);
    const expected = Array.from({ length: 12 }, (_, i) => i + 1);
    expect(sa.positions(channel.url)).toEqual(expected);
    expect(sb.positions(channel.url)).toEqual(expected);
    // Presence is shared: node 1 sees A (connected on node 0) online.
    const view = json<Channel>(
      await nodes[1]!.inject({ method: 'GET', url: `/api/chat/channels/${channel.url}/`, headers: bearer(b.access) }),
    );
    expect(view.members.find((m) => m.userId === a.id)?.connectionStatus).toBe('online');
    sa.socket.close();
    sb.socket.close();
  });

  it('resumes on the other node with exactly the messages missed', async () => {
    const channel = await group('Resume desk');
    const first = await openChat(wsUrl[0]!, b);
    for (let i = 0; i < 3; i++) expect((await sendOn(0, a, channel.url, `before ${i}`)).statusCode).toBe(201);
    await first.next((f) => f.type === 'message' && f.channel_url === channel.url && f.position === 3);
    first.socket.close();
    await sleep(1100);
    for (let i = 0; i < 4; i++) expect((await sendOn(0, a, channel.url, `missed ${i}`)).statusCode).toBe(201);
    const resumed = await openChat(wsUrl[1]!, b, { [channel.url]: 3 });
    expect(resumed.positions(channel.url)).toEqual([4, 5, 6, 7]);
    const texts = resumed.frames.filter((f) => f.type === 'message').map((f) => (f.message as ChatMessage).message);
    expect(texts).toEqual(['missed 0', 'missed 1', 'missed 2', 'missed 3']);
    await sleep(1100);
    await sendOn(0, a, channel.url, 'live');
    await resumed.next((f) => f.type === 'message' && f.position === 8);
    expect(resumed.positions(channel.url)).toEqual([4, 5, 6, 7, 8]);
    resumed.socket.close();
  });

  it('shares the 5 messages per second limit across nodes', async () => {
    const channel = await group('Rate desk');
    await sleep(1100);
    const results = await Promise.all([0, 1, 2, 0, 1, 2].map((_, i) => sendOn(i % 2, a, channel.url, `burst ${i}`)));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it('writes one delivered receipt per second for the cluster, not one per node, and keeps the trailing one', async () => {
    const channel = await group('Receipts across nodes');
    await sleep(1100);
    let top = 0;
    for (let i = 0; i < 4; i++) top = json<ChatMessage>(await sendOn(i % 2, a, channel.url, `d${i}`)).position;
    const watcher = await openChat(wsUrl[0]!, a);
    const delivered = (node: number, position: number) =>
      nodes[node]!.inject({
        method: 'POST',
        url: `/api/chat/channels/${channel.url}/delivered/`,
        headers: bearer(b.access),
        payload: { position },
      });
    // b's clients on both nodes report deliveries at the same moment, within one throttle window.
    const burst = await Promise.all([delivered(0, top - 3), delivered(1, top - 2), delivered(0, top - 1), delivered(1, top)]);
    for (const response of burst) expect(response.statusCode, response.body).toBe(200);
    const written = burst.map((r) => json<{ throttled: boolean }>(r)).filter((r) => !r.throttled);
    expect(written).toHaveLength(1);
    // The throttled highest position is written after the window, by whichever node claims it next.
    const last = await watcher.next((f) => f.type === 'receipt' && f.user_id === b.id && f.delivered_position === top, 5000);
    expect(last.channel_url).toBe(channel.url);
    const receipts = watcher.frames.filter((f) => f.type === 'receipt' && f.user_id === b.id && f.channel_url === channel.url);
    // The leading write and the trailing ones, each in a window of its own: never one per node at once.
    expect(receipts.length).toBeLessThanOrEqual(3);
    const positions = receipts.map((f) => f.delivered_position as number);
    expect(positions).toEqual(positions.toSorted((x, y) => x - y));
    const [row] = await nodes[1]!.deps.database.query<{ delivered_position: string }>(
      `SELECT m.delivered_position::text FROM chat_members m JOIN chat_channels c ON c.id = m.channel_id WHERE c.url = $1 AND m.user_id = $2`,
      [channel.url, b.id],
    );
    expect(Number(row!.delivered_position)).toBe(top);
    watcher.socket.close();
  }, 30_000);

  it('closes the socket on node 1 when the chat session is removed on node 0', async () => {
    const socket = await openChat(wsUrl[1]!, a);
    const removed = await nodes[0]!.inject({
      method: 'DELETE',
      url: '/api/remove-sb-session',
      headers: bearer(a.access),
      payload: { userId: a.id },
    });
    expect(removed.statusCode).toBe(200);
    expect((await socket.closed).code).toBe(CHAT_CLOSE.sessionEnded);
  });

  it('decides presence once for the cluster: online on the first socket on any node, offline only after the last one anywhere', async () => {
    const delay = CHAT_LIMITS.presenceOfflineDelayMs;
    const channel = await group('Presence desk');
    const statusOfA = async (node: number) =>
      json<Channel>(
        await nodes[node]!.inject({ method: 'GET', url: `/api/chat/channels/${channel.url}/`, headers: bearer(b.access) }),
      ).members.find((m) => m.userId === a.id)?.connectionStatus;
    // A's sockets of the earlier tests are closed; wait until A has been announced offline.
    for (let i = 0; (await statusOfA(0)) !== 'offline'; i++) {
      expect(i).toBeLessThan(40);
      await sleep(250);
    }
    // B watches from both nodes.
    const watchers = [await openChat(wsUrl[0]!, b), await openChat(wsUrl[1]!, b)];
    const changes = (watcher: (typeof watchers)[number]) =>
      watcher.frames.filter((f) => f.type === 'presence' && f.user_id === a.id).map((f) => f.connection_status);

    const onNode0 = await openChat(wsUrl[0]!, a);
    for (const watcher of watchers) await watcher.next((f) => f.type === 'presence' && f.user_id === a.id);
    const onNode1 = await openChat(wsUrl[1]!, a); // not the first socket in the cluster: no change
    expect(await statusOfA(1)).toBe('online');
    onNode0.socket.close(); // node 0 had A's last socket there, but node 1 still has one
    await onNode0.closed;
    await sleep(delay + 1500);
    expect(watchers.map(changes)).toEqual([['online'], ['online']]);

    // Last socket closes on node 1 and A comes back on node 0 within the delay: no change either.
    onNode1.socket.close();
    await onNode1.closed;
    await sleep(delay / 2);
    const again = await openChat(wsUrl[0]!, a);
    await sleep(delay / 2 + 1500);
    expect(watchers.map(changes)).toEqual([['online'], ['online']]);

    again.socket.close();
    await again.closed;
    const closedAt = Date.now();
    for (const watcher of watchers)
      await watcher.next((f) => f.type === 'presence' && f.user_id === a.id && f.connection_status === 'offline', delay + 3000);
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(delay - 250);
    await sleep(500);
    expect(watchers.map(changes)).toEqual([
      ['online', 'offline'],
      ['online', 'offline'],
    ]);
    expect(await statusOfA(1)).toBe('offline');
    for (const watcher of watchers) watcher.socket.close();
  }, 40_000);
});
