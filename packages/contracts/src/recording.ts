/**
 * Masked session recording (issue 16 §3; spec: "Analytics session recording masks all inputs"): the settings the
 * web reads, the recorder's start and upload calls, and the ops replay list and detail. Events are rrweb events,
 * masked in the browser before they are sent; the server stores them as they come and never reads their content.
 */
import { z } from 'zod';

export const RECORDING_LIMITS = {
  /** One upload's body (its events as JSON) is at most 1 MiB. */
  chunkMaxBytes: 1_048_576,
  /** Events in one upload. */
  chunkMaxEvents: 5_000,
  /** A recording stops growing at 20 MiB of stored events (413 after that: the recorder stops). */
  sessionMaxBytes: 20 * 1_048_576,
  /** Uploads per user per minute (the recorder sends one every few seconds, and one when the page is hidden). */
  chunksPerMinute: 60,
  /** How often the recorder sends what it has gathered. */
  flushIntervalMs: 5_000,
  /** Chunk numbers run from 0 per recording. */
  seqMax: 1_000_000,
  pageSizeDefault: 20,
  pageSizeMax: 100,
} as const;

/** Days a recording is kept by default (`SESSION_RECORDING_RETENTION_DAYS`). */
export const RECORDING_RETENTION_DAYS_DEFAULT = 30;

export const RECORDING_MESSAGES = {
  off: 'Session recording is off.',
  notFound: 'Recording not found.',
  chunkTooLarge: 'A batch of recorded events is at most 1 MB.',
  sessionFull: 'This recording has reached its size limit.',
  events: 'Send between 1 and 5000 recorded events.',
  event: 'Each recorded event needs a numeric type and timestamp.',
  replayEmpty: 'This recording has no events yet.',
} as const;

/** GET api/recording/settings/: whether the web should record, and how. */
export const RecordingSettingsSchema = z.object({
  enabled: z.boolean(),
  flush_interval_ms: z.number().int(),
  chunk_max_bytes: z.number().int(),
  chunk_max_events: z.number().int(),
});
export type RecordingSettings = z.infer<typeof RecordingSettingsSchema>;

/** POST api/recording/sessions/: the body is empty (`{}`); the user, firm and browser come from the request. */
export const RecordingSessionCreateSchema = z.strictObject({});
export const RecordingSessionCreatedSchema = z.object({ id: z.uuid(), started_at: z.iso.datetime({ offset: true }) });
export type RecordingSessionCreated = z.infer<typeof RecordingSessionCreatedSchema>;

export const RecordingIdParamsSchema = z.strictObject({ id: z.uuid({ error: RECORDING_MESSAGES.notFound }) });

/** One rrweb event: opaque to the server beyond its type and time (its content is masked in the browser). */
export const RecordedEventSchema = z.looseObject({
  type: z.number({ error: RECORDING_MESSAGES.event }).int().min(0).max(100),
  timestamp: z.number({ error: RECORDING_MESSAGES.event }).finite().min(0),
});
export type RecordedEvent = z.infer<typeof RecordedEventSchema>;

/** POST api/recording/sessions/{id}/events/: a batch numbered `seq` (a retried batch with a known seq is not stored twice). */
export const RecordingChunkSchema = z.strictObject({
  seq: z.number().int().min(0).max(RECORDING_LIMITS.seqMax),
  events: z
    .array(RecordedEventSchema)
    .min(1, { error: RECORDING_MESSAGES.events })
    .max(RECORDING_LIMITS.chunkMaxEvents, { error: RECORDING_MESSAGES.events }),
});
export type RecordingChunk = z.infer<typeof RecordingChunkSchema>;
export const RecordingChunkResultSchema = z.object({ seq: z.number().int(), stored: z.boolean() });

export const RecordingListQuerySchema = z.strictObject({
  user_id: z.uuid().optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(RECORDING_LIMITS.pageSizeMax).default(RECORDING_LIMITS.pageSizeDefault),
});
export type RecordingListQuery = z.infer<typeof RecordingListQuerySchema>;

export const RecordingSummarySchema = z.object({
  id: z.uuid(),
  user_id: z.uuid(),
  user_email: z.string(),
  user_name: z.string(),
  user_agent: z.string().nullable(),
  started_at: z.string(),
  last_event_at: z.string().nullable(),
  chunk_count: z.number().int(),
  event_count: z.number().int(),
  bytes: z.number().int(),
});
export type RecordingSummary = z.infer<typeof RecordingSummarySchema>;

export const RecordingListSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  retention_days: z.number().int(),
  results: z.array(RecordingSummarySchema),
});
export type RecordingList = z.infer<typeof RecordingListSchema>;

/** One recording with every stored event in order, for the replay page. */
export const RecordingDetailSchema = RecordingSummarySchema.extend({ events: z.array(RecordedEventSchema) });
export type RecordingDetail = z.infer<typeof RecordingDetailSchema>;
