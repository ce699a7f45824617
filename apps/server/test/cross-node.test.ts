/**
 * Two app nodes on one PostgreSQL database and the Redis bus (runs only when DATABASE_URL and
 * REDIS_URL are set): a quote created on node A reaches a socket on node B; a socket resuming on node
 * B after missing events gets exactly what it missed, in order, once. Other suites share the Redis
 * channel, so assertions look only at this suite's quotes and database.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { bearer, json, startRedisCluster, type RedisCluster, login } from './helpers';

const GSEC_2033 = 'IN0020220151';
type Message = { type: string; position?: number; topic?: string; payload?: { quote_id?: string; action?: string } };

interface Client {
  socket: WebSocket;
  messages: Message[];
  next(predicate: (m: Message) => boolean, timeoutMs?: number): Promise<Message>;
}

function connect(url: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const messages: Message[] = [];
    const waiters: Array<{ predicate: (m: Message) => boolean; resolve: (m: Message) => void }> = [];
    socket.on('message', (raw: Buffer) => {
      const message = JSON.parse(raw.toString()) as Message;
      messages.push(message);
      for (const w of waiters.slice())
        if (w.predicate(message)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(message);
        }
    });
    socket.on('error', reject);
    socket.on('open', () =>
      resolve({
        socket,
        messages,
        next: (predicate, timeoutMs = 5000) => {
          const found = messages.find(predicate);
          if (found) return Promise.resolve(found);
          return new Promise((res, rej) => {
            const timer = setTimeout(() => rej(new Error('timed out waiting for a message')), timeoutMs);
            waiters.push({
              predicate,
              resolve: (m) => {
                clearTimeout(timer);
                res(m);
              },
            });
          });
        },
      }),
    );
  });
}

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('two nodes over PostgreSQL + Redis', () => {
  let cluster: RedisCluster;
  let nodes: FastifyInstance[] = [];
  let wsUrl: string[] = [];
  let gsec: number;
  let demo: string;
  let second: string;
  let secondClientId: string;

  beforeAll(async () => {
    cluster = await startRedisCluster(2, { BOND_IMPORT: 'slice' });
    nodes = cluster.nodes;
    wsUrl = cluster.origins.map((origin) => `${origin}/ws/trade/d/`);
    demo = (await login(nodes[0]!, 'dealer@demo.dart')).access;
    second = (await login(nodes[1]!, 'dealer@second.dart')).access;
    secondClientId = json<{ client_id: string }>(
      await nodes[1]!.inject({ method: 'GET', url: '/api/session/', headers: bearer(second) }),
    ).client_id;
    gsec = json<{ id: number }>(await nodes[0]!.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  const quoteOnA = async (yieldFraction: number) => {
    const response = await nodes[0]!.inject({
      method: 'POST',
      url: '/api/trade/eoi/',
      headers: bearer(demo),
      payload: { quantum: 100, finstrument_id: gsec, yield_stored: yieldFraction, validity: 60 },
    });
    expect(response.statusCode, response.body).toBe(201);
    return json<{ id: string }>(response).id;
  };

  it('delivers a quote created on node A to a socket on node B, and B serves it in the market list', async () => {
    const client = await connect(wsUrl[1]!);
    client.socket.send(JSON.stringify({ type: 'auth', token: second }));
    await client.next((m) => m.type === 'auth_ok');
    const id = await quoteOnA(0.0701);
    const event = await client.next((m) => m.topic === 'market.public_run' && m.payload?.quote_id === id);
    expect(event.payload?.action).toBe('created');
    // The public quote is anonymous to Second Bank on the socket too.
    expect(JSON.stringify(event.payload)).not.toContain('Demo Capital');
    // Node B's cached public page was cleared by A's change through the bus.
    await new Promise((r) => setTimeout(r, 200));
    const list = json<{ results: Array<{ id: string }> }>(
      await nodes[1]!.inject({ method: 'GET', url: '/api/trade/d/market/', headers: bearer(second) }),
    );
    expect(list.results.map((q) => q.id)).toContain(id);
    client.socket.close();
  });

  it('a socket resuming on node B gets exactly the events it missed, in order, once', async () => {
    const first = await connect(wsUrl[1]!);
    first.socket.send(JSON.stringify({ type: 'auth', token: second }));
    const ok = await first.next((m) => m.type === 'auth_ok');
    const last = ok.position!;
    first.socket.close();
    const missed = [await quoteOnA(0.0702), await quoteOnA(0.0703), await quoteOnA(0.0704)];

    const resumed = await connect(wsUrl[1]!);
    resumed.socket.send(JSON.stringify({ type: 'auth', token: second, last_position: last }));
    await resumed.next((m) => m.type === 'auth_ok');
    await resumed.next((m) => m.payload?.quote_id === missed[2]);
    const live = await quoteOnA(0.0705);
    await resumed.next((m) => m.payload?.quote_id === live);

    // What the table says Second Bank may see after `last` (public runs of the four quotes).
    const expected = await nodes[0]!.deps.database.query<{ position: string; quote_id: string }>(
      `SELECT position, payload->>'quote_id' AS quote_id FROM events
        WHERE position > $1 AND (client_id IS NULL OR client_id = $2) AND topic LIKE 'market.%' ORDER BY position`,
      [last, secondClientId],
    );
    const ours = new Set([...missed, live]);
    const got = resumed.messages.filter((m) => m.type === 'event' && ours.has(m.payload?.quote_id ?? ''));
    expect(got.map((m) => [m.position, m.payload?.quote_id])).toEqual(
      expected.filter((e) => ours.has(e.quote_id)).map((e) => [Number(e.position), e.quote_id]),
    );
    expect(got.map((m) => m.payload?.quote_id)).toEqual([...missed, live]);
    // Open-orders events of Demo Capital never reach Second Bank.
    expect(got.every((m) => m.topic === 'market.public_run')).toBe(true);
    resumed.socket.close();
  });
});
