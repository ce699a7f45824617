/**
 * Test support for the socket clients (live.test.ts, chat.test.ts): a real `ws` server on a loopback
 * port that records every frame it receives (with the number of the connection it came on) and hands
 * each to the test's script. Not part of the package's exports.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export type Received = Record<string, unknown> & { connection: number };

export async function startWsServer(
  path: string,
  onMessage: (socket: WebSocket, message: Record<string, unknown>, connection: number) => void,
) {
  const received: Received[] = [];
  let connections = 0;
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (socket) => {
    const n = ++connections;
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as Record<string, unknown>;
      received.push({ ...message, connection: n });
      onMessage(socket, message, n);
    });
  });
  await new Promise<void>((r) => server.once('listening', () => r()));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return { server, url, received, connections: () => connections };
}
