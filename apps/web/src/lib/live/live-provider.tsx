/**
 * One live-update socket (`ws/trade/d/`) per signed-in session, through `createLiveClient` of
 * @dart/client (auth first, ping, offline detection, reconnect with back-off, resume from the last
 * position). Features subscribe to its events and patch their own TanStack Query keys; nothing
 * here caches data (STYLE practice 14).
 */
import { createLiveClient, type LiveEvent, type LiveStatus } from '@dart/client';
import { LIVE_PATH } from '@dart/contracts';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { refreshAccessToken } from '../api-client';
import { getAccessToken } from '../access-token';
import { useSession } from '../session';

/** `idle`: nobody is signed in, so no socket is open. */
export type LiveConnectionStatus = LiveStatus | 'idle';
type Listener = (event: LiveEvent) => void;
/** Called when the socket comes back after being offline (consumers may refetch). */
type ReconnectListener = () => void;

interface LiveContextValue {
  status: LiveConnectionStatus;
  subscribe: (listener: Listener) => () => void;
  onReconnect: (listener: ReconnectListener) => () => void;
}

const noop = () => () => undefined;
const LiveContext = createContext<LiveContextValue>({ status: 'idle', subscribe: noop, onReconnect: noop });

function liveUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${LIVE_PATH}`;
}

/** The access token for the socket's first message; refreshed first when the memory holds none. */
async function tokenForSocket(): Promise<string | null> {
  const token = getAccessToken();
  if (token) return token;
  const refreshed = await refreshAccessToken().catch(() => false);
  return refreshed ? getAccessToken() : null;
}

export function LiveProvider({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const userId = user?.user_info.id ?? null;
  // The status reported for the current user's socket (a stale one from a previous user is ignored).
  const [reported, setReported] = useState<{ userId: string; status: LiveStatus } | null>(null);
  const status: LiveConnectionStatus = !userId ? 'idle' : reported?.userId === userId ? reported.status : 'connecting';
  const [listeners] = useState(() => new Set<Listener>());
  const [reconnectListeners] = useState(() => new Set<ReconnectListener>());
  const [value] = useState<Omit<LiveContextValue, 'status'>>(() => ({
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onReconnect: (listener) => {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
  }));

  useEffect(() => {
    if (!userId) return undefined;
    let wasOffline = false;
    const client = createLiveClient({
      url: liveUrl(),
      getAccessToken: tokenForSocket,
      onEvent: (event) => {
        for (const listener of listeners) listener(event);
      },
      onStatus: (next) => {
        setReported({ userId, status: next });
        if (next === 'offline') wasOffline = true;
        if (next === 'connected' && wasOffline) {
          wasOffline = false;
          for (const listener of reconnectListeners) listener();
        }
      },
    });
    return () => client.stop();
  }, [userId, listeners, reconnectListeners]);

  return <LiveContext.Provider value={{ status, ...value }}>{children}</LiveContext.Provider>;
}

/** The socket's state: connecting, connected, offline (reconnecting), stopped or idle. */
export function useLiveStatus(): LiveConnectionStatus {
  return useContext(LiveContext).status;
}

/**
 * Calls `handler` for every live event (and `onReconnect` after the socket recovers from offline).
 * The latest handlers are used without re-subscribing.
 */
export function useLiveEvents(handler: (event: LiveEvent) => void, onReconnect?: () => void): void {
  const { subscribe, onReconnect: subscribeReconnect } = useContext(LiveContext);
  const handlerRef = useRef(handler);
  const reconnectRef = useRef(onReconnect);
  useEffect(() => {
    handlerRef.current = handler;
    reconnectRef.current = onReconnect;
  });
  useEffect(() => subscribe((event) => handlerRef.current(event)), [subscribe]);
  useEffect(() => subscribeReconnect(() => reconnectRef.current?.()), [subscribeReconnect]);
}
