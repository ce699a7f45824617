/**
 * What the orders module's parts share: the database, the venue (ExchangeGateway), the bond pricing it needs
 * for a modify, and `change`, the one way to write: a transaction whose live events go to the outbox in it and
 * out on the bus after commit (and, for a user's submit, its Idempotency-Key marked applied in it).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Tx } from '../../db/client';
import type { BusMessage } from '../../lib/bus';
import { appendEvents, publishAll, type DomainEvent } from '../../lib/events';
import { fenceIdempotency } from '../../plugins/idempotency';
import type { AppDeps } from '../../types';
import type { ExchangeGateway } from '../exchange';
import type { FinstrumentsService } from '../finstruments';
import type { OrderRow } from './orders.repository';
import type { Emit } from './orders.transitions';

/**
 * Awaited inside the settlement's transaction for every order that becomes `settled` (the inventory module moves
 * the firm's book with it); a hook that throws rolls the settlement back, so it is asked again on the next pass.
 */
export type OrderSettledHook = (tx: Tx, order: OrderRow) => Promise<void>;

export interface OrdersContext {
  deps: AppDeps;
  log: Pick<FastifyBaseLogger, 'warn'>;
  gateway: ExchangeGateway;
  finstruments: Pick<FinstrumentsService, 'price'>;
  /** The hooks `markSettlement` awaits for each order it settles (`OrdersModule.onOrderSettled`). */
  settledHooks: Set<OrderSettledHook>;
  /** One transaction; `fence`: a user's submit (its Idempotency-Key is marked applied in the same transaction). */
  change<T>(fn: (tx: Tx, emit: Emit) => Promise<T>, options?: { fence?: boolean }): Promise<T>;
}

export function createOrdersContext(
  deps: AppDeps,
  log: Pick<FastifyBaseLogger, 'warn'>,
  gateway: ExchangeGateway,
  finstruments: Pick<FinstrumentsService, 'price'>,
): OrdersContext {
  return {
    deps,
    log,
    gateway,
    finstruments,
    settledHooks: new Set(),
    async change(fn, options = {}) {
      let messages: BusMessage[] = [];
      const result = await deps.database.db.transaction(async (tx) => {
        const pending: DomainEvent[] = [];
        const value = await fn(tx, (event) => pending.push(event));
        if (options.fence) await fenceIdempotency(tx);
        messages = await appendEvents(tx, pending);
        return value;
      });
      await publishAll(deps.bus, messages);
      return result;
    },
  };
}
