/**
 * The inventory module's surface (issue 14, "The book"): each firm's holdings per bond and account at
 * weighted-average cost, valued on the reference price waterfall with bond-math, fed by uploads, external
 * trades and settled orders, and offered to the market through the market's own createQuote.
 */
import type { FastifyInstance } from 'fastify';
import type { MarketService } from '../market';
import type { OrdersModule } from '../orders';
import { registerInventoryRoutes } from './inventory.routes';
import { createInventoryService, type InventoryService } from './inventory.service';

export type { InventoryService } from './inventory.service';

/**
 * Registers the routes and, when the orders module is given, the settled-order hook: every order that settles
 * moves its firm's book inside the settlement's transaction (`InventoryService.settleOrder`).
 */
export function registerInventory(
  app: FastifyInstance,
  modules: { market: MarketService; orders?: Pick<OrdersModule, 'onOrderSettled'> },
): InventoryService {
  const inventory = createInventoryService(app.deps, modules.market);
  registerInventoryRoutes(app, inventory);
  modules.orders?.onOrderSettled((tx, order) => inventory.settleOrder(tx, order));
  return inventory;
}
