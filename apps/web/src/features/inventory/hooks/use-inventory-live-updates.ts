/**
 * Keeps the open book current: `inventory.revalued` (the valuation inputs of bonds the firm holds changed: a new
 * reference price or a bond's terms, server modules/inventory/README.md "Speed") refetches every inventory query,
 * so the grid, the totals and the breakdowns show the re-valued book without a reload. Notices of one change come
 * together, so they are gathered for a moment and the book loads once; a reconnect after being offline refetches
 * too (a notice may have been missed).
 */
import { INVENTORY_TOPICS } from '@dart/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLiveEvents } from '../../../lib/live';
import { INVENTORY_KEY } from '../api/get-inventory';

const GATHER_MS = 250;

export function useInventoryLiveUpdates(): void {
  const queryClient = useQueryClient();
  const timer = useRef<number | null>(null);
  const refresh = () => {
    if (timer.current !== null) return;
    timer.current = window.setTimeout(() => {
      timer.current = null;
      // A load on its way may predate the re-valuation: this one replaces it.
      void queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
    }, GATHER_MS);
  };
  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );
  useLiveEvents((event) => {
    if (event.topic === INVENTORY_TOPICS.revalued) refresh();
  }, refresh);
}
