/** The workspace layout a user arranged, kept in localStorage (spec §2). */
export const WORKSPACE_LAYOUT_KEY = 'dart.workspace.layout';
export const BUILD_NETWORK_PANEL = 'Build Network';

/**
 * Spec §2: a stored layout configuration that lacks the 'Build Network' panel is cleared (it was
 * written by an older workspace and would hide the network builder).
 */
export function clearStaleWorkspaceLayout(storage: Storage = window.localStorage): void {
  const stored = storage.getItem(WORKSPACE_LAYOUT_KEY);
  if (stored !== null && !stored.includes(BUILD_NETWORK_PANEL)) storage.removeItem(WORKSPACE_LAYOUT_KEY);
}
