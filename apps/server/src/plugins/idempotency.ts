/**
 * Idempotency-Key on every submit route (RELIABILITY #41), one mechanism for all of them. A route opts
 * in with `config: { policy, idempotent: true }`. With the header, the request first claims
 * (user, key) in the shared database (insert-if-absent, state `pending`, a fencing token and a lease),
 * then runs; its answer (2xx, or a 4xx other than 409/429) is stored and every later request with
 * that key and the same route, params, query and body gets it back with `Idempotency-Replayed: true`.
 * A duplicate arriving while the first still runs waits up to `waitMs` for the answer, then gets
 * 409 + Retry-After. The same key with another request → 409. A 5xx, 409, 429 or thrown error
 * releases the claim so a retry can run — unless the business transaction already committed (the
 * service called `fenceIdempotency` in it: state `applied`), which is never run twice.
 * See modules/market/README.md "Idempotency" for the states, the lease and the crash window.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY_HEADER, MARKET_MESSAGES } from '@dart/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Tx } from '../db/client';
import { AppError, fieldError } from '../lib/errors';
import { canonicalJson } from '../lib/canonical-json';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A submit: the `Idempotency-Key` header makes retries safe (plugins/idempotency.ts). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The key this request claimed and runs under (null: no key, not an idempotent route, or a replay). */
    idempotencyClaim: IdempotencyClaim | null;
  }
}

export interface IdempotencyClaim {
  userId: string;
  key: string;
  /** Fencing token: only the holder of the current token may mark the key applied or answer it. */
  owner: string;
}

export interface IdempotencyOptions {
  /** A pending claim older than this was left by a crashed node and may be taken over. */
  leaseMs: number;
  /** How long a duplicate waits for the first request's answer before 409 + Retry-After. */
  waitMs: number;
  pollMs: number;
}

export const IDEMPOTENCY_REPLAYED_HEADER = 'idempotency-replayed';
const KEY_PATTERN = /^[\w.:-]{1,100}$/;
/** Answers a retry must be able to run again after: conflicts with the current state and rate limits. */
const RELEASED_4XX = new Set([408, 409, 423, 425, 429]);

const running = new AsyncLocalStorage<IdempotencyClaim>();

/**
 * Called by a service inside its business transaction: marks the request's claim `applied` in the same
 * transaction, so a committed change is never run again for the key, and refuses (409, rolling the
 * change back) when a retry took the claim over after the lease. Outside an idempotent request: no-op.
 */
export async function fenceIdempotency(tx: Tx): Promise<void> {
  const claim = running.getStore();
  if (!claim) return;
  const result = (await tx.execute(
    sql`UPDATE idempotency_keys SET state = 'applied', updated_at = now()
        WHERE user_id = ${claim.userId} AND key = ${claim.key} AND owner = ${claim.owner} AND state IN ('pending', 'applied')
        RETURNING 1 AS ok`,
  )) as unknown as { rows: unknown[] };
  if (result.rows.length === 0) throw new AppError('CONFLICT', MARKET_MESSAGES.idempotencyTakenOver);
}

/**
 * Whether the current request runs under an Idempotency-Key claim. A service whose fast path writes
 * without a transaction of its own (chat's one-statement send) takes its transactional path then, so the
 * write and `fenceIdempotency` commit together.
 */
export function underIdempotencyClaim(): boolean {
  return running.getStore() !== undefined;
}

/** What makes two requests "the same": route, params, query, body (raw bodies with their content type). */
export function requestHash(request: Pick<FastifyRequest, 'params' | 'query' | 'body' | 'headers'>, route: string): string {
  const rawBody = Buffer.isBuffer(request.body);
  return createHash('sha256')
    .update(
      [
        route,
        canonicalJson(request.params),
        canonicalJson(request.query),
        rawBody ? String(request.headers['content-type'] ?? '') : '',
        canonicalJson(request.body),
      ].join('\n'),
    )
    .digest('hex');
}

/** The key from the header; undefined when absent; 400 when malformed. */
export function idempotencyKeyOf(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  const raw = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || !KEY_PATTERN.test(key)) throw fieldError('Idempotency-Key', MARKET_MESSAGES.idempotencyKeyInvalid);
  return key;
}

interface StoredRow {
  route: string;
  request_hash: string;
  state: 'pending' | 'applied' | 'done';
  owner: string | null;
  status_code: number | null;
  response: unknown;
  stale: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function registerIdempotency(app: FastifyInstance, options: IdempotencyOptions): void {
  const { database } = app.deps;
  app.decorateRequest('idempotencyClaim', null);

  const leaseSql = `now() + make_interval(secs => ${Math.max(1, Math.ceil(options.leaseMs / 1000))})`;

  /** Claims (user, key): a new row, or a pending claim whose lease ran out (its node died). */
  async function claim(userId: string, key: string, route: string, hash: string): Promise<IdempotencyClaim | StoredRow> {
    const owner = randomUUID();
    const inserted = await database.query(
      `INSERT INTO idempotency_keys (user_id, key, route, request_hash, state, owner, locked_until)
       VALUES ($1, $2, $3, $4, 'pending', $5, ${leaseSql})
       ON CONFLICT (user_id, key) DO NOTHING RETURNING 1 AS ok`,
      [userId, key, route, hash, owner],
    );
    if (inserted.length > 0) return { userId, key, owner };
    const [row] = await database.query<StoredRow>(
      `SELECT route, request_hash, state, owner, status_code, response, (locked_until IS NOT NULL AND locked_until < now()) AS stale
       FROM idempotency_keys WHERE user_id = $1 AND key = $2`,
      [userId, key],
    );
    if (!row) return claim(userId, key, route, hash); // released meanwhile: claim afresh
    if (row.route !== route || row.request_hash !== hash) throw new AppError('CONFLICT', MARKET_MESSAGES.idempotencyMismatch);
    if (row.state === 'pending' && row.stale) {
      const taken = await database.query(
        `UPDATE idempotency_keys SET owner = $3, locked_until = ${leaseSql}, updated_at = now()
         WHERE user_id = $1 AND key = $2 AND state = 'pending' AND owner IS NOT DISTINCT FROM $4 AND locked_until < now()
         RETURNING 1 AS ok`,
        [userId, key, owner, row.owner],
      );
      if (taken.length > 0) return { userId, key, owner };
    }
    return row;
  }

  function replay(reply: FastifyReply, row: StoredRow) {
    return reply
      .status(row.status_code ?? 200)
      .header(IDEMPOTENCY_REPLAYED_HEADER, 'true')
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(row.response));
  }

  /** Stores the answer (or releases the claim) once the status and body are final. */
  async function finish(request: FastifyRequest, claimed: IdempotencyClaim, status: number, payload: unknown): Promise<void> {
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    let body: unknown;
    let storable = status < 500 && !RELEASED_4XX.has(status) && text !== null;
    if (storable) {
      try {
        body = JSON.parse(text!);
      } catch {
        storable = false;
      }
    }
    try {
      if (storable)
        await database.query(
          `UPDATE idempotency_keys SET state = 'done', status_code = $4, response = $5::jsonb, locked_until = NULL, updated_at = now()
           WHERE user_id = $1 AND key = $2 AND owner = $3`,
          [claimed.userId, claimed.key, claimed.owner, status, JSON.stringify(body)],
        );
      // Not storable: released for a retry, unless the change committed (applied) — that one never runs twice.
      else
        await database.query(`DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND owner = $3 AND state = 'pending'`, [
          claimed.userId,
          claimed.key,
          claimed.owner,
        ]);
    } catch (error) {
      // The answer still goes out; the claim ends with its lease.
      request.log.warn({ err: { message: (error as Error).message } }, 'idempotency answer not stored');
    }
  }

  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    const handler = route.handler as RouteHandlerMethod;
    if (route.schema)
      route.schema.description = [
        route.schema.description,
        'Header `Idempotency-Key` (1–100 of letters, digits, `.:-_`) makes retries safe: the first answer is replayed with `Idempotency-Replayed: true`; 409 + Retry-After while the first is still running; 409 for the key with another request.',
      ]
        .filter(Boolean)
        .join('\n\n');
    route.handler = async function idempotent(this: FastifyInstance, request, reply) {
      const key = idempotencyKeyOf(request);
      const userId = request.principal?.userId;
      if (key === undefined || !userId) return handler.call(this, request, reply);
      const routeName = `${request.method} ${request.routeOptions.url ?? ''}`;
      const hash = requestHash(request, routeName);
      const deadline = Date.now() + options.waitMs;
      for (;;) {
        const outcome = await claim(userId, key, routeName, hash);
        if (!('route' in outcome)) {
          request.idempotencyClaim = outcome;
          return running.run(outcome, () => handler.call(this, request, reply));
        }
        if (outcome.state === 'done') return replay(reply, outcome);
        if (outcome.state === 'applied' && outcome.stale) throw new AppError('CONFLICT', MARKET_MESSAGES.idempotencyAnswerLost);
        if (Date.now() >= deadline) throw new AppError('CONFLICT', MARKET_MESSAGES.idempotencyInFlight, undefined, { 'retry-after': '1' });
        await sleep(options.pollMs);
      }
    } as RouteHandlerMethod;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claimed = request.idempotencyClaim;
    if (!claimed) return payload;
    request.idempotencyClaim = null;
    await finish(request, claimed, reply.statusCode, payload);
    return payload;
  });
  // A request that ended without an answer (client gone, timeout): release what it held.
  app.addHook('onResponse', async (request, reply) => {
    const claimed = request.idempotencyClaim;
    if (!claimed) return;
    request.idempotencyClaim = null;
    await finish(request, claimed, Math.max(reply.statusCode, 500), null);
  });
}
