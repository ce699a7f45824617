/**
 * Support (issue 15 §2; spec §2 support modals, §7 Support, §8 toasts): the contact / support / report-issue /
 * feedback modal raising tickets on Dart's desk with attachments, My requests, Dart Support's queue, the account
 * menu entries with the unread badge, and upgrade requests (402 page).
 */
export { RequestUpgradeButton } from './components/request-upgrade-button';
export { SupportModal, type SupportModalKind } from './components/support-modal';
export { MyRequests, NewSupportRequestButton, SupportQueue } from './components/support-pages';
export { SupportMenuItems } from './components/support-menu-items';
