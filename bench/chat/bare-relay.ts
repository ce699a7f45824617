/**
 * The chat benchmark's baseline: the transport floor of the same protocol, in its own process. A bare
 * `ws` server that speaks just enough of the chat socket for the load generator (`auth` with cursors →
 * replay → `resumed`; `send` → `ack` + `message` to every member) with the channels' logs in memory:
 * no database, no validation, no rate limit, no sessions. Dart's figures are read against it.
 *
 * Reads SEED_FILE (`{ users: [{ id, token }], channels: [{ url, members }] }`), prints `READY <port>`.
 */
import { readFileSync } from 'node:fs';
import { WebSocketServer, type WebSocket } from 'ws';

interface Seed {
  users: Array<{ id: string; token: string }>;
  channels: Array<{ url: string; members: number[] }>;
}

const seed = JSON.parse(readFileSync(process.env.SEED_FILE!, 'utf8')) as Seed;
const userByToken = new Map(seed.users.map((u, index) => [u.token, index]));
const channelOfUser = new Map<number, string>();
for (const channel of seed.channels) for (const m of channel.members) channelOfUser.set(m, channel.url);
const membersOf = new Map(seed.channels.map((c) => [c.url, c.members]));
/** Per channel, every frame sent so far (index = position − 1), for resumes. */
const logs = new Map<string, string[]>(seed.channels.map((c) => [c.url, []]));
const socketsOf = new Map<number, Set<WebSocket>>();

const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws/chat/' });
server.on('connection', (socket) => {
  let user = -1;
  socket.on('message', (raw: Buffer) => {
    const frame = JSON.parse(raw.toString()) as {
      type: string;
      token?: string;
      cursors?: Record<string, number>;
      channel_url?: string;
      reqId?: string;
      message?: string;
    };
    if (frame.type === 'auth') {
      user = userByToken.get(frame.token ?? '') ?? -1;
      if (user < 0) return socket.close(4401, 'Authentication failed');
      const mine = socketsOf.get(user) ?? new Set<WebSocket>();
      mine.add(socket);
      socketsOf.set(user, mine);
      const url = channelOfUser.get(user);
      const cursor = url === undefined ? undefined : frame.cursors?.[url];
      if (url !== undefined && cursor !== undefined) for (const missed of logs.get(url)!.slice(cursor)) socket.send(missed);
      socket.send(JSON.stringify({ type: 'resumed' }));
      return;
    }
    const url = channelOfUser.get(user);
    if (frame.type !== 'send' || url === undefined || frame.channel_url !== url) return;
    const log = logs.get(url)!;
    const position = log.length + 1;
    const message = {
      reqId: frame.reqId ?? null,
      position,
      channelUrl: url,
      message: frame.message,
      senderId: seed.users[user]!.id,
    };
    const delivery = JSON.stringify({ type: 'message', channel_url: url, position, message });
    log.push(delivery);
    socket.send(JSON.stringify({ type: 'ack', reqId: frame.reqId, message }));
    for (const member of membersOf.get(url)!) for (const s of socketsOf.get(member) ?? []) s.send(delivery);
  });
  socket.on('close', () => socketsOf.get(user)?.delete(socket));
});
server.on('listening', () => {
  const address = server.address();
  process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
