/**
 * The socket guarantees of issue 11 on the production path (defects 2, 5, 9 and the WebSocket half of
 * 10), on both drivers and on two nodes over PostgreSQL + Redis:
 * - one socket's pipelined sends are stored, delivered live and replayed on resume in send order;
 * - 100 simultaneous opens with one token admit exactly the per-user cap (`ws/trade/d/` and the chat
 *   socket), the rest closed 1008; across two nodes the cap is per user per cluster;
 * - Redis unreachable → REST send 503 with Retry-After, socket send an unavailable nack, new sockets
 *   1013; all of it recovers when Redis returns;
 * - a 70 KB frame closes the socket 1009 and is logged as one warning without a stack.
 */
import type { AddressInfo } from 'node:net';
import { CHAT_CLOSE, CHAT_MESSAGES, LIVE_CLOSE, LIVE_LIMITS, type Channel, type ChatMessage } from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { bearer, createTestApp, DRIVERS, json, login, startRedisCluster, type RedisCluster, type TestApp } from './helpers';
import { chatUser, connectChat, openChat, sleep, type ChatClient, type ChatUser } from './chat-support';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

/** The chat socket's per-user cap (chat.gateway.ts). */
const CHAT_CONNECTIONS_PER_USER = 10;
const SENDS = 20;
/** Within the 5/s per-user send limit: each burst is written back to back, without waiting for acks. */
const BURST = 5;

const origin = (app: FastifyInstance) => `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

let counter = 0;
const reqId = () => `g-${++counter}-${Date.now()}`;

async function createGroup(app: FastifyInstance, owner: ChatUser, member: ChatUser, name: string, acceptOn = app) {
  const created = await app.inject({
    method: 'POST',
    url: '/api/chat/channels/',
    headers: bearer(owner.access),
    payload: { customType: 'group', name, invitedUserIds: [member.id] },
  });
  expect(created.statusCode, created.body).toBe(201);
  const channel = json<Channel>(created);
  const accepted = await acceptOn.inject({
    method: 'POST',
    url: `/api/chat/channels/${channel.url}/accept/`,
    headers: bearer(member.access),
    payload: {},
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  return channel;
}

/**
 * Writes r0…r{SENDS-1} on one socket in bursts of `BURST` frames back to back (no wait for acks inside
 * a burst); between bursts waits for the acks and lets the 1 s rate window pass.
 */
async function pipelineSends(sender: ChatClient, channelUrl: string): Promise<string[]> {
  const texts = Array.from({ length: SENDS }, (_, i) => `r${i}`);
  for (let start = 0; start < SENDS; start += BURST) {
    const ids = texts.slice(start, start + BURST).map((text) => {
      const id = reqId();
      sender.send({ type: 'send', channel_url: channelUrl, reqId: id, message: text });
      return id;
    });
    for (const id of ids) {
      const answer = await sender.next((f) => (f.type === 'ack' || f.type === 'nack') && f.reqId === id, 10_000);
      expect(answer.type, JSON.stringify(answer)).toBe('ack');
    }
    await sleep(1050);
  }
  return texts;
}

const textsOf = (client: ChatClient, channelUrl: string) =>
  client.frames.filter((f) => f.type === 'message' && f.channel_url === channelUrl).map((f) => (f.message as ChatMessage).message);

async function storedTexts(app: FastifyInstance, user: ChatUser, channelUrl: string) {
  const response = await app.inject({
    method: 'GET',
    url: `/api/chat/channels/${channelUrl}/messages/?after=0&limit=100`,
    headers: bearer(user.access),
  });
  expect(response.statusCode, response.body).toBe(200);
  return json<{ messages: ChatMessage[] }>(response).messages.map((m) => [m.position, m.message] as const);
}

/** Sends in order r0…, checks the stored positions, the live frames of `watcher` and the replay on resume (on `resumeUrl`). */
async function expectSendOrder(
  app: FastifyInstance,
  senderUrl: string,
  resumeUrl: string,
  watcherUrl: string,
  a: ChatUser,
  b: ChatUser,
  channel: Channel,
) {
  const watcher = await openChat(watcherUrl, b);
  const sender = await openChat(senderUrl, a);
  const texts = await pipelineSends(sender, channel.url);
  expect(await storedTexts(app, a, channel.url)).toEqual(texts.map((text, i) => [i + 1, text]));
  await watcher.next((f) => f.type === 'message' && f.channel_url === channel.url && f.position === SENDS);
  expect(textsOf(watcher, channel.url)).toEqual(texts);
  expect(watcher.positions(channel.url)).toEqual(texts.map((_, i) => i + 1));
  // Resume from before the first send: the replay is in send order too.
  const resumed = await openChat(resumeUrl, b, { [channel.url]: 0 });
  expect(textsOf(resumed, channel.url)).toEqual(texts);
  for (const client of [watcher, sender, resumed]) client.socket.close();
}

interface Outcome {
  admitted: WebSocket[];
  refused: number[];
}

/** Opens `urls.length` sockets at once, each authenticating at once; resolves when each is admitted or closed. */
async function openAtOnce(urls: string[], authFrame: string): Promise<Outcome> {
  const results = await Promise.all(
    urls.map(
      (url) =>
        new Promise<{ socket: WebSocket; closedWith: number | null }>((resolve, reject) => {
          const socket = new WebSocket(url);
          socket.on('open', () => socket.send(authFrame));
          socket.on('message', (raw: Buffer) => {
            if ((JSON.parse(raw.toString()) as { type: string }).type === 'auth_ok') resolve({ socket, closedWith: null });
          });
          socket.on('close', (code) => resolve({ socket, closedWith: code }));
          socket.on('error', reject);
        }),
    ),
  );
  return {
    admitted: results.filter((r) => r.closedWith === null).map((r) => r.socket),
    refused: results.filter((r) => r.closedWith !== null).map((r) => r.closedWith!),
  };
}

/** The admitted sockets stay admitted (none closed by a late refusal); then they are closed and we wait for it. */
async function expectStillOpenThenClose(sockets: WebSocket[]) {
  await sleep(300);
  expect(sockets.filter((s) => s.readyState !== WebSocket.OPEN)).toHaveLength(0);
  await Promise.all(sockets.map((s) => new Promise<void>((resolve) => (s.on('close', () => resolve()), s.close()))));
}

const spread = (urls: string[], n: number) => Array.from({ length: n }, (_, i) => urls[i % urls.length]!);

const warnLinesOf = (logs: string[]) => logs.flatMap((chunk) => chunk.split('\n')).filter((line) => line.includes('"level":40'));

describe.each(DRIVERS)('socket guarantees on one node (%s)', (driver) => {
  let t: TestApp;
  let a: ChatUser;
  let b: ChatUser;
  let chatUrl: string;
  let liveUrl: string;

  beforeAll(async () => {
    t = await createTestApp(driver);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    chatUrl = `${origin(t.app)}/ws/chat/`;
    liveUrl = `${origin(t.app)}/ws/trade/d/`;
    a = await chatUser(t.app, 'dealer@demo.dart');
    b = await chatUser(t.app, 'dealer@second.dart');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores, delivers and replays one socket’s pipelined sends in send order', async () => {
    const channel = await createGroup(t.app, a, b, 'Pipelined desk');
    await expectSendOrder(t.app, chatUrl, chatUrl, chatUrl, a, b, channel);
  }, 60_000);

  it('admits exactly the cap of 100 simultaneous ws/trade/d/ opens with one token; the rest close 1008', async () => {
    const { access } = await login(t.app, 'dealer@demo.dart');
    const outcome = await openAtOnce(spread([liveUrl], 100), JSON.stringify({ type: 'auth', token: access }));
    expect(outcome.admitted).toHaveLength(LIVE_LIMITS.connectionsPerUser);
    expect(outcome.refused).toEqual(Array(100 - LIVE_LIMITS.connectionsPerUser).fill(LIVE_CLOSE.policyViolation));
    await expectStillOpenThenClose(outcome.admitted);
    // Closed sockets give their slots back.
    const again = await openAtOnce(spread([liveUrl], 12), JSON.stringify({ type: 'auth', token: access }));
    expect(again.admitted).toHaveLength(LIVE_LIMITS.connectionsPerUser);
    await expectStillOpenThenClose(again.admitted);
  }, 60_000);

  it('admits exactly the cap of 100 simultaneous chat socket opens with one token; the rest close 1008', async () => {
    const token = await a.token();
    const outcome = await openAtOnce(spread([chatUrl], 100), JSON.stringify({ type: 'auth', token, cursors: {} }));
    expect(outcome.admitted).toHaveLength(CHAT_CONNECTIONS_PER_USER);
    expect(outcome.refused).toEqual(Array(100 - CHAT_CONNECTIONS_PER_USER).fill(CHAT_CLOSE.policyViolation));
    await expectStillOpenThenClose(outcome.admitted);
  }, 60_000);

  it('closes a 70 KB frame 1009 on both sockets and logs one warning without a stack', async () => {
    for (const url of [chatUrl, liveUrl]) {
      const before = t.logs.length;
      const big = await connectChat(url);
      big.socket.send('x'.repeat(70 * 1024));
      expect((await big.closed).code).toBe(CHAT_CLOSE.tooBig);
      await sleep(50);
      const lines = t.logs
        .slice(before)
        .flatMap((chunk) => chunk.split('\n'))
        .filter(Boolean);
      const warnings = warnLinesOf(lines).filter((line) => line.includes('WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'));
      expect(warnings, lines.join('\n')).toHaveLength(1);
      expect(warnings[0]).not.toContain('"stack"');
      expect(lines.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
    }
  });
});

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('socket guarantees on two nodes (PostgreSQL + Redis)', () => {
  let cluster: RedisCluster;
  let nodes: FastifyInstance[] = [];
  let a: ChatUser;
  let b: ChatUser;

  beforeAll(async () => {
    cluster = await startRedisCluster(2);
    nodes = cluster.nodes;
    a = await chatUser(nodes[0]!, 'dealer@demo.dart');
    b = await chatUser(nodes[1]!, 'dealer@second.dart');
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('keeps one socket’s pipelined sends in send order: stored, live on the other node, and on resume there', async () => {
    const channel = await createGroup(nodes[0]!, a, b, 'Pipelined cross-node desk', nodes[1]!);
    const chat = cluster.origins.map((o) => `${o}/ws/chat/`);
    await expectSendOrder(nodes[0]!, chat[0]!, chat[1]!, chat[1]!, a, b, channel);
  }, 60_000);

  it('holds the cap per user across the cluster: 100 ws/trade/d/ opens spread over both nodes admit exactly the cap', async () => {
    const { access } = await login(nodes[0]!, 'dealer@demo.dart');
    const live = cluster.origins.map((o) => `${o}/ws/trade/d/`);
    const outcome = await openAtOnce(spread(live, 100), JSON.stringify({ type: 'auth', token: access }));
    expect(outcome.admitted).toHaveLength(LIVE_LIMITS.connectionsPerUser);
    expect(outcome.refused).toEqual(Array(100 - LIVE_LIMITS.connectionsPerUser).fill(LIVE_CLOSE.policyViolation));
    await expectStillOpenThenClose(outcome.admitted);
    await sleep(200); // the releases reach Redis
    const again = await openAtOnce(spread(live, 12), JSON.stringify({ type: 'auth', token: access }));
    expect(again.admitted).toHaveLength(LIVE_LIMITS.connectionsPerUser);
    await expectStillOpenThenClose(again.admitted);
  }, 60_000);

  it('holds the chat socket cap per user across the cluster: 100 opens over both nodes admit exactly the cap', async () => {
    const token = await a.token();
    const chat = cluster.origins.map((o) => `${o}/ws/chat/`);
    const outcome = await openAtOnce(spread(chat, 100), JSON.stringify({ type: 'auth', token, cursors: {} }));
    expect(outcome.admitted).toHaveLength(CHAT_CONNECTIONS_PER_USER);
    expect(outcome.refused).toEqual(Array(100 - CHAT_CONNECTIONS_PER_USER).fill(CHAT_CLOSE.policyViolation));
    await expectStillOpenThenClose(outcome.admitted);
  }, 60_000);
});

describe.each(DRIVERS)('Redis unreachable (%s)', (driver) => {
  let proxy: TcpProxy;
  let t: TestApp;
  let a: ChatUser;
  let b: ChatUser;
  let chatUrl: string;
  let channel: Channel;

  beforeAll(async () => {
    const redis = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    proxy = await startTcpProxy(redis.hostname, Number(redis.port || 6379));
    redis.hostname = '127.0.0.1';
    redis.port = String(proxy.port);
    t = await createTestApp(driver, { REDIS_URL: redis.toString() });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    chatUrl = `${origin(t.app)}/ws/chat/`;
    a = await chatUser(t.app, 'dealer@demo.dart');
    b = await chatUser(t.app, 'dealer@second.dart');
    channel = await createGroup(t.app, a, b, 'Outage desk');
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
  });

  const restSend = (message: string, id = reqId()) =>
    t.app.inject({
      method: 'POST',
      url: `/api/chat/channels/${channel.url}/messages/`,
      headers: bearer(a.access),
      payload: { reqId: id, message },
    });

  it('answers 503 with Retry-After and an unavailable nack, never "too fast", and recovers when Redis returns', async () => {
    expect(t.app.deps.bus.kind).toBe('redis');
    const open = await openChat(chatUrl, a);
    const chatToken = await a.token();
    const { access } = await login(t.app, 'dealer@demo.dart');
    proxy.cut();
    await sleep(100);

    const started = Date.now();
    const rest = await restSend('while Redis is down');
    expect(rest.statusCode, rest.body).toBe(503);
    expect(rest.headers['retry-after']).toBe('5');
    expect(json(rest)).toEqual({ code: 'SERVICE_UNAVAILABLE', message: CHAT_MESSAGES.serviceUnavailable });
    expect(Date.now() - started).toBeLessThan(3000);

    const id = reqId();
    open.send({ type: 'send', channel_url: channel.url, reqId: id, message: 'socket while Redis is down' });
    const nack = await open.next((f) => (f.type === 'nack' || f.type === 'ack') && f.reqId === id);
    expect(nack).toEqual({
      type: 'nack',
      reqId: id,
      code: 'SERVICE_UNAVAILABLE',
      message: CHAT_MESSAGES.serviceUnavailable,
      retry_after: 5,
    });

    // A new socket cannot be counted against the cap: "try again later", never a token or policy error. The
    // upgrade request itself may already be refused 503 by the HTTP rate limit's Redis store (app.ts).
    for (const [url, auth] of [
      [chatUrl, { type: 'auth', token: chatToken, cursors: {} }],
      [`${origin(t.app)}/ws/trade/d/`, { type: 'auth', token: access }],
    ] as const) {
      const outcome = await connectChat(url).then(
        async (socket) => {
          socket.send(auth);
          return `close ${(await socket.closed).code}`;
        },
        (error: Error) => error.message,
      );
      expect(['close 1013', 'Unexpected server response: 503']).toContain(outcome);
    }

    proxy.restore();
    let status = 0;
    for (let i = 0; i < 40 && status !== 201; i++) {
      await sleep(250);
      status = (await restSend('after Redis returned')).statusCode;
    }
    expect(status).toBe(201);
    const retried = reqId();
    open.send({ type: 'send', channel_url: channel.url, reqId: retried, message: 'socket after Redis returned' });
    expect((await open.next((f) => (f.type === 'nack' || f.type === 'ack') && f.reqId === retried)).type).toBe('ack');
    // Nothing was stored while the limiter could not be asked.
    expect(await storedTexts(t.app, a, channel.url)).toEqual([
      [1, 'after Redis returned'],
      [2, 'socket after Redis returned'],
    ]);
    // New sockets are admitted again once the cap's own Redis connection is back (the client retries on 1013).
    let admitted: WebSocket[] = [];
    for (let i = 0; i < 40 && admitted.length === 0; i++) {
      const outcome = await openAtOnce([chatUrl], JSON.stringify({ type: 'auth', token: await a.token(), cursors: {} }));
      expect(outcome.refused.every((code) => code === CHAT_CLOSE.tryAgainLater)).toBe(true);
      admitted = outcome.admitted;
      if (admitted.length === 0) await sleep(250);
    }
    expect(admitted).toHaveLength(1);
    await expectStillOpenThenClose(admitted);
    open.socket.close();
  }, 30_000);
});
