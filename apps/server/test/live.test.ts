import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { appendEvent, publishAll } from '../src/lib/events';
import { bearer, createTestApp, DRIVERS, login, type TestApp } from './helpers';

interface Client {
  socket: WebSocket;
  messages: Array<Record<string, unknown>>;
  closed: Promise<{ code: number; reason: string }>;
  next(predicate: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
}

describe.each(DRIVERS)('live updates socket ws/trade/d/ (%s)', (driver) => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp(driver);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws/trade/d/`;
  });
  afterAll(async () => {
    await t?.close();
  });

  function connect(): Promise<Client> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      const messages: Array<Record<string, unknown>> = [];
      const waiters: Array<{ predicate: (m: Record<string, unknown>) => boolean; resolve: (m: Record<string, unknown>) => void }> = [];
      socket.on('message', (raw) => {
        const message = JSON.parse(raw.toString()) as Record<string, unknown>;
        messages.push(message);
        for (const w of waiters.slice())
          if (w.predicate(message)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(message);
          }
      });
      const closed = new Promise<{ code: number; reason: string }>((r) =>
        socket.on('close', (code, reason) => r({ code, reason: reason.toString() })),
      );
      socket.on('open', () =>
        resolve({
          socket,
          messages,
          closed,
          next: (predicate, timeoutMs = 3000) => {
            const found = messages.find(predicate);
            if (found) return Promise.resolve(found);
            return new Promise((res, rej) => {
              const timer = setTimeout(() => rej(new Error('timed out waiting for message')), timeoutMs);
              waiters.push({
                predicate,
                resolve: (m) => {
                  clearTimeout(timer);
                  res(m);
                },
              });
            });
          },
        }),
      );
      socket.on('error', reject);
    });
  }

  async function emit(clientId: string | null, topic: string, payload: unknown) {
    const message = await t.database.db.transaction((tx) => appendEvent(tx, { topic, clientId, payload }));
    await publishAll(t.app.deps.bus, [message]);
    return message.position!;
  }

  it('authenticates with the first message and answers pings', async () => {
    const { access } = await login(t.app, 'dealer@demo.dart');
    const client = await connect();
    client.socket.send(JSON.stringify({ type: 'auth', token: access }));
    const ok = await client.next((m) => m.type === 'auth_ok');
    expect(ok.version).toBe(1);
    client.socket.send(JSON.stringify({ type: 'ping' }));
    await client.next((m) => m.type === 'pong');
    client.socket.close();
  });

  it('closes 4001 on a bad token', async () => {
    const client = await connect();
    client.socket.send(JSON.stringify({ type: 'auth', token: 'not-a-token' }));
    expect((await client.closed).code).toBe(4001);
  });

  it("delivers only the own tenant's events, and replays what a reconnecting client missed, in order, once", async () => {
    const demo = await login(t.app, 'dealer@demo.dart');
    const second = await login(t.app, 'dealer@second.dart');
    const session = await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(demo.access) });
    const demoClientId = session.json<{ client_id: string }>().client_id;
    const secondClientId = (await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(second.access) })).json<{
      client_id: string;
    }>().client_id;

    const a = await connect();
    a.socket.send(JSON.stringify({ type: 'auth', token: demo.access }));
    const { position: start } = (await a.next((m) => m.type === 'auth_ok')) as { position: number };
    const p1 = await emit(demoClientId, 'probe.one', { n: 1 });
    await emit(secondClientId, 'probe.foreign', { secret: true });
    await a.next((m) => m.position === p1);
    a.socket.close();
    await a.closed;

    // While disconnected, more happens.
    const p2 = await emit(demoClientId, 'probe.two', { n: 2 });
    const p3 = await emit(null, 'probe.public', { n: 3 });

    const b = await connect();
    b.socket.send(JSON.stringify({ type: 'auth', token: demo.access, last_position: p1 }));
    await b.next((m) => m.position === p3);
    const p4 = await emit(demoClientId, 'probe.four', { n: 4 });
    await b.next((m) => m.position === p4);
    const events = b.messages.filter((m) => m.type === 'event');
    expect(events.map((m) => m.position)).toEqual([p2, p3, p4]);
    expect(events.some((m) => m.topic === 'probe.foreign')).toBe(false);
    expect(a.messages.some((m) => m.topic === 'probe.foreign')).toBe(false);
    expect(p1).toBeGreaterThan(start);
    b.socket.close();
  });

  it('lets a burst of resuming sockets through the start gate a few at a time, each with what it missed once, then live', async () => {
    const demo = await login(t.app, 'dealer@demo.dart');
    const demoClientId = (await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(demo.access) })).json<{
      client_id: string;
    }>().client_id;
    const p1 = await emit(demoClientId, 'probe.storm.before', { n: 1 });
    const p2 = await emit(demoClientId, 'probe.storm.missed', { n: 2 });
    // More sockets than the gate lets start at once (4 on PostgreSQL, 1 embedded), under the per-user cap of 10.
    const clients = await Promise.all(Array.from({ length: 8 }, () => connect()));
    for (const client of clients) client.socket.send(JSON.stringify({ type: 'auth', token: demo.access, last_position: p1 }));
    // Committed while the burst is starting: each socket gets it once, from its replay or live.
    const p3 = await emit(demoClientId, 'probe.storm.during', { n: 3 });
    await Promise.all(clients.map((client) => client.next((m) => m.type === 'auth_ok', 10_000)));
    const p4 = await emit(demoClientId, 'probe.storm.after', { n: 4 });
    for (const client of clients) {
      await client.next((m) => m.position === p4, 10_000);
      const storm = client.messages.filter((m) => m.type === 'event' && String(m.topic).startsWith('probe.storm.'));
      expect(storm.map((m) => m.position)).toEqual([p2, p3, p4]);
      client.socket.close();
    }
    await Promise.all(clients.map((client) => client.closed));
  });

  it('closes open sockets within a second of sign-out', async () => {
    const { access } = await login(t.app, 'viewer@demo.dart');
    const client = await connect();
    client.socket.send(JSON.stringify({ type: 'auth', token: access }));
    await client.next((m) => m.type === 'auth_ok');
    const started = Date.now();
    await t.app.inject({ method: 'POST', url: '/api/logout/', payload: {}, headers: bearer(access) });
    const closed = await client.closed;
    expect(closed.code).toBe(4001);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses oversized frames and message floods', async () => {
    const big = await connect();
    big.socket.send('x'.repeat(70 * 1024));
    expect((await big.closed).code).toBe(1009);
    const flood = await connect();
    for (let i = 0; i < 50; i++) flood.socket.send(JSON.stringify({ type: 'ping' }));
    expect((await flood.closed).code).toBe(1008);
  });

  it('closes an unauthenticated socket after the auth timeout', async () => {
    const client = await connect();
    const closed = await client.closed;
    expect(closed.code).toBe(4001);
  }, 10_000);
});
