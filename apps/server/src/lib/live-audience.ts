/**
 * A module's say over one kind of event on its way to each socket of `ws/trade/d/` (modules/live). The notification
 * centre fans out on read: one `notify.created` event per source event and audience (a firm's trading users), which
 * each node's gateway turns into each concerned user's copy (their unread count, silent or not) and withholds from
 * the rest of the firm. The gateway calls it after its own tenant, user and duplicate checks, once per position sent.
 */
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
   * Per socket, before its replay: `from` is its resume point (positions at or below it are not sent). The returned
   * function may keep per-socket state (it sees each position of its topics at most once, in delivery order).
   */
  open(reader: LiveReader, from: number): Promise<LivePersonaliser>;
}
