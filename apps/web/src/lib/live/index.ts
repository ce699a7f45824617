/** The session's live-update socket (`ws/trade/d/`): provider, status and event subscription. */
export { LiveProvider, useLiveEvents, useLiveStatus } from './live-provider';
export type { LiveConnectionStatus } from './live-provider';
export { LiveStatusBadge } from './live-status-badge';
export { useLiveRefetch } from './use-live-refetch';
