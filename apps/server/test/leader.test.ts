/**
 * Job leadership (lib/leader.ts): on PostgreSQL exactly one of several nodes holds the advisory lock;
 * when the leader stops, or its connection is killed (a node that dies), another node takes over on
 * its next attempt. The embedded database is one node, which leads at once. The PostgreSQL part runs
 * when DATABASE_URL is set (as in CI).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, advisoryKey, type Database } from '../src/db/client';
import { electLeader, type Leadership } from '../src/lib/leader';
import { createLogger } from '../src/lib/logger';
import { createPostgresDatabase } from './helpers';

const RETRY_MS = 150;
const waitFor = async (condition: () => boolean, timeoutMs = 5000) => {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

describe('job leadership', () => {
  it('the embedded database is one node: it leads at once, and gives up when stopped', async () => {
    const database = await openPglite('memory://');
    cleanups.push(() => database.close());
    const leader = electLeader(database, 'test:jobs', { retryMs: RETRY_MS });
    await leader.ready;
    expect(leader.isLeader()).toBe(true);
    await leader.stop();
    expect(leader.isLeader()).toBe(false);
  });

  describe.runIf(process.env.DATABASE_URL)('on PostgreSQL', () => {
    async function nodes(count: number) {
      const scratch = await createPostgresDatabase();
      cleanups.push(scratch.drop);
      const databases: Database[] = [];
      const leaders: Leadership[] = [];
      for (let i = 0; i < count; i++) {
        const database = await openPostgres(scratch.url, createLogger('silent'), 5000);
        databases.push(database);
        cleanups.push(() => database.close());
        const leader = electLeader(database, 'test:jobs', { retryMs: RETRY_MS });
        leaders.push(leader);
        cleanups.push(() => leader.stop());
      }
      await Promise.all(leaders.map((l) => l.ready));
      return { databases, leaders };
    }
    const leading = (leaders: Leadership[]) => leaders.filter((l) => l.isLeader());

    it('exactly one of three nodes leads; when it stops, exactly one other takes over', async () => {
      const { leaders } = await nodes(3);
      expect(leading(leaders)).toHaveLength(1);
      // Several attempts later it is still one and the same node.
      const first = leading(leaders)[0]!;
      await new Promise((r) => setTimeout(r, RETRY_MS * 4));
      expect(leading(leaders)).toEqual([first]);

      await first.stop();
      await waitFor(() => leading(leaders).length === 1);
      expect(leading(leaders)[0]).not.toBe(first);
      await new Promise((r) => setTimeout(r, RETRY_MS * 4));
      expect(leading(leaders)).toHaveLength(1);
    });

    it('a leader whose connection dies loses the lock, and another node takes over', async () => {
      const { databases, leaders } = await nodes(2);
      const before = leaders.findIndex((l) => l.isLeader());
      expect(before).toBeGreaterThanOrEqual(0);
      // Kill the backend holding the lock, as a crashed node or a network cut would.
      await databases[1 - before]!.query(
        `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND ((classid::bigint << 32) | objid::bigint) = $1::bigint`,
        [advisoryKey('test:jobs')],
      );
      await waitFor(() => leaders[1 - before]!.isLeader() && !leaders[before]!.isLeader());
    });
  });
});
