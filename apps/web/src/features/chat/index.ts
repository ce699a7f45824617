/**
 * Chat (issue 6): the chat session provider (socket, cache patching, sounds), the compact workspace
 * panel and the full /chat page, with the chat-terms gate.
 */
export { ChatProvider } from './components/chat-provider';
export { ChatWorkspace, ChatStatusBadge } from './components/chat-workspace';
export { ChatTermsGate } from './components/chat-terms-gate';
export { useChatUnreadTotal } from './hooks/use-unread-total';
