/**
 * Keeps the open book current: `inventory.revalued` (the valuation inputs of bonds the firm holds changed: a new
 * reference price or a bond's terms, server modules/inventory/README.md "Speed") refetches every inventory query,
 * so the grid, the totals and the breakdowns show the re-valued book without a reload (gathered, and on reconnect:
 * `useLiveRefetch`).
 */
import { INVENTORY_TOPICS } from '@dart/contracts';
import { useLiveRefetch } from '../../../lib/live';
import { INVENTORY_KEY } from '../api/get-inventory';

const TOPICS: readonly string[] = [INVENTORY_TOPICS.revalued];

export function useInventoryLiveUpdates(): void {
  useLiveRefetch(TOPICS, INVENTORY_KEY);
}
