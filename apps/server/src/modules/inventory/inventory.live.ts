/**
 * Live re-valuation (README "Speed"): the run-time path of a new reference price. Whoever writes one (the bond
 * import, a close, a reported trade, or a bond's terms changing) raises the valuation inputs' version through the
 * triggers of migration 0031, in its own transaction. On the elected node a notice pass reads the change log
 * after its cursor, finds the firms holding the changed bonds, and appends one `inventory.revalued` event per
 * firm (the outbox: a position, replayed to a socket that reconnects) with the cursor's move in one transaction;
 * after commit the bus fans them out. Every node that keeps one of those firms' books refreshes it at once (only
 * the changed bonds), and the firm's open `/inventory` pages read the re-valued book. Nothing depends on the
 * notice for correctness: every read checks the inputs' version itself.
 */
import { INVENTORY_TOPICS, type InventoryRevalued } from '@dart/contracts';
import { eq, sql } from 'drizzle-orm';
import { eventCursors, valuationInputVersions } from '../../db/schema';
import { appendEvents, publishAll } from '../../lib/events';
import type { AppDeps } from '../../types';
import { createInventoryRepository } from './inventory.repository';

/** The notice pass's cursor in `event_cursors`: the last valuation inputs' version noticed. */
const CURSOR = 'inventory-valuation-inputs';
/** How often the elected node looks for new valuation inputs (one key read when nothing changed). */
export const REVALUATION_NOTICE_MS = 100;

export function createRevaluationNotices(deps: Pick<AppDeps, 'database' | 'bus' | 'now'>) {
  const { db } = deps.database;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  /** The inputs' version this node last passed over: a tick reads only the version until it moves. */
  let seen = -1;

  /** One pass: events for the firms whose bonds' inputs changed since the cursor. Returns how many were sent. */
  async function noticeOnce(): Promise<number> {
    const messages = await db.transaction(async (tx) => {
      const repo = createInventoryRepository(tx);
      // A new cursor starts at the present: changes before it were valued by the reads that followed them.
      await tx
        .insert(eventCursors)
        .values({ name: CURSOR, position: sql`(SELECT ${valuationInputVersions.version} FROM ${valuationInputVersions} WHERE id = 1)` })
        .onConflictDoNothing();
      const [cursor] = await tx
        .select({ position: eventCursors.position })
        .from(eventCursors)
        .where(eq(eventCursors.name, CURSOR))
        .for('update');
      const from = cursor?.position ?? 0;
      const to = await repo.inputsVersion();
      if (to <= from) return [];
      const changes = await repo.inputChangesSince(from);
      const firms = await repo.firmsHolding(changes.complete ? changes.finstrumentIds : 'all');
      const sent = await appendEvents(
        tx,
        firms.map(({ clientId, bonds }) => ({
          topic: INVENTORY_TOPICS.revalued,
          clientId,
          payload: { inputs_version: to, bonds } satisfies InventoryRevalued,
        })),
      );
      await tx.update(eventCursors).set({ position: to, updatedAt: deps.now() }).where(eq(eventCursors.name, CURSOR));
      return sent;
    });
    await publishAll(deps.bus, messages);
    return messages.length;
  }

  /** A timer's tick: the pass only when the inputs' version moved since the last one this node made. */
  async function tick(): Promise<number> {
    const version = await createInventoryRepository(db).inputsVersion();
    if (version === seen) return 0;
    const sent = await noticeOnce();
    seen = version;
    return sent;
  }

  return {
    noticeOnce,
    /** Runs a pass every `intervalMs` while `isLeader()` (one pass at a time); errors wait for the next tick. */
    start(isLeader: () => boolean, onError: (error: unknown) => void, intervalMs = REVALUATION_NOTICE_MS) {
      timer = setInterval(() => {
        if (running || !isLeader()) return;
        running = tick()
          .catch((error: unknown) => {
            onError(error);
            return 0;
          })
          .finally(() => {
            running = undefined;
          });
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
export type RevaluationNotices = ReturnType<typeof createRevaluationNotices>;
