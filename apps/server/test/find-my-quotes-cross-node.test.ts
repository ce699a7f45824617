/**
 * Issue 12 fixes 1, 2 and 10 on two nodes (one PostgreSQL database, the Redis bus): each node answers the
 * Find grid's search and default order from its own search index, and both give the same rows in the same
 * order; a quote made on one node is in `GET api/trade/eoi/` on the other at once (own quotes never come
 * from a node's cache).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login, startRedisCluster, type RedisCluster } from './helpers';

/** Sizes are face value in rupees (issue 12 §1): ₹1 L is one ₹1 L NCD or 1,000 G-sec bonds. */
const LAKH = 100_000;

const GSEC_2033 = 'IN0020220151';

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('Find and own quotes across two nodes', () => {
  let cluster: RedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster(2, { BOND_IMPORT: 'slice' });
  }, 180_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('gives the same search matches and default order on both nodes', async () => {
    for (const payload of [{}, { search: 'hdfc 2030' }, { search: '7.18 GS 2033' }, { search: 'HDFC 2033', include_matured: true }]) {
      const [a, b] = await Promise.all(
        cluster.nodes.map(async (node) => {
          const response = await node.inject({ method: 'POST', url: '/api/finstruments/', payload });
          expect(response.statusCode, response.body).toBe(200);
          return json<{ count: number; results: Array<{ id: number }> }>(response);
        }),
      );
      expect(a!.count, JSON.stringify(payload)).toBeGreaterThan(0);
      expect(b!.count, JSON.stringify(payload)).toBe(a!.count);
      expect(b!.results.map((r) => r.id)).toEqual(a!.results.map((r) => r.id));
    }
  });

  it('lists a quote made on one node in GET api/trade/eoi/ on the other at once', async () => {
    const [a, b] = cluster.nodes as [(typeof cluster.nodes)[number], (typeof cluster.nodes)[number]];
    const token = (await login(a, 'dealer@demo.dart')).access;
    const gsec = json<{ id: number }>(await a.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
    const before = json<{ count: number }>(await b.inject({ method: 'GET', url: '/api/trade/eoi/', headers: bearer(token) })).count;
    for (let i = 0; i < 3; i++) {
      const created = await a.inject({
        method: 'POST',
        url: '/api/trade/eoi/',
        payload: { quantum: 10 * LAKH, finstrument_id: gsec, yield_stored: 0.0701 + i / 10_000 },
        headers: bearer(token),
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = json<{ id: string }>(created).id;
      const list = json<{ count: number; results: Array<{ id: string }> }>(
        await b.inject({ method: 'GET', url: '/api/trade/eoi/', headers: bearer(token) }),
      );
      expect(list.count).toBe(before + i + 1);
      expect(list.results[0]!.id).toBe(id);
    }
  });
});
