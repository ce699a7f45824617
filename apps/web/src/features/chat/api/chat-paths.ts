/**
 * Every HTTP path of the chat feature in one place (spec trading §7 "Chat session and history",
 * "Chat and tickets"), so a server-side rename is a one-line fix here.
 */
const enc = encodeURIComponent;
const channel = (url: string) => `/api/chat/channels/${enc(url)}`;

export const CHAT_PATHS = {
  issueSessionToken: '/api/issue-sb-session-token',
  removeSession: '/api/remove-sb-session',
  acceptTerms: '/api/client/chat-terms/',
  userSearch: '/api/chatter/user/search',
  inviteUsers: '/api/chatter/invite-users',
  channels: '/api/chat/channels/',
  channel: (url: string) => `${channel(url)}/`,
  messages: (url: string) => `${channel(url)}/messages/`,
  message: (url: string, messageId: string) => `${channel(url)}/messages/${enc(messageId)}/`,
  files: (url: string) => `${channel(url)}/files/`,
  read: (url: string) => `${channel(url)}/read/`,
  accept: (url: string) => `${channel(url)}/accept/`,
  decline: (url: string) => `${channel(url)}/decline/`,
  leave: (url: string) => `${channel(url)}/leave/`,
  operators: (url: string) => `${channel(url)}/operators/`,
  ban: (url: string) => `${channel(url)}/ban/`,
  /** Ours (issue 16 §2): link a channel to WhatsApp, or unlink it. */
  whatsappLink: (url: string) => `/api/whatsapp/channels/${enc(url)}/link/`,
} as const;

/** Query keys: everything of chat lives under `['chat']`, so a 4403 clears it in one call. */
export const CHAT_KEY = ['chat'] as const;
export const CHANNELS_KEY = [...CHAT_KEY, 'channels'] as const;
export const channelKey = (url: string) => [...CHAT_KEY, 'channel', url] as const;
export const messagesKey = (url: string) => [...CHAT_KEY, 'messages', url] as const;
export const USER_SEARCH_KEY = [...CHAT_KEY, 'user-search'] as const;
