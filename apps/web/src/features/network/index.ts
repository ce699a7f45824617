/**
 * Network (issue 15 §1): the data of the workspace's Build Network panel — the firms we trade with and their
 * counterparty quality (`GET api/network/stats/`), partners, brokers and facilitators — under one search.
 * The route hands it to the workspace's panel and wires the rows' actions to chat and the market.
 */
export { useBuildNetwork } from './hooks/use-build-network';
export type { BuildNetwork } from './hooks/use-build-network';
export type { NetworkRow, NetworkSections } from './utils/network-sections';
