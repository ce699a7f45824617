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
import { formatDate, valuationDates } from './inventory.valuation';

/** The notice pass's cursor in `event_cursors`: the last valuation inputs' version noticed. */
const CURSOR = 'inventory-valuation-inputs';
/** How often the elected node looks for new valuation inputs (one key read when nothing changed). */
export const REVALUATION_NOTICE_MS = 100;

/**
 * `storeFigures`: the elected node's pass over stored bond figures (migration 0032; the service's
 * `storeHeldValuations`): after a change of valuation inputs for the changed bonds, and once per valuation date
 * for every held bond, so the next node's first valuation of a book reads them.
 */
export function createRevaluationNotices(
  deps: Pick<AppDeps, 'database' | 'bus' | 'now'>,
  storeFigures: (ids: readonly number[] | 'all') => Promise<unknown> = async () => 0,
) {
  const { db } = deps.database;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  /** The inputs' version this node last passed over: a tick reads only the version until it moves. */
  let seen = -1;
  /** The valuation date whose figures this node, elected, last stored for every held bond. */
  let storedFor = '';

  /** One pass: events for the firms whose bonds' inputs changed since the cursor. Returns how many were sent. */
  async function noticeOnce(): Promise<number> {
    let changed: readonly number[] | 'all' = [];
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
      changed = changes.complete ? changes.finstrumentIds : 'all';
      const firms = await repo.firmsHolding(changed);
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
    // After the push: the changed bonds' figures stored for the next node (this node's pages do not wait for it).
    // (Assigned inside the transaction's callback, which the compiler's narrowing does not follow.)
    const stored = changed as readonly number[] | 'all';
    if (stored === 'all' || stored.length > 0) await storeFigures(stored);
    return messages.length;
  }

  /**
   * A timer's tick: the pass only when the inputs' version moved since the last one this node made; then, once per
   * valuation date (the first tick after IST midnight, and on a new elected node), every held bond's figures. The
   * notices go first, so a failing store never holds them up; a store is tried once per date (a node stores what
   * it has to price anyway).
   */
  async function tick(): Promise<number> {
    let sent = 0;
    const version = await createInventoryRepository(db).inputsVersion();
    if (version !== seen) {
      sent = await noticeOnce();
      seen = version;
    }
    const valuationDate = formatDate(valuationDates(deps.now()).settlement);
    if (storedFor !== valuationDate) {
      storedFor = valuationDate;
      await storeFigures('all');
    }
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
