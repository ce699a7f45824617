/** The live-socket rules, tested against a real local WebSocket server (no mocked socket). */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { createLiveClient, getReconnectDelay, LIVE_TIMINGS, type LiveClient, type LiveEvent, type SocketLike } from './live';
import { startWsServer } from './ws-test-server';

const createSocket = (url: string) => new WebSocket(url) as unknown as SocketLike;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, timeoutMs = 3000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await wait(10);
  }
}

let server: WebSocketServer | null = null;
let client: LiveClient | null = null;
afterEach(async () => {
  client?.stop();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

async function startServer(onMessage: (socket: WebSocket, message: Record<string, unknown>, connection: number) => void) {
  const started = await startWsServer('/ws/trade/d/', onMessage);
  server = started.server;
  return started;
}

describe('live client', () => {
  it('grows the reconnect delay from 1 s by ×1.3 up to 10 s, with jitter inside the bounds', () => {
    const mid = () => 0.5;
    expect([0, 1, 2, 3].map((n) => getReconnectDelay(n, LIVE_TIMINGS, mid))).toEqual([1000, 1300, 1690, 2197]);
    expect(getReconnectDelay(50, LIVE_TIMINGS, mid)).toBe(10_000);
    for (let n = 0; n < 30; n++) {
      for (const r of [0, 0.999]) {
        const d = getReconnectDelay(n, LIVE_TIMINGS, () => r);
        expect(d).toBeGreaterThanOrEqual(1000);
        expect(d).toBeLessThanOrEqual(10_000);
      }
    }
  });

  it('authenticates with the first message, pings, and resumes from the last position after a drop', async () => {
    const srv = await startServer((socket, message, connection) => {
      if (message.type === 'auth') {
        socket.send(JSON.stringify({ type: 'auth_ok', version: 1, position: 10 }));
        if (connection === 1) {
          socket.send(JSON.stringify({ type: 'event', position: 11, topic: 'market.public_run', payload: { n: 11 } }));
          socket.send(JSON.stringify({ type: 'event', position: 12, topic: 'market.public_run', payload: { n: 12 } }));
          setTimeout(() => socket.terminate(), 30);
        } else {
          // A replay overlapping what was delivered is de-duplicated by position.
          for (const p of [12, 13])
            socket.send(JSON.stringify({ type: 'event', position: p, topic: 'market.public_run', payload: { n: p } }));
        }
      }
      if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
    });
    const events: LiveEvent[] = [];
    const statuses: string[] = [];
    client = createLiveClient({
      url: srv.url,
      getAccessToken: () => 'token-1',
      createSocket,
      onEvent: (e) => events.push(e),
      onStatus: (s) => statuses.push(s),
      timings: { pingIntervalMs: 20, reconnectMinMs: 20, reconnectMaxMs: 50 },
    });
    await until(() => events.length === 3);
    expect(events.map((e) => e.position)).toEqual([11, 12, 13]);
    const auths = srv.received.filter((m) => m.type === 'auth');
    expect(srv.received[0]).toMatchObject({ type: 'auth', token: 'token-1', connection: 1 });
    expect(auths[1]).toMatchObject({ connection: 2, last_position: 12 });
    await until(() => srv.received.some((m) => m.type === 'ping' && m.connection === 2));
    expect(statuses).toContain('offline');
    expect(client.status).toBe('connected');
    expect(client.lastPosition).toBe(13);
  });

  it('delivers an event that arrives after a higher position once, and never one at or below the resume point', async () => {
    const srv = await startServer((socket, message) => {
      if (message.type !== 'auth') return;
      socket.send(JSON.stringify({ type: 'auth_ok', version: 1, position: 20 }));
      // 23 committed before 22: both arrive, 22 late; then 22 again (a duplicate) and 19 (before the resume point).
      for (const p of [21, 23, 22, 22, 19, 24])
        socket.send(JSON.stringify({ type: 'event', position: p, topic: 'notify.created', payload: { n: p } }));
    });
    const events: LiveEvent[] = [];
    client = createLiveClient({ url: srv.url, getAccessToken: () => 'token-1', createSocket, onEvent: (e) => events.push(e) });
    await until(() => events.length === 4);
    await wait(30);
    expect(events.map((e) => e.position)).toEqual([21, 23, 22, 24]);
    // The resume point is the highest delivered, not the last one.
    expect(client.lastPosition).toBe(24);
  });

  it('drops a connection that does not authenticate within the connection timeout and retries', async () => {
    const srv = await startServer(() => undefined);
    client = createLiveClient({
      url: srv.url,
      getAccessToken: () => 't',
      createSocket,
      onEvent: () => undefined,
      timings: { connectionTimeoutMs: 60, reconnectMinMs: 20, reconnectMaxMs: 30 },
    });
    await until(() => srv.connections() >= 3);
    expect(client.status).toBe('offline');
  });

  it('goes offline after the silence threshold and reconnects', async () => {
    const srv = await startServer((socket, message) => {
      if (message.type === 'auth') socket.send(JSON.stringify({ type: 'auth_ok', version: 1, position: 0 }));
      // Never answers pings: the line is silent.
    });
    const statuses: string[] = [];
    client = createLiveClient({
      url: srv.url,
      getAccessToken: () => 't',
      createSocket,
      onEvent: () => undefined,
      onStatus: (s) => statuses.push(s),
      timings: { offlineThresholdMs: 120, pingIntervalMs: 40, reconnectMinMs: 20, reconnectMaxMs: 30 },
    });
    await until(() => srv.connections() >= 2);
    expect(statuses.slice(0, 2)).toEqual(['connected', 'offline']);
  });
});
