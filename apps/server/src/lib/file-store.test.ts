/**
 * The two FileStores: the local folder (the embedded default) and the PostgreSQL table every node
 * reads (on both drivers: the store only needs SQL). Round trips of binary bytes (one slice, several
 * slices, chat's 10 MB limit), the same bytes twice, concurrent puts (one of them blocked on the
 * other's uncommitted row, as two nodes are), and unknown or malformed keys.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHAT_LIMITS } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Database } from '../db/client';
import { migrate } from '../db/migrate';
import { BLOB_READ_SLICE, createFileStore, createLocalFileStore, createPostgresFileStore } from './file-store';
import { createLogger } from './logger';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const MALFORMED = ['', '../../etc/passwd', 'A'.repeat(64), 'a'.repeat(63), `${'a'.repeat(64)}/`, "' OR 1=1 --"];

describe('createLocalFileStore', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'dart-files-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('stores by content hash, once, and answers null for unknown or malformed keys', async () => {
    const store = createLocalFileStore(root);
    const bytes = randomBytes(5000);
    const stored = await store.put(bytes);
    expect(stored).toEqual({ key: sha256(bytes), size: 5000, sha256: sha256(bytes) });
    expect((await store.put(bytes)).key).toBe(stored.key);
    expect((await store.get(stored.key))!.equals(bytes)).toBe(true);
    expect(await readdir(path.join(root, stored.key.slice(0, 2)))).toEqual([stored.key]);
    expect(await store.get(sha256(Buffer.from('never stored')))).toBeNull();
    for (const key of MALFORMED) expect(await store.get(key)).toBeNull();
  });
});

const drivers: Array<'pglite' | 'postgres'> = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

describe.each(drivers)('createPostgresFileStore (%s)', (driver) => {
  let database: Database;
  let drop = async () => {};

  beforeAll(async () => {
    if (driver === 'postgres') {
      const { createPostgresDatabase } = await import('../../test/helpers');
      const scratch = await createPostgresDatabase();
      drop = scratch.drop;
      database = await openPostgres(scratch.url, createLogger('silent'), 5000);
    } else database = await openPglite('memory://');
    await migrate(database);
  });
  afterAll(async () => {
    await database?.close();
    await drop();
  });
  const rows = async (key: string) =>
    Number((await database.query<{ n: number }>('SELECT count(*)::int AS n FROM file_blobs WHERE sha256 = $1', [key]))[0]!.n);

  it('round-trips binary bytes of every size up to the chat limit, byte for byte', async () => {
    const store = createPostgresFileStore(database);
    const sizes = [
      1,
      256,
      BLOB_READ_SLICE - 1,
      BLOB_READ_SLICE,
      BLOB_READ_SLICE + 1,
      3 * BLOB_READ_SLICE + 12_345,
      CHAT_LIMITS.fileMaxBytes,
    ];
    for (const size of sizes) {
      const bytes = size === 256 ? Buffer.from(Array.from({ length: 256 }, (_, i) => i)) : randomBytes(size);
      const stored = await store.put(bytes);
      expect(stored).toEqual({ key: sha256(bytes), size, sha256: sha256(bytes) });
      const back = await store.get(stored.key);
      expect(back?.length, `size ${size}`).toBe(size);
      expect(back!.equals(bytes), `size ${size}`).toBe(true);
    }
  });

  it('keeps one row for the same bytes stored twice, and a second store (another node) reads it', async () => {
    const bytes = randomBytes(10_000);
    const first = await createPostgresFileStore(database).put(bytes);
    const again = await createPostgresFileStore(database).put(bytes);
    expect(again).toEqual(first);
    expect(await rows(first.key)).toBe(1);
    expect((await createPostgresFileStore(database).get(first.key))!.equals(bytes)).toBe(true);
  });

  it('accepts many concurrent puts of the same bytes: all succeed with one key, one row remains', async () => {
    const bytes = randomBytes(200_000);
    const stores = [createPostgresFileStore(database), createPostgresFileStore(database)];
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => stores[i % 2]!.put(bytes)));
    expect(new Set(results.map((r) => r.key))).toEqual(new Set([sha256(bytes)]));
    expect(await rows(sha256(bytes))).toBe(1);
  });

  it('answers null for an unknown key and for malformed keys (never an error)', async () => {
    const store = createPostgresFileStore(database);
    expect(await store.get(sha256(Buffer.from('never stored')))).toBeNull();
    for (const key of MALFORMED) expect(await store.get(key)).toBeNull();
  });

  it('refuses a row whose size does not match its bytes (the table checks it)', async () => {
    await expect(
      database.query('INSERT INTO file_blobs (sha256, size, bytes) VALUES ($1, $2, $3)', ['f'.repeat(64), 5, Buffer.from('four')]),
    ).rejects.toThrow(/file_blobs_size_check/);
  });

  it('is the store the app picks on PostgreSQL; the embedded database keeps the local folder', () => {
    expect(createFileStore(database, '/tmp/dart-unused-files').kind).toBe(driver === 'postgres' ? 'postgres' : 'local');
  });
});

describe.runIf(process.env.DATABASE_URL)('createPostgresFileStore on two connections (two nodes)', () => {
  let database: Database;
  let url = '';
  let drop = async () => {};
  beforeAll(async () => {
    const { createPostgresDatabase } = await import('../../test/helpers');
    const scratch = await createPostgresDatabase();
    drop = scratch.drop;
    url = scratch.url;
    database = await openPostgres(scratch.url, createLogger('silent'), 5000);
    await migrate(database);
  });
  afterAll(async () => {
    await database?.close();
    await drop();
  });
  const rows = async (key: string) =>
    Number((await database.query<{ n: number }>('SELECT count(*)::int AS n FROM file_blobs WHERE sha256 = $1', [key]))[0]!.n);

  it("waits for another node's uncommitted row, then succeeds without a second one", async () => {
    const bytes = randomBytes(50_000);
    const key = sha256(bytes);
    // Another node on its own connection: its row is inserted but not committed when this node's put
    // arrives, so this put's existence check misses it and its INSERT meets the conflict.
    const other = await openPostgres(url, createLogger('silent'), 5000);
    try {
      let settled = false;
      let put: Promise<unknown> = Promise.resolve();
      await other.withConnection(async (run) => {
        await run('BEGIN');
        await run('INSERT INTO file_blobs (sha256, size, bytes) VALUES ($1, $2, $3)', [key, bytes.length, bytes]);
        put = createPostgresFileStore(database)
          .put(bytes)
          .finally(() => {
            settled = true;
          });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(settled).toBe(false);
        await run('COMMIT');
      });
      await expect(put).resolves.toEqual({ key, size: bytes.length, sha256: key });
      expect(await rows(key)).toBe(1);
      expect((await createPostgresFileStore(database).get(key))!.equals(bytes)).toBe(true);
    } finally {
      await other.close();
    }
  });
});
