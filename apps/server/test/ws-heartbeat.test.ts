/**
 * The WebSocket idle / dead-peer timeout (RELIABILITY #33) on a real listening server: a client that
 * stops answering the server's protocol pings is terminated within the timeout, on both gateways;
 * a client that answers (as browsers do by themselves) stays connected well past it.
 */
import type { AddressInfo } from 'node:net';
import { CHAT_PATH } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createTestApp, DRIVERS, type TestApp } from './helpers';

const IDLE_MS = 600;

describe.each(DRIVERS)('WebSocket heartbeat (%s)', (driver) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(driver, { WS_IDLE_TIMEOUT_MS: String(IDLE_MS) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  const open = (path: string, autoPong: boolean) =>
    new Promise<{ socket: WebSocket; closed: Promise<{ code: number; at: number }>; pings: () => number }>((resolve, reject) => {
      const socket = new WebSocket(`${base}${path}`, { autoPong });
      let pings = 0;
      socket.on('ping', () => pings++);
      const closed = new Promise<{ code: number; at: number }>((done) => socket.on('close', (code) => done({ code, at: Date.now() })));
      socket.once('open', () => resolve({ socket, closed, pings: () => pings }));
      socket.once('error', reject);
    });

  it.each([CHAT_PATH, '/ws/trade/d/'])('terminates a peer that stops answering pings on %s; keeps one that answers', async (path) => {
    const started = Date.now();
    const dead = await open(path, false);
    const alive = await open(path, true);
    const { code, at } = await dead.closed;
    // Terminated, not closed with a handshake: the client sees an abnormal closure.
    expect(code).toBe(1006);
    expect(at - started).toBeGreaterThanOrEqual(IDLE_MS);
    expect(at - started).toBeLessThan(IDLE_MS * 3);
    expect(dead.pings()).toBeGreaterThan(0);
    // The answering client was pinged too and is still open after the dead one went.
    expect(alive.pings()).toBeGreaterThan(0);
    expect(alive.socket.readyState).toBe(WebSocket.OPEN);
    alive.socket.close();
  });
});
