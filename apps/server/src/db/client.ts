/**
 * The database: PGlite (embedded, file-backed under DATA_DIR) when DATABASE_URL is unset,
 * node-postgres otherwise. Both expose the same Drizzle API over the same schema and migrations.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Logger } from 'pino';
import { DEFAULT_DB_POOL_SIZE } from '../config';
import { PreparingClient } from './prepared';
import { renderFlattened } from './sql-flatten';

/**
 * Without the schema: the app never uses Drizzle's relational queries (`db.query.<table>`), and with a schema every
 * transaction's handle builds one relational builder per table (74) when it opens (issue 13: ~1 % of the server's
 * CPU in the post-trade pipeline).
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction handle; repositories accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/** The rows of a raw SQL statement: both drivers answer `{ rows }` (node-postgres QueryResult, PGlite Results). */
export async function sqlRows<T = Record<string, unknown>>(executor: DbOrTx, query: SQL): Promise<T[]> {
  return ((await executor.execute(query)) as unknown as { rows: T[] }).rows;
}

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** Raw SQL for migrations and health checks. */
  exec(sqlText: string): Promise<void>;
  query<T = Record<string, unknown>>(sqlText: string, params?: unknown[]): Promise<T[]>;
  ping(): Promise<boolean>;
  /** Runs `fn` on one dedicated connection (for explicit BEGIN/COMMIT scripts such as migrations). */
  withConnection<T>(fn: (run: (sqlText: string, params?: unknown[]) => Promise<Record<string, unknown>[]>) => Promise<T>): Promise<T>;
  /**
   * Tries to take the cluster-wide lock `name` (a session-level advisory lock on a connection of its
   * own, so it goes with the holder's connection when the node dies). Resolves null when another
   * node holds it. The embedded database has one node (its directory lock), so it always succeeds.
   */
  holdLock(name: string): Promise<HeldLock | null>;
  close(): Promise<void>;
}

export interface HeldLock {
  /** True while the lock's connection answers; false once it is lost (then the lock is gone too). */
  check(): Promise<boolean>;
  release(): Promise<void>;
}

/** A stable 64-bit advisory-lock key for a lock name (first 8 bytes of its SHA-256, signed). */
export function advisoryKey(name: string): string {
  return createHash('sha256').update(name).digest().readBigInt64BE(0).toString();
}

/**
 * PGlite does not lock its data directory and a second writer silently loses writes, so we hold a
 * lock file with our pid and refuse to start when a live process holds it.
 */
function acquireDirectoryLock(dir: string): () => void {
  const lockFile = path.join(dir, 'dart.lock');
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, 'utf8'));
    let alive = false;
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) {
      try {
        process.kill(pid, 0);
        alive = true;
      } catch {
        alive = false;
      }
    }
    if (alive) throw new Error(`The embedded database in ${dir} is in use by process ${pid}. Stop it first.`);
  }
  const fd = openSync(lockFile, 'w');
  writeSync(fd, String(process.pid));
  closeSync(fd);
  return () => rmSync(lockFile, { force: true });
}

export async function openPglite(dataDir: string | 'memory://'): Promise<Database> {
  let release = () => {};
  let client: PGlite;
  if (dataDir === 'memory://') {
    client = await PGlite.create({ extensions: { pg_trgm } });
  } else {
    mkdirSync(dataDir, { recursive: true });
    release = acquireDirectoryLock(dataDir);
    client = await PGlite.create(path.join(dataDir, 'pglite'), { extensions: { pg_trgm } });
  }
  const db = renderFlattened(drizzlePglite(client) as unknown as Db);
  return {
    db,
    driver: 'pglite',
    exec: async (sqlText) => {
      await client.exec(sqlText);
    },
    query: async <T>(sqlText: string, params: unknown[] = []) => (await client.query<T>(sqlText, params)).rows,
    ping: async () => {
      try {
        await client.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    withConnection: async (fn) =>
      fn(async (sqlText, params) =>
        params
          ? (await client.query<Record<string, unknown>>(sqlText, params)).rows
          : (((await client.exec(sqlText)).at(-1)?.rows ?? []) as Record<string, unknown>[]),
      ),
    holdLock: async () => {
      let held = true;
      return {
        check: async () => held,
        release: async () => {
          held = false;
        },
      };
    },
    close: async () => {
      await client.close();
      release();
    },
  };
}

/** How long a pool connection lives (README "Runtime": generic plans are costed once, on the table sizes of then). */
export const POOL_CONNECTION_LIFETIME_S = 60;

export async function openPostgres(
  url: string,
  logger: Logger,
  queryTimeoutMs: number,
  poolSize: number = DEFAULT_DB_POOL_SIZE,
): Promise<Database> {
  const pool = new pg.Pool({
    // Parameterised statements as named prepared statements of each connection (db/prepared.ts).
    Client: PreparingClient,
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 3_000,
    idleTimeoutMillis: 30_000,
    // A connection's named statements keep the generic plans PostgreSQL costed when they were made (prepared.ts):
    // ended after a minute (once idle), so no plan outlives by more than that the table sizes it was costed on.
    maxLifetimeSeconds: POOL_CONNECTION_LIFETIME_S,
    query_timeout: queryTimeoutMs,
    statement_timeout: queryTimeoutMs,
  });
  // Without this listener a PostgreSQL restart kills the process (RELIABILITY pitfall #1).
  pool.on('error', (error) => logger.warn({ err: { message: error.message } }, 'postgres idle client error'));
  const db = renderFlattened(drizzlePg(pool) as unknown as Db);
  return {
    db,
    driver: 'postgres',
    exec: async (sqlText) => {
      await pool.query(sqlText);
    },
    query: async <T>(sqlText: string, params: unknown[] = []) => (await pool.query(sqlText, params)).rows as T[],
    ping: async () => {
      try {
        await pool.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    withConnection: async (fn) => {
      const connection = await pool.connect();
      try {
        return await fn(async (sqlText, params) => (await connection.query(sqlText, params)).rows as Record<string, unknown>[]);
      } finally {
        connection.release();
      }
    },
    holdLock: async (name) => {
      // Its own client, outside the pool: the pool's idle reaping must not end the session holding the lock.
      const connection = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000, query_timeout: queryTimeoutMs });
      let lost = false;
      connection.on('error', () => {
        lost = true;
      });
      connection.on('end', () => {
        lost = true;
      });
      const key = advisoryKey(name);
      try {
        await connection.connect();
        const [row] = (await connection.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS held', [key])).rows;
        if (!row?.held) {
          await connection.end().catch(() => undefined);
          return null;
        }
      } catch (error) {
        await connection.end().catch(() => undefined);
        throw error;
      }
      return {
        check: async () => {
          if (lost) return false;
          try {
            await connection.query('SELECT 1');
            return true;
          } catch {
            lost = true;
            return false;
          }
        },
        release: async () => {
          if (lost) return;
          lost = true;
          await connection.query('SELECT pg_advisory_unlock($1::bigint)', [key]).catch(() => undefined);
          await connection.end().catch(() => undefined);
        },
      };
    },
    close: async () => {
      await pool.end();
    },
  };
}

/** What a PostgreSQL error says of itself, as node-postgres and PGlite report it. */
export interface PgErrorFields {
  code?: string;
  constraint?: string;
  column?: string;
  message?: string;
  cause?: unknown;
}

/**
 * Whether `error` or one of its causes (Drizzle wraps the driver's error in `cause`) is a PostgreSQL error of
 * SQLSTATE `code` that `matches` (a constraint, a column; any by default).
 */
export function hasPgError(error: unknown, code: string, matches: (e: PgErrorFields) => boolean = () => true): boolean {
  for (let e = error as PgErrorFields | undefined; e && typeof e === 'object'; e = e.cause as PgErrorFields | undefined)
    if (e.code === code && matches(e)) return true;
  return false;
}

/** Errors that mean "the database is unreachable", answered with 503 rather than 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: string; message?: string; cause?: unknown };
  const codes = [
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'EPIPE',
    'ENOTFOUND',
    '57P01',
    '57P02',
    '57P03',
    '08000',
    '08001',
    '08003',
    '08006',
    '53300',
  ];
  if (e.code && codes.includes(e.code)) return true;
  const message = e.message ?? '';
  if (
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED|Query read timeout|Connection terminated unexpectedly/i.test(
      message,
    )
  )
    return true;
  return e.cause ? isDatabaseUnavailable(e.cause) : false;
}
