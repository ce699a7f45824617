/** The security page (issue 4): header, cash flows, bonds by the same issuer, trades, ratings, documents (the report-issue modal is the support desk's). */
export { finstrumentQueryOptions, useFinstrument } from './api/get-finstrument';
export type { SecurityAccess } from './components/access-prompt';
export { AccessPrompt } from './components/access-prompt';
export { CashflowPanel } from './components/cashflow-panel';
export { CreditRationalePanel } from './components/credit-rationale-panel';
export { DownloadsPanel } from './components/downloads-panel';
export { IssuerBondsPanel } from './components/issuer-bonds-panel';
export { SecurityHeader } from './components/security-header';
export { TradesPanel } from './components/trades-panel';
export { reportedPricingDetails, type PricingDetails } from './utils/pricing-details';
