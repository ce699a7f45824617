/**
 * The settlement job: polls the clearing corporation (NSCCL / ICCL, through the ExchangeGateway) for every
 * reported trade not yet settled, and applies its outcome to both orders and the ticket in one transaction:
 * settled → orders `settled`, ticket `settled`; failed → orders `failed` with the reason (shortage of funds or
 * securities), ticket `failed`; cancelled at the venue → orders and ticket cancelled. The venue runs each pay-in
 * once (under its row lock), and the orders move only from the states that await the outcome, so a restart
 * mid-settlement, a second node or a repeated poll never settles twice. Each exchange's unsettled trades are asked
 * for in one query; a venue that does not answer is asked again on the next pass. Runs on the elected node every
 * `TICK_MS`; tests call `tick()`.
 */
import { groupBy } from '../../lib/group-by';
import type { ExchangeName } from '../exchange';
import type { OrdersContext } from './orders.context';
import { createOrdersRepository } from './orders.repository';
import { markSettlement } from './orders.transitions';

export const SETTLEMENT = { TICK_MS: 5_000, BATCH: 200 } as const;

export function createSettlementJob(ctx: OrdersContext) {
  const db = ctx.deps.database.db;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  /**
   * One pass over the unsettled trades; returns how many changed. Each exchange's trades are asked for in one
   * query (`settlementsOf`); an exchange that does not answer is asked again on the next pass, the others go on.
   */
  async function tick(): Promise<number> {
    const unsettled = await createOrdersRepository(db).unsettled(SETTLEMENT.BATCH);
    let changed = 0;
    for (const [exchange, trades] of groupBy(unsettled, (trade) => trade.exchange as ExchangeName)) {
      let settlements;
      try {
        settlements = await ctx.gateway.settlementsOf(
          exchange,
          trades.map((trade) => trade.tradeId),
        );
      } catch {
        continue; // The clearing corporation did not answer: asked again on the next pass.
      }
      for (const [i, trade] of trades.entries()) {
        const settlement = settlements[i];
        // Unknown to it (not yet, or a venue that lost it) or still pending: asked again on the next pass.
        if (!settlement || settlement.status === 'pending') continue;
        const rows = await ctx.change(async (tx, emit) => {
          await createOrdersRepository(tx).lockTicketOrders(tx, trade.ticketId);
          return markSettlement(tx, emit, trade.ticketId, settlement, ctx.settledHooks);
        });
        changed += rows.length > 0 ? 1 : 0;
      }
    }
    return changed;
  }

  return {
    tick,
    startJobs(isLeader: () => boolean): void {
      timer = setInterval(() => {
        if (!isLeader() || running) return;
        running = tick()
          .then(() => undefined)
          .catch((error: unknown) => ctx.log.warn({ err: { message: String((error as Error)?.message) } }, 'settlement pass failed'))
          .finally(() => {
            running = null;
          });
      }, SETTLEMENT.TICK_MS);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      for (let pass = running; pass; pass = running) await pass;
    },
  };
}
export type SettlementJob = ReturnType<typeof createSettlementJob>;
