/** Support tickets: upgrade requests (402 page) and the support / report-issue modal. */
export { RequestUpgradeButton } from './components/request-upgrade-button';
export { SupportModal } from './components/support-modal';
