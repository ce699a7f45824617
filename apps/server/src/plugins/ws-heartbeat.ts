/**
 * Idle and dead-peer timeout for every WebSocket the server holds (RELIABILITY #33), both gateways
 * at once: each sweep sends a protocol ping to every socket; a socket from which nothing arrived
 * (no frame, no pong) for `idleTimeoutMs` is terminated. Browsers answer protocol pings by
 * themselves and our clients also ping every `WS.pingIntervalMs`, so only a peer that is gone (a
 * half-open TCP connection, a suspended laptop, a client that never reads) is dropped, and its
 * registrations (presence, per-user connection caps) are released within one timeout.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';

/**
 * `@fastify/websocket`'s `errorHandler` for every socket: its default logs each socket error as an
 * `error` with a stack trace. A peer that breaks the protocol (a frame over `maxPayload`, bad UTF-8,
 * a bad opcode: `ws` codes `WS_ERR_*`, after it has already sent the close frame, 1009 / 1007 / 1002)
 * or whose connection drops (ECONNRESET, EPIPE) is the client's doing: one `warn` line with the code
 * and message, no stack. Anything else (a gateway handler that threw) is our fault: `error` with the stack.
 */
export function handleWebSocketError(error: Error, socket: WebSocket, request: FastifyRequest): void {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('WS_ERR_') || /^E[A-Z]+$/.test(code)))
    // Not under `err`: pino's error serializer would add a `stack` key.
    request.log.warn(
      { websocketError: { code, message: error.message }, url: request.url },
      'websocket closed: client or connection error',
    );
  else request.log.error({ err: error, url: request.url }, 'websocket handler failed');
  // CLOSING: `ws` sent the close frame (1009 …) and ends the connection itself once the peer answers.
  if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.terminate();
}

export interface HeartbeatOptions {
  /** How often sockets are pinged and checked. */
  intervalMs: number;
  /** Silence after which a socket is terminated (more than one interval). */
  idleTimeoutMs: number;
}

export function registerWsHeartbeat(app: FastifyInstance, options: HeartbeatOptions): void {
  const lastHeard = new WeakMap<WebSocket, number>();
  const heard = (socket: WebSocket) => lastHeard.set(socket, Date.now());

  app.websocketServer.on('connection', (socket: WebSocket) => {
    heard(socket);
    socket.on('message', () => heard(socket));
    socket.on('pong', () => heard(socket));
  });

  const timer = setInterval(() => {
    const now = Date.now();
    for (const socket of app.websocketServer.clients) {
      if (socket.readyState !== socket.OPEN) continue;
      if (now - (lastHeard.get(socket) ?? now) > options.idleTimeoutMs) {
        // A peer that does not answer pings will not answer a close handshake either.
        socket.terminate();
        continue;
      }
      socket.ping();
    }
  }, options.intervalMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
