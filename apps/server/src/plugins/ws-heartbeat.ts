/**
 * Idle and dead-peer timeout for every WebSocket the server holds (RELIABILITY #33), both gateways
 * at once: each sweep sends a protocol ping to every socket; a socket from which nothing arrived
 * (no frame, no pong) for `idleTimeoutMs` is terminated. Browsers answer protocol pings by
 * themselves and our clients also ping every `WS.pingIntervalMs`, so only a peer that is gone (a
 * half-open TCP connection, a suspended laptop, a client that never reads) is dropped, and its
 * registrations (presence, per-user connection caps) are released within one timeout.
 */
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';

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
