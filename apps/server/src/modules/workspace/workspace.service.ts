/** The workspace module's logic: a user's saved /dart layout, read and replaced by that user only. */
import type { WorkspaceLayout, WorkspaceLayoutDocument } from '@dart/contracts';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import { createWorkspaceRepository, type StoredLayout } from './workspace.repository';

function toWire(stored: StoredLayout | null): WorkspaceLayout {
  return stored
    ? { layout: stored.layout, version: stored.version, updated_at: stored.updatedAt.toISOString() }
    : { layout: null, version: 0, updated_at: null };
}

export function createWorkspaceService(deps: Pick<AppDeps, 'database' | 'now'>) {
  const db = deps.database.db;
  const repository = createWorkspaceRepository(db);
  return {
    /** The caller's own layout: there is no way to name another user's. */
    async layout(principal: Principal): Promise<WorkspaceLayout> {
      return toWire(await repository.find(principal.userId));
    },

    /** Replaces the caller's layout in one transaction (the body is already checked against the contract and its size limit). */
    async saveLayout(principal: Principal, layout: WorkspaceLayoutDocument): Promise<WorkspaceLayout> {
      return toWire(await db.transaction((tx) => repository.save(principal.userId, layout, deps.now(), tx)));
    },
  };
}
export type WorkspaceService = ReturnType<typeof createWorkspaceService>;
