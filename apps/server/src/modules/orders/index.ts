/**
 * The orders module's surface (issue 13): orders and procurement orders of confirmed tickets, their report to
 * the exchange's trade reporting platform and their DVP-I settlement, through the ExchangeGateway. The tickets
 * module books them with `createOrdersForTicket` in the confirming transaction; everything after is here.
 */
import type { FastifyInstance } from 'fastify';
import type { ExchangeGateway } from '../exchange';
import type { FinstrumentsService } from '../finstruments';
import { createOrdersContext, type OrderSettledHook } from './orders.context';
import { createOrderReporter, type OrderReporter } from './orders.reporting';
import { registerOrdersRoutes } from './orders.routes';
import { createOrdersService, type OrdersService } from './orders.service';
import { createSettlementJob, type SettlementJob } from './orders.settlement';

export { createOrdersForTicket, istDate, type OrderRow } from './orders.booking';
export { backoffMs, REPORTER, sideReportOf } from './orders.reporting';
export { RFQ_REPORT } from './orders.rfq';
export type { OrderReporter } from './orders.reporting';
export type { OrdersService } from './orders.service';
export type { OrderSettledHook } from './orders.context';
export type { SettlementJob } from './orders.settlement';

export interface OrdersModule {
  service: OrdersService;
  reporter: OrderReporter;
  settlement: SettlementJob;
  /**
   * Adds a hook awaited inside the settlement's transaction for every order that settles (the inventory module
   * moves the firm's book); returns the removal.
   */
  onOrderSettled(hook: OrderSettledHook): () => void;
  /** One pass of both jobs (tests): report what is due, then poll settlement. */
  tick(now?: Date): Promise<void>;
  /** Starts the reporter and the settlement job on whichever node `isLeader` says is the elected one. */
  startJobs(isLeader: () => boolean): void;
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Orders and procurement orders: the service, the reporter and the settlement job (tests drive `tick`). */
    orders: OrdersModule;
  }
}

export function registerOrders(
  app: FastifyInstance,
  options: { gateway: ExchangeGateway; finstruments: Pick<FinstrumentsService, 'price'> },
): OrdersModule {
  const ctx = createOrdersContext(app.deps, app.log, options.gateway, options.finstruments);
  const reporter = createOrderReporter(ctx);
  const settlement = createSettlementJob(ctx);
  const service = createOrdersService(ctx, reporter);
  registerOrdersRoutes(app, service);
  const module: OrdersModule = {
    service,
    reporter,
    settlement,
    onOrderSettled(hook) {
      ctx.settledHooks.add(hook);
      return () => ctx.settledHooks.delete(hook);
    },
    async tick(now) {
      await reporter.tick(now);
      await settlement.tick();
    },
    startJobs(isLeader) {
      reporter.startJobs(isLeader);
      settlement.startJobs(isLeader);
    },
    async stop() {
      await reporter.stop();
      await settlement.stop();
    },
  };
  app.decorate('orders', module);
  return module;
}
