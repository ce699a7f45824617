/**
 * The live-update WebSocket protocol of `ws/trade/d/` (spec application §7, §9): the first message
 * is `auth` with the access token; then the server streams events, each with its stream position.
 * A client that reconnects sends its last position and receives exactly what it missed, in order.
 */
import { z } from 'zod';

export const LIVE_PROTOCOL_VERSION = 1;
export const LIVE_PATH = '/ws/trade/d/';

export const LiveClientMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('auth'), token: z.string().min(1).max(4000), last_position: z.number().int().min(0).optional() }),
  z.strictObject({ type: z.literal('ping') }),
]);
export type LiveClientMessage = z.infer<typeof LiveClientMessageSchema>;

export const LiveServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth_ok'), version: z.literal(LIVE_PROTOCOL_VERSION), position: z.number() }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('event'), position: z.number(), topic: z.string(), payload: z.unknown() }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
]);
export type LiveServerMessage = z.infer<typeof LiveServerMessageSchema>;

/**
 * Close codes: 4001 not authenticated / session ended; 1008 policy (rate, size); 1001 server going away;
 * 1009 frame too big; 1013 try again later (a server dependency such as Redis or the database is down:
 * the token is fine, the client reconnects with back-off).
 */
export const LIVE_CLOSE = { unauthenticated: 4001, policyViolation: 1008, goingAway: 1001, tooBig: 1009, tryAgainLater: 1013 } as const;
/** Most events a reconnecting client gets replayed before it must reload (then it refetches). */
export const LIVE_REPLAY_LIMIT = 1000;
export const LIVE_LIMITS = { connectionsPerUser: 10, messagesPerSecond: 20, authTimeoutMs: 4000 } as const;
