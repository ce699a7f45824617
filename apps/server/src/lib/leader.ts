/**
 * One elected node for background jobs that must not run on every node at once (the exchange
 * report/settlement job and the simulated participants): leadership is a PostgreSQL advisory lock
 * held on a connection of its own (`Database.holdLock`). A node that loses the connection loses the
 * lock with it, and another node takes over on its next attempt (within `retryMs`). The embedded
 * database has one node, which is always the leader.
 */
import type { Logger } from 'pino';
import type { Database, HeldLock } from '../db/client';

export interface Leadership {
  /** True while this node holds the lock; jobs check it on every tick. */
  isLeader(): boolean;
  /** Settles after the first attempt (taken or not). */
  readonly ready: Promise<void>;
  /** Gives the lock up (another node takes over) and stops trying. */
  stop(): Promise<void>;
}

export function electLeader(database: Database, name: string, options: { retryMs?: number; logger?: Logger } = {}): Leadership {
  const retryMs = options.retryMs ?? 5_000;
  let held: HeldLock | null = null;
  let stopped = false;
  let attempt: Promise<void> = Promise.resolve();

  async function step(): Promise<void> {
    if (stopped) return;
    if (held) {
      if (await held.check()) return;
      held = null;
      options.logger?.warn({ lock: name }, 'job leadership lost');
      return;
    }
    try {
      const taken = await database.holdLock(name);
      if (!taken) return;
      if (stopped) {
        await taken.release();
        return;
      }
      held = taken;
      options.logger?.info({ lock: name }, 'job leadership taken');
    } catch {
      // The database is unreachable: not the leader; asked again on the next attempt.
    }
  }

  const run = () => {
    attempt = attempt.then(step);
    return attempt;
  };
  const ready = run();
  const timer = setInterval(() => void run(), retryMs);
  timer.unref();

  return {
    isLeader: () => held !== null && !stopped,
    ready,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await attempt;
      const lock = held;
      held = null;
      await lock?.release();
    },
  };
}
