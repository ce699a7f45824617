/**
 * A test client of `ws/trade/d/`: authenticates (resuming after `lastPosition` when given), keeps every message,
 * and `next(predicate)` resolves with the first kept or later message that matches (or fails after `timeoutMs`).
 */
import { WebSocket } from 'ws';

export interface LiveMessage {
  type: string;
  position?: number;
  topic?: string;
  payload?: unknown;
}

export interface LiveSocket<M extends LiveMessage> {
  socket: WebSocket;
  messages: M[];
  /** The position `auth_ok` gave. */
  position: number;
  next(predicate: (m: M) => boolean, timeoutMs?: number): Promise<M>;
}

export function connectLive<M extends LiveMessage>(
  url: string,
  token: string,
  lastPosition?: number,
  defaultTimeoutMs = 5000,
): Promise<LiveSocket<M>> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const messages: M[] = [];
    const waiters: Array<{ predicate: (m: M) => boolean; resolve: (m: M) => void }> = [];
    const next = (predicate: (m: M) => boolean, timeoutMs = defaultTimeoutMs) => {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<M>((res, rej) => {
        const timer = setTimeout(() => rej(new Error(`timed out waiting for a message ${predicate.toString()}`)), timeoutMs);
        waiters.push({ predicate, resolve: (m) => (clearTimeout(timer), res(m)) });
      });
    };
    socket.on('message', (raw: Buffer) => {
      const message = JSON.parse(raw.toString()) as M;
      messages.push(message);
      for (const w of waiters.slice())
        if (w.predicate(message)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(message);
        }
    });
    socket.on('error', reject);
    socket.on('open', () => {
      socket.send(JSON.stringify({ type: 'auth', token, ...(lastPosition === undefined ? {} : { last_position: lastPosition }) }));
      void next((m) => m.type === 'auth_ok').then((ok) => resolve({ socket, messages, next, position: ok.position! }), reject);
    });
  });
}
