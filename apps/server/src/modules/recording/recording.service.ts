/**
 * Session recording (README): a signed-in user's browser starts a recording and uploads its rrweb events in numbered
 * batches (masked before they leave the browser); the firm's ops admins list and replay their own firm's recordings.
 * Off unless `SESSION_RECORDING=on`: then every call but the settings is 404. Recordings older than the retention are
 * purged whenever a recording starts, and are invisible before that.
 */
import {
  RECORDING_LIMITS,
  RECORDING_MESSAGES,
  type RecordedEvent,
  type RecordingChunk,
  type RecordingDetail,
  type RecordingList,
  type RecordingListQuery,
  type RecordingSessionCreated,
  type RecordingSettings,
  type RecordingSummary,
} from '@dart/contracts';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import * as repo from './recording.repository';

type Recorder = Pick<Principal, 'userId' | 'clientId' | 'sessionId'>;
type Reader = Pick<Principal, 'clientId'>;

export interface RecordingService {
  readonly enabled: boolean;
  settings(): RecordingSettings;
  /** Audited (`recording.started`): the trail shows when a user's session was recorded. */
  start(recorder: Recorder, userAgent: string | null, audit: AuditContext): Promise<RecordingSessionCreated>;
  append(recorder: Recorder, id: string, chunk: RecordingChunk): Promise<{ seq: number; stored: boolean }>;
  list(reader: Reader, query: RecordingListQuery): Promise<RecordingList>;
  /** Audited (`recording.viewed`): who replayed whose session, and when. */
  get(reader: Reader, id: string, audit: AuditContext): Promise<RecordingDetail>;
  /** Deletes recordings past retention now; returns how many (tests and the start call use it). */
  purge(): Promise<number>;
}

const DAY_MS = 86_400_000;

const notFound = () => new AppError('NOT_FOUND', RECORDING_MESSAGES.notFound);

function summaryView(row: repo.RecordingSummaryRow): RecordingSummary {
  return {
    id: row.id,
    user_id: row.userId,
    user_email: row.userEmail,
    user_name: `${row.firstName} ${row.lastName}`.trim(),
    user_agent: row.userAgent,
    started_at: row.startedAt.toISOString(),
    last_event_at: row.lastEventAt?.toISOString() ?? null,
    chunk_count: row.chunkCount,
    event_count: row.eventCount,
    bytes: row.bytes,
  };
}

export function createRecordingService(deps: AppDeps): RecordingService {
  const { config, database, now } = deps;
  const db = database.db;
  const { enabled, retentionDays } = config.sessionRecording;
  const cutoff = () => new Date(now().getTime() - retentionDays * DAY_MS);

  return {
    enabled,

    settings() {
      return {
        enabled,
        flush_interval_ms: RECORDING_LIMITS.flushIntervalMs,
        chunk_max_bytes: RECORDING_LIMITS.chunkMaxBytes,
        chunk_max_events: RECORDING_LIMITS.chunkMaxEvents,
      };
    },

    async start(recorder, userAgent, audit) {
      return db.transaction(async (tx) => {
        // Purge on write: every start clears what is past retention (no job, so nothing is kept longer on an idle node).
        await repo.purgeBefore(tx, cutoff());
        const row = await repo.insertSession(tx, {
          clientId: recorder.clientId,
          userId: recorder.userId,
          authSessionId: recorder.sessionId,
          userAgent: userAgent?.slice(0, 300) ?? null,
          startedAt: now(),
        });
        await writeAudit(tx, audit, { action: 'recording.started', entity: 'recording_session', entityId: row.id });
        return { id: row.id, started_at: row.startedAt.toISOString() };
      });
    },

    async append(recorder, id, chunk) {
      const bytes = Buffer.byteLength(JSON.stringify(chunk.events), 'utf8');
      if (bytes > RECORDING_LIMITS.chunkMaxBytes) throw new AppError('PAYLOAD_TOO_LARGE', RECORDING_MESSAGES.chunkTooLarge);
      return db.transaction(async (tx) => {
        // Own recordings only: someone else's (or an expired one) is as absent as a missing one.
        const session = await repo.lockOwnSession(tx, recorder, id, cutoff());
        if (!session) throw notFound();
        if (session.bytes + bytes > RECORDING_LIMITS.sessionMaxBytes)
          throw new AppError('PAYLOAD_TOO_LARGE', RECORDING_MESSAGES.sessionFull);
        const at = now();
        const stored = await repo.insertChunk(tx, {
          sessionId: id,
          seq: chunk.seq,
          events: chunk.events,
          eventCount: chunk.events.length,
          bytes,
          createdAt: at,
        });
        if (stored) await repo.addToSession(tx, id, { events: chunk.events.length, bytes, at });
        return { seq: chunk.seq, stored };
      });
    },

    async list(reader, query) {
      const { count, rows } = await repo.listSessions(db, reader.clientId, {
        userId: query.user_id,
        cutoff: cutoff(),
        limit: query.page_size,
        offset: (query.page - 1) * query.page_size,
      });
      return { count, page: query.page, page_size: query.page_size, retention_days: retentionDays, results: rows.map(summaryView) };
    },

    async get(reader, id, audit) {
      return db.transaction(async (tx) => {
        const row = await repo.sessionOfFirm(tx, reader.clientId, id, cutoff());
        if (!row) throw notFound();
        await writeAudit(tx, audit, {
          action: 'recording.viewed',
          entity: 'recording_session',
          entityId: id,
          after: { user_id: row.userId },
        });
        const events = (await repo.eventsOf(tx, id)) as RecordedEvent[];
        return { ...summaryView(row), events };
      });
    },

    async purge() {
      return db.transaction((tx) => repo.purgeBefore(tx, cutoff()));
    },
  };
}
