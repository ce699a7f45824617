import { describe, expect, it } from 'vitest';
import { clearStaleWorkspaceLayout, WORKSPACE_LAYOUT_KEY } from './stored-layout';

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

describe('stored workspace layout (spec §2)', () => {
  it("clears a stored layout that lacks the 'Build Network' panel", () => {
    const storage = memoryStorage({ [WORKSPACE_LAYOUT_KEY]: JSON.stringify({ panels: ['Chat'] }) });
    clearStaleWorkspaceLayout(storage);
    expect(storage.getItem(WORKSPACE_LAYOUT_KEY)).toBeNull();
  });

  it("keeps a stored layout that has the 'Build Network' panel", () => {
    const layout = JSON.stringify({ panels: ['Build Network', 'Chat'] });
    const storage = memoryStorage({ [WORKSPACE_LAYOUT_KEY]: layout });
    clearStaleWorkspaceLayout(storage);
    expect(storage.getItem(WORKSPACE_LAYOUT_KEY)).toBe(layout);
  });
});
