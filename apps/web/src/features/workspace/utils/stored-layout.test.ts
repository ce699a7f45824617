import { WORKSPACE_PANELS, type WorkspaceLayoutDocument } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import {
  chooseLayout,
  clearStaleWorkspaceLayout,
  readStoredLayout,
  WORKSPACE_LAYOUT_KEY,
  workspaceLayoutKey,
  writeStoredLayout,
} from './stored-layout';

function memoryStorage(initial: Record<string, string>): Storage {
  const data = new Map(Object.entries(initial));
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (index) => [...data.keys()][index] ?? null,
    removeItem: (key) => void data.delete(key),
    setItem: (key, value) => void data.set(key, value),
  };
}

const layout = (ids: string[]): WorkspaceLayoutDocument =>
  ({
    panels: WORKSPACE_PANELS.map((panel) => panel.title),
    dock: {
      grid: { root: { type: 'branch', data: [] }, width: 800, height: 600, orientation: 'HORIZONTAL' },
      panels: Object.fromEntries(ids.map((id) => [id, { id, contentComponent: id }])),
    },
  }) as WorkspaceLayoutDocument;

describe('stored workspace layout (spec §2)', () => {
  it("clears a stored layout that lacks the 'Build Network' panel", () => {
    const storage = memoryStorage({ [WORKSPACE_LAYOUT_KEY]: JSON.stringify({ panels: ['Chat'] }) });
    clearStaleWorkspaceLayout(storage);
    expect(storage.getItem(WORKSPACE_LAYOUT_KEY)).toBeNull();
  });

  it("keeps a stored layout that has the 'Build Network' panel", () => {
    const stored = JSON.stringify({ panels: ['Build Network', 'Chat'] });
    const storage = memoryStorage({ [WORKSPACE_LAYOUT_KEY]: stored });
    clearStaleWorkspaceLayout(storage);
    expect(storage.getItem(WORKSPACE_LAYOUT_KEY)).toBe(stored);
  });

  it("clears the user's own stored layout when it lacks 'Build Network', and reads none", () => {
    const storage = memoryStorage({ [workspaceLayoutKey('u1')]: JSON.stringify({ layout: { panels: ['Chat'] }, version: 3 }) });
    expect(readStoredLayout('u1', storage)).toBeNull();
    expect(storage.getItem(workspaceLayoutKey('u1'))).toBeNull();
  });

  it('keeps a layout whose user closed the Build Network panel (the panel list still names it)', () => {
    const storage = memoryStorage({});
    writeStoredLayout('u1', { layout: layout(['chat']), version: 2, dirty: false }, storage);
    expect(readStoredLayout('u1', storage)?.layout.dock.panels).toHaveProperty('chat');
    expect(readStoredLayout('u2', storage)).toBeNull();
  });

  it('drops an unreadable stored layout', () => {
    const storage = memoryStorage({ [workspaceLayoutKey('u1')]: '{"Build Network": ' });
    expect(readStoredLayout('u1', storage)).toBeNull();
    expect(storage.getItem(workspaceLayoutKey('u1'))).toBeNull();
  });
});

describe('choosing the local or the server layout', () => {
  const local = layout(['chat']);
  const server = layout(['public-runs']);
  it('takes a newer server layout (saved on another machine)', () => {
    expect(chooseLayout({ layout: local, version: 1, dirty: false }, { layout: server, version: 2 })).toEqual({
      layout: server,
      source: 'server',
      push: false,
    });
    expect(chooseLayout(null, { layout: server, version: 1 }).source).toBe('server');
  });
  it('pushes local changes the server has not seen', () => {
    expect(chooseLayout({ layout: local, version: 1, dirty: true }, { layout: server, version: 2 })).toEqual({
      layout: local,
      source: 'local',
      push: true,
    });
  });
  it('keeps the local copy when the server has nothing newer, and the default when neither has one', () => {
    expect(chooseLayout({ layout: local, version: 2, dirty: false }, { layout: server, version: 2 }).source).toBe('local');
    expect(chooseLayout(null, { layout: null, version: 0 })).toEqual({ layout: null, source: 'default', push: false });
  });
});
