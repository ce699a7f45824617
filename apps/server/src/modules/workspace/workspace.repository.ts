/** SQL of the workspace module: one saved layout per user (table workspace_layouts, migration 0014). */
import type { WorkspaceLayoutDocument } from '@dart/contracts';
import { eq, sql } from 'drizzle-orm';
import { workspaceLayouts } from '../../db/schema';
import type { AppDeps } from '../../types';

type Db = AppDeps['database']['db'];
/** A transaction handle, or the database itself. */
export type Executor = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export interface StoredLayout {
  layout: WorkspaceLayoutDocument;
  version: number;
  updatedAt: Date;
}

export function createWorkspaceRepository(db: Db) {
  return {
    async find(userId: string, executor: Executor = db): Promise<StoredLayout | null> {
      const [row] = await executor
        .select({ layout: workspaceLayouts.layout, version: workspaceLayouts.version, updatedAt: workspaceLayouts.updatedAt })
        .from(workspaceLayouts)
        .where(eq(workspaceLayouts.userId, userId));
      return row ?? null;
    },

    /** Insert or replace the user's layout; the version counts saves (two nodes saving at once each get their own number). */
    async save(userId: string, layout: WorkspaceLayoutDocument, now: Date, executor: Executor = db): Promise<StoredLayout> {
      const [row] = await executor
        .insert(workspaceLayouts)
        .values({ userId, layout, version: 1, updatedAt: now })
        .onConflictDoUpdate({
          target: workspaceLayouts.userId,
          set: { layout, version: sql`${workspaceLayouts.version} + 1`, updatedAt: now },
        })
        .returning({ layout: workspaceLayouts.layout, version: workspaceLayouts.version, updatedAt: workspaceLayouts.updatedAt });
      return row!;
    },
  };
}
export type WorkspaceRepository = ReturnType<typeof createWorkspaceRepository>;
