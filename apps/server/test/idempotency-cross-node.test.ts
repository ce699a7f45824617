/**
 * Issue 11 defect 1 across nodes: two app nodes on one PostgreSQL database and the Redis bus, real HTTP
 * to each node's port. The same concurrent submits with one Idempotency-Key, split across the two
 * nodes, on every idempotent route: the first result or 409 + Retry-After, never 5xx, one effect.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login, startRedisCluster, type RedisCluster } from './helpers';
import { concurrentSubmits, SCENARIOS, type Harness, type Who } from './idempotency-support';

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('Idempotency-Key across two nodes', () => {
  let cluster: RedisCluster;
  let h: Harness;
  const tok = {} as Record<Who, string>;

  beforeAll(async () => {
    cluster = await startRedisCluster(2, { BOND_IMPORT: 'slice' });
    const [a, b] = cluster.nodes;
    const bases = cluster.nodes.map((node) => `http://127.0.0.1:${(node.server.address() as AddressInfo).port}`);
    const users = {} as Harness['users'];
    for (const [who, email] of Object.entries({
      demo: 'dealer@demo.dart',
      second: 'dealer@second.dart',
      ops: 'opsadmin@demo.dart',
    }) as Array<[Who, string]>) {
      tok[who] = (await login(a!, email)).access;
      const session = json<{ client_id: string; user_info: { id: string } }>(
        await b!.inject({ method: 'GET', url: '/api/session/', headers: bearer(tok[who]) }),
      );
      users[who] = { id: session.user_info.id, clientId: session.client_id };
    }
    const gsec = json<{ id: number }>(await a!.inject({ method: 'GET', url: '/api/finstrument/IN0020220151/' })).id;
    h = {
      users,
      gsec,
      query: (sql, params) => a!.deps.database.query(sql, params),
      // The venue book is shared by every node (one database): any node sees every RFQ.
      venueRfqs: async () => (await a!.exchange.venue.liveRfqs()).length,
      send: async (node, submit, headers = {}) => {
        const body = submit.raw ? submit.raw.body : submit.json !== undefined ? JSON.stringify(submit.json) : undefined;
        const response = await fetch(`${bases[node]}${submit.url}`, {
          method: submit.method,
          headers: {
            ...bearer(tok[submit.who]),
            ...(submit.raw ? { 'content-type': submit.raw.contentType } : body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...headers,
          },
          ...(body !== undefined ? { body } : {}),
        });
        return { status: response.status, headers: Object.fromEntries(response.headers.entries()), body: await response.text() };
      },
    };
  }, 180_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it.each(SCENARIOS.map((s) => [s.name, s] as const))('5 concurrent submits with one key over two nodes: %s', async (_name, scenario) => {
    expect((await concurrentSubmits(h, scenario, 2)).every((status) => status < 500)).toBe(true);
  });
});
