import { useEffect, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import { hotkeys, type HotkeyDefinition, type HotkeyListing, type HotkeyRegistry } from './registry';

/**
 * Registers a shortcut while the component is mounted (and `enabled`). The latest `run` and `within`
 * are used without re-registering; a change of keys, label or scope re-registers.
 */
export function useHotkey(definition: HotkeyDefinition, enabled = true, registry: HotkeyRegistry = hotkeys): void {
  const latest = useRef(definition);
  useLayoutEffect(() => {
    latest.current = definition;
  });
  const { id, label, scope, allowInModal } = definition;
  const keys = definition.keys.join(' ');
  // A chord list compared by value: a new array each render must not re-register.
  const typingChords = Array.isArray(definition.allowInInputs) ? definition.allowInInputs.join(' ') : null;
  const allowAll = definition.allowInInputs === true;
  const runs = Boolean(definition.run);
  const scoped = Boolean(definition.within);
  const conditional = Boolean(definition.when);
  useEffect(() => {
    if (!enabled) return;
    return registry.register({
      id,
      keys: keys.split(' '),
      label,
      scope,
      ...(allowAll ? { allowInInputs: true } : typingChords ? { allowInInputs: typingChords.split(' ') } : {}),
      ...(allowInModal ? { allowInModal } : {}),
      ...(runs ? { run: (event) => latest.current.run?.(event) } : {}),
      ...(scoped ? { within: () => latest.current.within?.() ?? null } : {}),
      ...(conditional ? { when: (event) => latest.current.when?.(event) ?? true } : {}),
    });
  }, [registry, enabled, id, keys, label, scope, allowAll, typingChords, allowInModal, runs, scoped, conditional]);
}

/** The shortcuts registered now, for the cheat sheet. */
export function useHotkeyList(registry: HotkeyRegistry = hotkeys): readonly HotkeyListing[] {
  return useSyncExternalStore(registry.subscribe, registry.list, registry.list);
}
