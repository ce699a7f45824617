/**
 * Chat (issue 6): the chat session provider (socket, cache patching, sounds), the compact workspace
 * panel and the full /chat page, with the chat-terms gate. `ChatSlots`: what a route lends chat for
 * private runs (the quote form, the action on a card).
 */
export { ChatProvider } from './components/chat-provider';
export { ChatWorkspace, ChatStatusBadge } from './components/chat-workspace';
export { ChatTermsGate } from './components/chat-terms-gate';
export { useChatUnreadTotal } from './hooks/use-unread-total';
export { useChatConnections } from './hooks/use-chat-connections';
export { useOpenDirectChat, onOpenChannelRequest } from './hooks/open-direct-chat';
export type { ChatConnection } from './utils/connections';
export type { ChatWorkspaceProps } from './components/chat-workspace';
export type { ChatSlots, PrivateRunFormSlotProps } from './components/chat-slots';
export type { ChatFirm } from './utils/private-run';
