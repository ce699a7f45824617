export { createHttpClient, HttpError, TimeoutError } from './http';
export type { HttpClient, HttpClientOptions, HttpMethod, RequestOptions } from './http';
export { createApi } from './api';
export type { Api } from './api';
export { createLiveClient, getReconnectDelay, LIVE_TIMINGS } from './live';
export type { LiveClient, LiveClientOptions, LiveEvent, LiveStatus, LiveTimings, SocketFactory, SocketLike } from './live';
export { ChatSendError, CHAT_TIMINGS, createChatClient } from './chat';
export type {
  ChatClient,
  ChatClientEventName,
  ChatClientEvents,
  ChatClientOptions,
  ChatConnectionState,
  ChatSendInput,
  ChatSocketFactory,
  ChatSocketLike,
  ChatTimings,
} from './chat';
