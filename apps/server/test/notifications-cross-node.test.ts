/**
 * The notification centre on two nodes over PostgreSQL + Redis (runs only when DATABASE_URL and REDIS_URL are set):
 * a counter made on node A lights the other dealer's socket on node B; both nodes draining the outbox at once still
 * make one notification; a socket that reconnects to the other node is caught up once; a read on one node clears the
 * user's socket on the other.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login, startRedisCluster, type RedisCluster } from './helpers';
import { connectLive, type LiveSocket } from './live-socket';

const LAKH = 100_000;
const GSEC_2033 = 'IN0020220151';
type Message = {
  type: string;
  position?: number;
  topic?: string;
  payload?: { notification?: { id: string; kind: string }; ids?: string[] | null };
};

type Socket = LiveSocket<Message>;
const connect = (url: string, token: string, lastPosition?: number): Promise<Socket> =>
  connectLive<Message>(url, token, lastPosition, 8000);

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('notifications on two nodes over PostgreSQL + Redis', () => {
  let cluster: RedisCluster;
  let nodes: FastifyInstance[] = [];
  let wsUrl: string[] = [];
  let gsec: number;
  let demo: string;
  let second: string;

  beforeAll(async () => {
    cluster = await startRedisCluster(2, { BOND_IMPORT: 'slice' });
    nodes = cluster.nodes;
    wsUrl = cluster.origins.map((origin) => `${origin}/ws/trade/d/`);
    demo = (await login(nodes[1]!, 'dealer@demo.dart')).access;
    second = (await login(nodes[0]!, 'dealer@second.dart')).access;
    gsec = json<{ id: number }>(await nodes[0]!.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  /** Demo Capital bids on node B; Second Bank counters on node A. */
  async function counter(yieldFraction: number): Promise<string> {
    const quote = await nodes[1]!.inject({
      method: 'POST',
      url: '/api/trade/eoi/',
      headers: bearer(demo),
      payload: { quantum: 5 * LAKH, finstrument_id: gsec, yield_stored: yieldFraction, validity: 60 },
    });
    expect(quote.statusCode, quote.body).toBe(201);
    const id = json<{ id: string }>(quote).id;
    const response = await nodes[0]!.inject({
      method: 'POST',
      url: '/api/eoi/add-negotiation/',
      headers: bearer(second),
      payload: { quote_id: id, yield_stored: yieldFraction - 0.0005 },
    });
    expect(response.statusCode, response.body).toBe(200);
    return id;
  }

  const countFor = async (quoteId: string) =>
    (
      await nodes[0]!.deps.database.query<{ n: string }>(
        `SELECT count(*) AS n FROM notifications n JOIN events e ON e.position = n.source_position
          WHERE e.topic = 'market.rfq_negotiation' AND e.payload->>'quote_id' = $1`,
        [quoteId],
      )
    )[0]!.n;

  it('a counter on node A lights the other dealer on node B, once, even with both nodes draining', async () => {
    const onB = await connect(wsUrl[1]!, demo);
    const quoteId = await counter(0.0741);
    // Both nodes drain at the same moment as the elected one: the cursor lock makes them take turns.
    await Promise.all([nodes[0]!.notifications.producer.drain(), nodes[1]!.notifications.producer.drain()]);
    const live = await onB.next((m) => m.topic === 'notify.created');
    expect(live.payload?.notification?.kind).toBe('negotiation.counter');
    expect(await countFor(quoteId)).toBe('1');
    expect(onB.messages.filter((m) => m.topic === 'notify.created')).toHaveLength(1);
    onB.socket.close();
  });

  it('a socket that reconnects to the other node gets the notification it missed, once, and a read on A clears B', async () => {
    const onA = await connect(wsUrl[0]!, demo);
    const last = onA.position;
    onA.socket.close();
    await counter(0.0742);
    await nodes[0]!.notifications.producer.drain();
    const missed = json<{ results: Array<{ id: string }> }>(
      await nodes[0]!.inject({ method: 'GET', url: '/api/notifications/?page_size=1', headers: bearer(demo) }),
    ).results[0]!.id;

    const onB = await connect(wsUrl[1]!, demo, last);
    await onB.next((m) => m.topic === 'notify.created' && m.payload?.notification?.id === missed);
    const read = await nodes[0]!.inject({ method: 'POST', url: `/api/notifications/${missed}/read/`, headers: bearer(demo) });
    expect(read.statusCode, read.body).toBe(200);
    await onB.next((m) => m.topic === 'notify.read' && m.payload?.ids?.[0] === missed);
    expect(onB.messages.filter((m) => m.topic === 'notify.created' && m.payload?.notification?.id === missed)).toHaveLength(1);
    const unread = json<{ unread: number }>(
      await nodes[1]!.inject({ method: 'GET', url: '/api/notifications/unread-count/', headers: bearer(demo) }),
    );
    // Node B counts what node A marked.
    expect(unread.unread).toBe(json<{ unread: number }>(read).unread);
    onB.socket.close();
  });
});
