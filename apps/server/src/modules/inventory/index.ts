/**
 * The inventory module's surface (issue 14, "The book"): each firm's holdings per bond and account at
 * weighted-average cost, valued on the reference price waterfall with bond-math, fed by uploads, external
 * trades and settled orders, and offered to the market through the market's own createQuote.
 */
import { INVENTORY_TOPICS } from '@dart/contracts';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { errorFields } from '../../lib/logger';
import type { MarketService } from '../market';
import type { OrdersModule } from '../orders';
import { registerInventoryRoutes } from './inventory.routes';
import { createRevaluationNotices } from './inventory.live';
import { createInventoryService, type InventoryService } from './inventory.service';

export type { InventoryService } from './inventory.service';
export { createRevaluationNotices, type RevaluationNotices } from './inventory.live';
export { warmUpInventory } from './inventory.warm-up';

declare module 'fastify' {
  interface FastifyInstance {
    /** The firm's bond book (this node's service: its books and bond figures). */
    inventory: InventoryService;
  }
}

/**
 * What a node does before it listens (app.ts, not under test): reads every held bond's figures into the node's own
 * (`inventory.bonds.ts`), so its first valuation of any firm reads only that firm's holdings, and prices and stores
 * on the way those still missing for its valuing code and today's valuation date (README "Speed" 2), so no first
 * valuation of a book on any node prices them inside a request. It matters after a deploy that changed the valuing
 * code: each new node stores its code's figures itself instead of pricing every firm's first read until the elected
 * node (maybe still an old one) runs its pass. A failure is logged and the node starts anyway (its first valuations
 * read and price what they need). Returns how many bonds it priced.
 */
export async function storeHeldOnStart(
  inventory: Pick<InventoryService, 'fillNodeBonds'>,
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): Promise<number> {
  const started = performance.now();
  try {
    const { priced, kept } = await inventory.fillNodeBonds();
    log.info({ priced, kept, ms: Math.round(performance.now() - started) }, 'inventory bond figures stored and read before listening');
    return priced;
  } catch (error) {
    log.warn(errorFields(error), 'inventory bond figures not stored before listening');
    return 0;
  }
}

/**
 * Registers the routes and, when the orders module is given, the settled-order hook: every order that settles
 * moves its firm's book inside the settlement's transaction (`InventoryService.settleOrder`).
 */
export function registerInventory(
  app: FastifyInstance,
  modules: { market: MarketService; orders?: Pick<OrdersModule, 'onOrderSettled'> },
): InventoryModule {
  const inventory = createInventoryService(app.deps, modules.market, {
    onStoreError: (error) => app.log.warn(errorFields(error), 'inventory bond figures not stored'),
  });
  registerInventoryRoutes(app, inventory);
  app.decorate('inventory', inventory);
  modules.orders?.onOrderSettled((tx, order) => inventory.settleOrder(tx, order));
  // Live re-valuation (README "Speed"): a notice that a firm's bonds were re-valued refreshes this node's copy of
  // its book at once, so the firm's pages that the same notice wakes read it ready.
  const unsubscribe = app.deps.bus.subscribe((message) => {
    if (message.topic !== INVENTORY_TOPICS.revalued || !message.clientId) return;
    inventory.refreshBook(message.clientId).catch((error: unknown) => {
      app.log.warn(errorFields(error), 'inventory book refresh failed');
    });
  });
  const notices = createRevaluationNotices(app.deps, (ids) => inventory.storeHeldValuations(ids));
  app.addHook('onClose', async () => {
    unsubscribe();
    await notices.stop();
  });
  return {
    service: inventory,
    /** The elected node's notice pass of new valuation inputs (tests call `notices.noticeOnce()` instead). */
    startRevaluationNotices: (isLeader: () => boolean) =>
      notices.start(isLeader, (error) => app.log.warn(errorFields(error), 'inventory revaluation notice failed')),
  };
}
export interface InventoryModule {
  service: InventoryService;
  startRevaluationNotices(isLeader: () => boolean): void;
}
