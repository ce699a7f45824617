/**
 * A module's say over one kind of event on its way to each socket of `ws/trade/d/` (modules/live). The notification
 * centre fans out on read: one `notify.created` event per source event and audience (a firm's trading users), which
 * each node's gateway turns into each concerned user's copy (their unread count, silent or not) and withholds from
 * the rest of the firm. The gateway calls it after its own tenant, user and duplicate checks, once per position sent.
 */
import type { SQL } from 'drizzle-orm';
import type { BusMessage } from './bus';

/** Who the socket belongs to (a signed-in principal). */
export interface LiveReader {
  userId: string;
  clientId: string;
  permissions: readonly string[];
}

/** This socket's copy of an event's payload, or undefined when the event is not for this user. */
export type LivePersonaliser = (message: BusMessage) => unknown;

export interface LiveAudience {
  /** The topics it decides; others go to every socket of the tenant unchanged. */
  topics: readonly string[];
  /**
   * What the audience needs to know of a socket before its replay, as ONE scalar SQL expression (a `json` value) that
   * the gateway reads in the socket's start statement together with the latest position and the first replay page: a
   * reconnect storm then costs one statement per socket, not one per audience more. `from` is the socket's resume
   * point as an SQL expression (positions at or below it are not sent).
   */
  start(reader: LiveReader, from: SQL): SQL;
  /**
   * The socket's personaliser, given what `start` read (parsed JSON). The returned function may keep per-socket state
   * (it sees each position of its topics at most once, in delivery order).
   */
  open(reader: LiveReader, start: unknown): LivePersonaliser;
}
