/**
 * The workspace layout a user arranged, kept in localStorage per user (spec §2 "locally stored
 * layout configuration") beside the server's copy (api/workspace-layout.ts).
 */
import { BUILD_NETWORK_PANEL_TITLE, WorkspaceLayoutDocumentSchema, type WorkspaceLayoutDocument } from '@dart/contracts';

/** The key prefix; each user's layout is under `dart.workspace.layout.<user id>`. */
export const WORKSPACE_LAYOUT_KEY = 'dart.workspace.layout';
export const BUILD_NETWORK_PANEL = BUILD_NETWORK_PANEL_TITLE;

export const workspaceLayoutKey = (userId: string): string => `${WORKSPACE_LAYOUT_KEY}.${userId}`;

/** What the browser keeps: the layout, the server version it was last in step with, and whether it has changes the server lacks. */
export interface StoredLayout {
  layout: WorkspaceLayoutDocument;
  /** The server's version this copy was saved as or read from (0: never). */
  version: number;
  /** Changed here since the last save reached the server. */
  dirty: boolean;
}

/**
 * Spec §2: a stored layout configuration that lacks the 'Build Network' panel is cleared (it was
 * written by an older workspace and would hide the network builder). Checks the old unscoped key
 * and, given one, the user's own.
 */
export function clearStaleWorkspaceLayout(storage: Storage = window.localStorage, userId?: string): void {
  for (const key of userId ? [WORKSPACE_LAYOUT_KEY, workspaceLayoutKey(userId)] : [WORKSPACE_LAYOUT_KEY]) {
    const stored = storage.getItem(key);
    if (stored !== null && !stored.includes(BUILD_NETWORK_PANEL)) storage.removeItem(key);
  }
}

/** The user's stored layout, or null (none, unreadable, or not a layout this workspace understands). */
export function readStoredLayout(userId: string, storage: Storage = window.localStorage): StoredLayout | null {
  clearStaleWorkspaceLayout(storage, userId);
  const raw = storage.getItem(workspaceLayoutKey(userId));
  if (raw === null) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<StoredLayout>;
    const layout = WorkspaceLayoutDocumentSchema.safeParse(parsed.layout);
    if (!layout.success) throw new Error('not a layout');
    return { layout: layout.data, version: typeof parsed.version === 'number' ? parsed.version : 0, dirty: parsed.dirty === true };
  } catch {
    storage.removeItem(workspaceLayoutKey(userId));
    return null;
  }
}

export function writeStoredLayout(userId: string, stored: StoredLayout, storage: Storage = window.localStorage): void {
  try {
    storage.setItem(workspaceLayoutKey(userId), JSON.stringify(stored));
  } catch {
    // A full or blocked storage only loses the local copy; the server keeps the layout.
  }
}

export function removeStoredLayout(userId: string, storage: Storage = window.localStorage): void {
  storage.removeItem(workspaceLayoutKey(userId));
}

/**
 * Which copy wins when the workspace opens: local changes the server has not seen are pushed; a
 * server version newer than the local copy (saved on another machine) replaces it.
 */
export function chooseLayout(
  local: StoredLayout | null,
  server: { layout: WorkspaceLayoutDocument | null; version: number } | undefined,
): { layout: WorkspaceLayoutDocument | null; source: 'local' | 'server' | 'default'; push: boolean } {
  if (local?.dirty) return { layout: local.layout, source: 'local', push: true };
  if (server?.layout && server.version > (local?.version ?? 0)) return { layout: server.layout, source: 'server', push: false };
  if (local) return { layout: local.layout, source: 'local', push: false };
  return { layout: null, source: 'default', push: false };
}
