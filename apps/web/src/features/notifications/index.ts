/**
 * Notifications (issue 15 §3): the header's bell with the unread count and the inbox popover, kept live by the
 * user-scoped `notify.*` events of `ws/trade/d/`; new ones toast in the spec's notification group with its sound.
 */
export { NotificationBell } from './components/notification-bell';
export { NotificationPreferencesSection } from './components/notification-preferences-section';
