/** Shared helpers of the chat suites: a real `ws` chat client and REST shortcuts. */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { WebSocket } from 'ws';
import { bearer, createTestApp, json, login, type Driver, type TestApp } from './helpers';

/** A test app listening on a loopback port, its chat socket URL, and chat users signed in by e-mail. */
export async function listeningChatApp<E extends string>(
  driver: Driver,
  emails: readonly E[],
  env: Record<string, string> = {},
): Promise<{ t: TestApp; wsUrl: string; users: Record<E, ChatUser> }> {
  const t = await createTestApp(driver, env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const wsUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws/chat/`;
  const users = {} as Record<E, ChatUser>;
  for (const email of emails) users[email] = await chatUser(t.app, email);
  return { t, wsUrl, users };
}

export type Frame = Record<string, unknown> & { type: string };

export interface ChatClient {
  socket: WebSocket;
  frames: Frame[];
  closed: Promise<{ code: number; reason: string }>;
  next(predicate: (m: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  send(message: Record<string, unknown>): void;
  /** Message frames of one channel, in arrival order. */
  positions(channelUrl: string): number[];
}

export function connectChat(url: string): Promise<ChatClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const frames: Frame[] = [];
    const waiters: Array<{ predicate: (m: Frame) => boolean; resolve: (m: Frame) => void }> = [];
    socket.on('message', (raw: Buffer) => {
      const frame = JSON.parse(raw.toString()) as Frame;
      frames.push(frame);
      for (const w of waiters.slice())
        if (w.predicate(frame)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(frame);
        }
    });
    const closed = new Promise<{ code: number; reason: string }>((r) =>
      socket.on('close', (code, reason) => r({ code, reason: reason.toString() })),
    );
    socket.on('error', reject);
    socket.on('open', () =>
      resolve({
        socket,
        frames,
        closed,
        send: (message) => socket.send(JSON.stringify(message)),
        positions: (channelUrl) =>
          frames.filter((f) => f.type === 'message' && f.channel_url === channelUrl).map((f) => f.position as number),
        next: (predicate, timeoutMs = 5000) => {
          const found = frames.find(predicate);
          if (found) return Promise.resolve(found);
          return new Promise((res, rej) => {
            const timer = setTimeout(
              () => rej(new Error(`timed out waiting for a chat frame; got ${JSON.stringify(frames.slice(-5))}`)),
              timeoutMs,
            );
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
  });
}

export interface ChatUser {
  email: string;
  access: string;
  id: string;
  token(): Promise<string>;
}

export async function chatUser(app: FastifyInstance, email: string): Promise<ChatUser> {
  const { access } = await login(app, email);
  const session = json<{ user_info: { id: string } }>(await app.inject({ method: 'GET', url: '/api/session/', headers: bearer(access) }));
  const id = session.user_info.id;
  return {
    email,
    access,
    id,
    token: async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/issue-sb-session-token',
        headers: bearer(access),
        payload: { userId: id },
      });
      if (response.statusCode !== 200) throw new Error(`token for ${email}: ${response.statusCode} ${response.body}`);
      return json<{ token: string }>(response).token;
    },
  };
}

/** Opens a chat socket as `user`, authenticates, and waits for `resumed`. */
export async function openChat(
  url: string,
  user: ChatUser,
  cursors: Record<string, number | { position: number; change_seq?: number }> = {},
): Promise<ChatClient> {
  const client = await connectChat(url);
  client.send({ type: 'auth', token: await user.token(), cursors });
  await client.next((f) => f.type === 'auth_ok');
  await client.next((f) => f.type === 'resumed');
  return client;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
