/** The chat-socket rules (spec trading §4, §8, §9), tested against a real local WebSocket server. */
import { CHAT_MESSAGES, type ChatMessage } from '@dart/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { ChatSendError, createChatClient, type ChatClient, type ChatConnectionState, type ChatSocketLike } from './chat';
import { startWsServer } from './ws-test-server';

const createSocket = (url: string) => new WebSocket(url) as unknown as ChatSocketLike;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, timeoutMs = 3000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await wait(10);
  }
}
const fast = { pingIntervalMs: 20, reconnectMinMs: 20, reconnectMaxMs: 40 };

function chatMessage(channelUrl: string, position: number, reqId: string | null = null): ChatMessage {
  return {
    messageId: `m-${channelUrl}-${position}`,
    reqId,
    channelUrl,
    position,
    messageType: 'user',
    type: null,
    message: `message ${position}`,
    ogMetaData: null,
    data: {},
    customType: null,
    file: null,
    sender: { userId: 'u-2', nickname: 'Second', is_staff: false },
    createdAt: new Date().toISOString(),
    updatedAt: null,
    deletedAt: null,
  };
}
const frame = (channelUrl: string, position: number) =>
  JSON.stringify({ type: 'message', channel_url: channelUrl, position, message: chatMessage(channelUrl, position) });
const authOk = JSON.stringify({ type: 'auth_ok', version: 1, user_id: 'u-1' });

let server: WebSocketServer | null = null;
let client: ChatClient | null = null;
afterEach(async () => {
  client?.stop();
  client = null;
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

async function startServer(onMessage: (socket: WebSocket, message: Record<string, unknown>, connection: number) => void) {
  const started = await startWsServer('/ws/chat/', onMessage);
  server = started.server;
  return started;
}

describe('chat client', () => {
  it('authenticates with a session token and per-channel cursors, and replays each message once after a drop', async () => {
    const srv = await startServer((socket, message, connection) => {
      if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
      if (message.type !== 'auth') return;
      socket.send(authOk);
      if (connection === 1) {
        socket.send(frame('c-a', 5)); // at the cursor the app gave: already held
        socket.send(frame('c-a', 6));
        socket.send(frame('c-b', 1));
        setTimeout(() => socket.terminate(), 40);
      } else {
        // The replay overlaps what was delivered: de-duplicated by position.
        for (const p of [6, 7]) socket.send(frame('c-a', p));
        socket.send(frame('c-b', 1));
        socket.send(JSON.stringify({ type: 'resumed' }));
      }
    });
    const tokens: string[] = [];
    const seen: string[] = [];
    const states: ChatConnectionState[] = [];
    let resumed = 0;
    client = createChatClient({
      url: srv.url,
      getToken: async () => {
        tokens.push(`t-${tokens.length + 1}`);
        return tokens.at(-1)!;
      },
      cursors: { 'c-a': 5 },
      createSocket,
      timings: fast,
    });
    client.on('message', (m) => seen.push(`${m.channel_url}:${m.position}`));
    client.on('state', (s) => states.push(s));
    client.on('resumed', () => resumed++);
    await until(() => resumed === 1);
    expect(seen).toEqual(['c-a:6', 'c-b:1', 'c-a:7']);
    const auths = srv.received.filter((m) => m.type === 'auth');
    expect(auths[0]).toMatchObject({ token: 't-1', cursors: { 'c-a': 5 }, connection: 1 });
    // A plain drop reuses the token; the cursors are what the client holds now.
    expect(auths[1]).toMatchObject({ token: 't-1', cursors: { 'c-a': 6, 'c-b': 1 }, connection: 2 });
    expect(tokens).toEqual(['t-1']);
    expect(states).toEqual(['connected', 'disconnected', 'reconnect-started', 'reconnect-succeeded']);
    expect(client.getCursor('c-a')).toBe(7);
    await until(() => srv.received.some((m) => m.type === 'ping' && m.connection === 2));
  });

  it('resumes with the change cursor beside the position, applies each edit or delete once, and relays presence', async () => {
    const change = (changeSeq: number) =>
      JSON.stringify({
        type: 'channel',
        event: 'message_updated',
        channel_url: 'c-a',
        channel: null,
        actor: { userId: 'u-2', nickname: 'Second' },
        target_user_ids: [],
        message: { ...chatMessage('c-a', 2), message: `edit ${changeSeq}` },
        change_seq: changeSeq,
      });
    const srv = await startServer((socket, message, connection) => {
      if (message.type !== 'auth') return;
      socket.send(authOk);
      if (connection === 1) {
        socket.send(change(3)); // at the change cursor the app gave: held
        socket.send(change(4));
        socket.send(JSON.stringify({ type: 'presence', user_id: 'u-2', connection_status: 'offline' }));
        setTimeout(() => socket.terminate(), 40);
      } else {
        socket.send(change(4)); // the replay overlaps what was applied: dropped
        socket.send(change(5));
        socket.send(JSON.stringify({ type: 'resumed' }));
      }
    });
    const applied: number[] = [];
    const presence: string[] = [];
    let resumed = 0;
    client = createChatClient({
      url: srv.url,
      getToken: async () => 't',
      cursors: { 'c-a': 7, 'c-b': 2 },
      changeCursors: { 'c-a': 3 },
      createSocket,
      timings: fast,
    });
    client.on('channel', (m) => applied.push(m.change_seq!));
    client.on('presence', (m) => presence.push(`${m.user_id}:${m.connection_status}`));
    client.on('resumed', () => resumed++);
    await until(() => resumed === 1);
    expect(applied).toEqual([4, 5]);
    expect(presence).toEqual(['u-2:offline']);
    const auths = srv.received.filter((m) => m.type === 'auth');
    // A channel without a change cursor keeps the first cursor form (a bare position).
    expect(auths[0]!.cursors).toEqual({ 'c-a': { position: 7, change_seq: 3 }, 'c-b': 2 });
    expect(auths[1]!.cursors).toEqual({ 'c-a': { position: 7, change_seq: 4 }, 'c-b': 2 });
    client.setChangeCursor('c-a', 2); // never lowered
    client.setChangeCursor('c-b', 6);
    expect([client.getChangeCursor('c-a'), client.getChangeCursor('c-b')]).toEqual([5, 6]);
    client.forgetChannel('c-a');
    expect(client.getChangeCursor('c-a')).toBeUndefined();
  });

  it('resolves a send on ack and rejects it on nack, matched by reqId', async () => {
    const srv = await startServer((socket, message) => {
      if (message.type === 'auth') socket.send(authOk);
      if (message.type !== 'send') return;
      const reqId = String(message.reqId);
      if (message.message === 'too fast')
        socket.send(JSON.stringify({ type: 'nack', reqId, code: 'CHAT_RATE_LIMITED', message: 'You are sending messages too fast.' }));
      else if (message.message === 'redis down')
        socket.send(
          JSON.stringify({ type: 'nack', reqId, code: 'SERVICE_UNAVAILABLE', message: CHAT_MESSAGES.serviceUnavailable, retry_after: 5 }),
        );
      else socket.send(JSON.stringify({ type: 'ack', reqId, message: { ...chatMessage('c-a', 3, reqId), message: message.message } }));
    });
    let n = 0;
    client = createChatClient({ url: srv.url, getToken: async () => 't', createSocket, timings: fast, createReqId: () => `r-${++n}` });
    await expect(client.send('c-a', { message: 'early' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    await until(() => client!.isConnected);
    const stored = await client.send('c-a', { message: 'hello', data: { k: 1 } });
    expect(stored).toMatchObject({ reqId: 'r-2', message: 'hello', position: 3 });
    const refused = client.send('c-a', { message: 'too fast', reqId: 'mine' });
    await expect(refused).rejects.toBeInstanceOf(ChatSendError);
    await expect(refused).rejects.toMatchObject({ code: 'CHAT_RATE_LIMITED', retryAfterSeconds: undefined });
    // A server dependency down: not "too fast", and the client is told when to send again.
    await expect(client.send('c-a', { message: 'redis down' })).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: CHAT_MESSAGES.serviceUnavailable,
      retryAfterSeconds: 5,
    });
    expect(client.isConnected).toBe(true);
    expect(srv.received.find((m) => m.reqId === 'r-2')).toMatchObject({
      type: 'send',
      channel_url: 'c-a',
      message: 'hello',
      data: { k: 1 },
      customType: null,
    });
  });

  it('on close 4401 fetches a fresh token and reconnects', async () => {
    const srv = await startServer((socket, message, connection) => {
      if (message.type !== 'auth') return;
      if (connection === 1) socket.close(4401, 'token expired');
      else socket.send(authOk);
    });
    let issued = 0;
    client = createChatClient({ url: srv.url, getToken: async () => `token-${++issued}`, createSocket, timings: fast });
    await until(() => client!.isConnected);
    const auths = srv.received.filter((m) => m.type === 'auth').map((m) => m.token);
    expect(auths).toEqual(['token-1', 'token-2']);
  });

  it('on close 4403 emits cleared and stops reconnecting', async () => {
    const srv = await startServer((socket, message) => {
      if (message.type !== 'auth') return;
      socket.send(authOk);
      setTimeout(() => socket.close(4403, 'session revoked'), 20);
    });
    const cleared: number[] = [];
    client = createChatClient({ url: srv.url, getToken: async () => 't', createSocket, timings: fast });
    client.on('cleared', (e) => cleared.push(e.code));
    await until(() => cleared.length === 1);
    await wait(150);
    expect(cleared).toEqual([4403]);
    expect(srv.connections()).toBe(1);
    expect(client.state).toBe('stopped');
  });

  it('a failed reconnect reports reconnect failed and the next attempt connects with a fresh session token', async () => {
    const srv = await startServer((socket, message, connection) => {
      if (message.type !== 'auth') return;
      if (connection === 1) {
        socket.send(authOk);
        setTimeout(() => socket.terminate(), 20);
      } else if (connection === 2)
        socket.terminate(); // the reconnect attempt fails
      else socket.send(authOk);
    });
    let issued = 0;
    const states: ChatConnectionState[] = [];
    client = createChatClient({ url: srv.url, getToken: async () => `token-${++issued}`, createSocket, timings: fast });
    client.on('state', (s) => states.push(s));
    await until(() => states.includes('reconnect-succeeded'));
    expect(states).toEqual([
      'connected',
      'disconnected',
      'reconnect-started',
      'reconnect-failed',
      'reconnect-started',
      'reconnect-succeeded',
    ]);
    expect(srv.received.filter((m) => m.type === 'auth').map((m) => m.token)).toEqual(['token-1', 'token-1', 'token-2']);
  });

  it('drops a connection that does not authenticate within the connection timeout, and one that falls silent', async () => {
    const silent = await startServer(() => undefined);
    client = createChatClient({
      url: silent.url,
      getToken: async () => 't',
      createSocket,
      timings: { connectionTimeoutMs: 60, reconnectMinMs: 20, reconnectMaxMs: 30 },
    });
    await until(() => silent.connections() >= 3);
    expect(client.isConnected).toBe(false);
    client.stop();
    await new Promise<void>((r) => server!.close(() => r()));

    // Authenticated, then never answers a ping: offline after the threshold, then a reconnect.
    const mute = await startServer((socket, message) => message.type === 'auth' && socket.send(authOk));
    const states: ChatConnectionState[] = [];
    client = createChatClient({
      url: mute.url,
      getToken: async () => 't',
      createSocket,
      timings: { offlineThresholdMs: 120, pingIntervalMs: 40, reconnectMinMs: 20, reconnectMaxMs: 30 },
    });
    client.on('state', (s) => states.push(s));
    await until(() => mute.connections() >= 2 && states.includes('reconnect-succeeded'));
    expect(states.slice(0, 2)).toEqual(['connected', 'disconnected']);
  });

  it('throttles delivered receipts to one frame per channel per interval, carrying the latest position', async () => {
    const srv = await startServer((socket, message) => message.type === 'auth' && socket.send(authOk));
    client = createChatClient({
      url: srv.url,
      getToken: async () => 't',
      createSocket,
      timings: { ...fast, markDeliveredThrottleMs: 200 },
    });
    await until(() => client!.isConnected);
    for (const p of [1, 2, 3]) client.markDelivered('c-a', p);
    client.markDelivered('c-b', 9);
    await wait(60);
    const delivered = () => srv.received.filter((m) => m.type === 'delivered');
    expect(delivered().map((m) => `${m.channel_url}:${m.position}`)).toEqual(['c-a:1', 'c-b:9']);
    await until(() => delivered().length === 3);
    expect(delivered()[2]).toMatchObject({ channel_url: 'c-a', position: 3 });
    await wait(250);
    expect(delivered()).toHaveLength(3);
    client.typing('c-a', true);
    expect(client.markRead('c-a', 3)).toBe(true);
    await until(() => srv.received.some((m) => m.type === 'read'));
    expect(srv.received.find((m) => m.type === 'typing')).toMatchObject({ channel_url: 'c-a', typing: true });
    expect(srv.received.find((m) => m.type === 'read')).toMatchObject({ channel_url: 'c-a', position: 3 });
  });
});
