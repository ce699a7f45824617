/**
 * The exchanges behind one interface: the RFQ platforms and, for confirmed OTC tickets, the trade reporting
 * platforms and clearing corporations. `SimulatedExchange` is a simulator of all of them; its simulated participants.
 */
export {
  ExchangeUnavailableError,
  type ExchangeGateway,
  type ExchangeName,
  type ReportedTerms,
  type SettlementStatus,
  type TradeReportAnswer,
  type TradeSettlement,
  type TradeSettlementStatus,
  type TradeSideReport,
} from './exchange.gateway';
export { SimulatedExchange, type SimulatedExchangeOptions } from './simulated-exchange';
export type { PayinShortage, SettlementInstruction } from './simulated-venue-link';
export { createSimulatedParticipants, SIMULATED_FIRM, type SimulatedParticipants } from './simulated-participants';
export { createExchangeService, type ExchangeService } from './exchange.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Exchange RFQs: the venue (SimulatedExchange), deal reporting / settlement, and the simulated participants. */
    exchange: {
      venue: import('./simulated-exchange').SimulatedExchange;
      service: import('./exchange.service').ExchangeService;
      participants: import('./simulated-participants').SimulatedParticipants;
    };
  }
}
