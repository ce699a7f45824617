/** Exchange RFQs: the ExchangeGateway, the SimulatedExchange (a simulator) and its simulated participants. */
export { ExchangeUnavailableError, type ExchangeGateway, type ExchangeName, type SettlementStatus } from './exchange.gateway';
export { SimulatedExchange, type SimulatedExchangeOptions } from './simulated-exchange';
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
