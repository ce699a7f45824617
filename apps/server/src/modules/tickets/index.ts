/**
 * The tickets module's surface (issue 13): the ticket calls, the participant and custodian searches, and one
 * ticket per deal written inside the deal's transaction (the market's `onDealRecorded`). `ticket-transitions.ts`
 * is shared with the orders module (system transitions: reported, settled…).
 */
import type { FastifyInstance } from 'fastify';
import type { FinstrumentsService } from '../finstruments';
import type { MarketService } from '../market';
import { createDealTickets } from './tickets.deals';
import { createTicketDirectory } from './tickets.directory';
import { registerTicketsRoutes } from './tickets.routes';
import { createTicketsService, type TicketsService } from './tickets.service';

export type { TicketsService } from './tickets.service';
export {
  appendTicketHistory,
  nextTicketState,
  recordTicketTransition,
  ticketEventsFor,
  ticketParticipants,
  type TicketRow,
  type TicketTransition,
  type TicketUpdate,
} from './ticket-transitions';

export function registerTickets(
  app: FastifyInstance,
  modules: { finstruments: FinstrumentsService; market: MarketService },
): TicketsService {
  const tickets = createTicketsService(app.deps, modules.finstruments);
  registerTicketsRoutes(app, tickets, createTicketDirectory(app.deps));
  const dealTickets = createDealTickets(app.deps, app.log);
  const removeHook = modules.market.onDealRecorded(dealTickets.hook);
  const removeListener = modules.market.onDeal(dealTickets.onDealCommitted);
  app.addHook('onClose', async () => {
    removeHook();
    removeListener();
  });
  return tickets;
}
