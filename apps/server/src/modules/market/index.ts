/** The market module's surface: quotes, runs, negotiation, clusters, deals, and the matching engine. */
export { createMarketService, type MarketService } from './market.service';
export { registerMarketRoutes } from './market.routes';
export { type DealRecordedHook } from './market.deals';
export { type DealRow } from './market.repository';
export { assertSize, perBondOf, type BondSizeTerms } from './market.sizes';
export { OrderBook, mayTrade, type BookQuote, type Fill, type Side } from './matching-engine';
