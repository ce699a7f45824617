/**
 * SQL of the live gateway: a socket's start in one statement. A reconnect storm (a tenth of 2,000 sockets at once,
 * bench/notify) used to cost each socket the latest position, one query per audience and its first replay page on
 * the node's pool, which the notification producer and the modules' writes wait for too.
 */
import { sql, type SQL } from 'drizzle-orm';
import { sqlRows, type DbOrTx } from '../../db/client';
import type { LiveAudience, LiveReader } from '../../lib/live-audience';

/** An events row as the replay delivers it. */
export interface ReplayRow {
  position: number;
  topic: string;
  clientId: string | null;
  userId: string | null;
  payload: unknown;
}

export interface SocketStart {
  /** The latest position when the statement ran (the `auth_ok` position). */
  latest: number;
  /** Per audience, in the given order: what its `start` read. */
  audiences: unknown[];
  /** The first page of events after the resume point that the reader may see, in position order. */
  replay: ReplayRow[];
}

/** The events after `from` a user of a tenant sees (the tenant's, everyone's and the user's own): `eventsSince`'s rule. */
const visibleEvents = (reader: LiveReader, from: SQL) =>
  sql`e.position > ${from} AND (e.client_id = ${reader.clientId}::uuid OR e.client_id IS NULL)
      AND (e.user_id IS NULL OR e.user_id = ${reader.userId}::uuid)`;

/**
 * One statement, one snapshot: the latest position, each audience's start and the first `limit` events to replay after
 * `resume` (a fresh socket, `resume` undefined, starts at the latest position and has nothing to replay).
 */
export async function readSocketStart(
  db: DbOrTx,
  reader: LiveReader,
  resume: number | undefined,
  audiences: readonly LiveAudience[],
  limit: number,
): Promise<SocketStart> {
  const from = resume === undefined ? sql`latest.position` : sql`${resume}::bigint`;
  const starts = audiences.map((audience, i) => sql`${audience.start(reader, from)} AS ${sql.raw(`a${i}`)}`);
  const replay =
    resume === undefined
      ? sql`'[]'::json`
      : sql`(SELECT coalesce(json_agg(json_build_object('position', r.position, 'topic', r.topic, 'clientId', r.client_id,
                'userId', r.user_id, 'payload', r.payload) ORDER BY r.position), '[]'::json)
               FROM (SELECT e.position, e.topic, e.client_id, e.user_id, e.payload FROM events e
                      WHERE ${visibleEvents(reader, from)} ORDER BY e.position LIMIT ${limit}) r)`;
  const [row] = await sqlRows<Record<string, unknown>>(
    db,
    sql`WITH latest AS (SELECT coalesce(max(position), 0)::bigint AS position FROM events)
        SELECT latest.position AS latest, ${replay} AS replay${starts.length > 0 ? sql`, ${sql.join(starts, sql`, `)}` : sql``}
          FROM latest`,
  );
  const json = (value: unknown) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value);
  return {
    latest: Number(row!.latest),
    audiences: audiences.map((_, i) => json(row![`a${i}`])),
    replay: (json(row!.replay) as ReplayRow[]).map((r) => ({ ...r, position: Number(r.position) })),
  };
}
