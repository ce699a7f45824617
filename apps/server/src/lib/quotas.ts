/**
 * Daily business quotas (RELIABILITY #34; limits and words in packages/contracts/src/quotas.ts).
 * Usage lives in `usage_quotas`, one row per scope × subject × action × IST day, so every node of a
 * cluster counts the same and a restart forgets nothing. `charge` adds inside the caller's
 * transaction with a conditional upsert, so a refused charge, or an action that fails after it,
 * uses no quota; `check` refuses early, before side effects outside the database (an exchange call).
 */
import { quotaExceededMessage, type QuotaAction, type QuotaKey, type QuotaScope } from '@dart/contracts';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { AppError } from './errors';

export interface QuotaCharge {
  action: QuotaAction;
  scope: QuotaScope;
  subjectId: string;
  /** Defaults to 1 (a bulk upload charges its row count at once). */
  amount?: number;
}

const IST_OFFSET_MS = 330 * 60_000;

/** The IST calendar day of `at` (YYYY-MM-DD) and the seconds left until its midnight. */
export function istDay(at: Date): { day: string; secondsLeft: number } {
  const shifted = new Date(at.getTime() + IST_OFFSET_MS);
  const day = shifted.toISOString().slice(0, 10);
  const nextMidnight = Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth(), shifted.getUTCDate() + 1) - IST_OFFSET_MS;
  return { day, secondsLeft: Math.max(1, Math.ceil((nextMidnight - at.getTime()) / 1000)) };
}

const rowsOf = (result: unknown) => ((result as { rows?: unknown[] }).rows ?? (result as unknown[])) as Array<Record<string, unknown>>;

export function createQuotas(limits: Partial<Record<QuotaKey, number>>, now: () => Date) {
  const limitOf = (c: QuotaCharge) => limits[`${c.action}.${c.scope}`];
  const exceeded = (c: QuotaCharge, limit: number, secondsLeft: number) =>
    new AppError('RATE_LIMITED', quotaExceededMessage(c.action, c.scope, limit), undefined, { 'retry-after': String(secondsLeft) });

  return {
    /** Throws 429 when a charge would not fit in what is left today; writes nothing. */
    async check(db: DbOrTx, charges: readonly QuotaCharge[]): Promise<void> {
      const { day, secondsLeft } = istDay(now());
      for (const c of charges) {
        const limit = limitOf(c);
        if (limit === undefined) continue;
        const rows = rowsOf(
          await db.execute(
            sql`SELECT used FROM usage_quotas WHERE scope = ${c.scope} AND subject_id = ${c.subjectId}::uuid AND action = ${c.action} AND day = ${day}::date`,
          ),
        );
        if (Number(rows[0]?.used ?? 0) + (c.amount ?? 1) > limit) throw exceeded(c, limit, secondsLeft);
      }
    },
    /**
     * Adds each charge within `tx`, or throws 429 (the caller's transaction then rolls back, so
     * nothing is used). Concurrent charges on one row serialise on its row lock.
     */
    async charge(tx: DbOrTx, charges: readonly QuotaCharge[]): Promise<void> {
      const { day, secondsLeft } = istDay(now());
      for (const c of charges) {
        const limit = limitOf(c);
        if (limit === undefined) continue;
        const amount = c.amount ?? 1;
        if (amount > limit) throw exceeded(c, limit, secondsLeft);
        const rows = rowsOf(
          await tx.execute(
            sql`INSERT INTO usage_quotas (scope, subject_id, action, day, used)
                VALUES (${c.scope}, ${c.subjectId}::uuid, ${c.action}, ${day}::date, ${amount})
                ON CONFLICT (scope, subject_id, action, day)
                DO UPDATE SET used = usage_quotas.used + EXCLUDED.used
                WHERE usage_quotas.used + EXCLUDED.used <= ${limit}
                RETURNING used`,
          ),
        );
        if (rows.length === 0) throw exceeded(c, limit, secondsLeft);
      }
    },
    /** Today's usage of one action by one subject (tests, support). */
    async used(db: DbOrTx, scope: QuotaScope, subjectId: string, action: QuotaAction): Promise<number> {
      const { day } = istDay(now());
      const rows = rowsOf(
        await db.execute(
          sql`SELECT used FROM usage_quotas WHERE scope = ${scope} AND subject_id = ${subjectId}::uuid AND action = ${action} AND day = ${day}::date`,
        ),
      );
      return Number(rows[0]?.used ?? 0);
    },
  };
}
export type Quotas = ReturnType<typeof createQuotas>;
