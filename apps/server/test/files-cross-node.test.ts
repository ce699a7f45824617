/**
 * Chat files on two app nodes that share one PostgreSQL database and the Redis bus but not a disk
 * (each node has a DATA_DIR of its own, as separate machines do): a file uploaded through one node
 * downloads byte-identical through the other, a non-member is refused the same way on both, and the
 * blob is written before the message that names it (a failed store leaves no message; a failed send
 * leaves only an unreachable blob). Runs when DATABASE_URL and REDIS_URL are set.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Channel, ChatMessage } from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, startRedisCluster, type RedisCluster } from './helpers';
import { chatUser, type ChatUser } from './chat-support';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A PNG-signed file of random bytes: binary (every byte value), and larger than one read slice. */
const pngOf = (size: number) => Buffer.concat([PNG_SIGNATURE, randomBytes(size - PNG_SIGNATURE.length)]);

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('chat files on two nodes with separate disks', () => {
  let cluster: RedisCluster;
  let nodes: FastifyInstance[] = [];
  let a: ChatUser;
  let b: ChatUser;
  let outsider: ChatUser;
  let channel: Channel;
  let counter = 0;
  const reqId = () => `f-${++counter}-${Date.now()}`;

  beforeAll(async () => {
    cluster = await startRedisCluster(2, {}, { perNodeDataDir: true });
    nodes = cluster.nodes;
    a = await chatUser(nodes[0]!, 'dealer@demo.dart');
    b = await chatUser(nodes[1]!, 'dealer@second.dart');
    outsider = await chatUser(nodes[1]!, 'broker@brokers.dart');
    const created = await nodes[0]!.inject({
      method: 'POST',
      url: '/api/chat/channels/',
      headers: bearer(a.access),
      payload: { customType: 'group', name: 'Files desk', invitedUserIds: [b.id] },
    });
    if (created.statusCode !== 201) throw new Error(`create channel: ${created.statusCode} ${created.body}`);
    channel = json<Channel>(created);
    const accepted = await nodes[1]!.inject({
      method: 'POST',
      url: `/api/chat/channels/${channel.url}/accept/`,
      headers: bearer(b.access),
      payload: {},
    });
    if (accepted.statusCode !== 200) throw new Error(`accept: ${accepted.statusCode} ${accepted.body}`);
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  const upload = (node: number, user: ChatUser, bytes: Buffer, name: string, id = reqId()) =>
    nodes[node]!.inject({
      method: 'POST',
      url: `/api/chat/channels/${channel.url}/files/?reqId=${id}&fileName=${name}`,
      headers: { ...bearer(user.access), 'content-type': 'image/png' },
      payload: bytes,
    });
  const download = (node: number, user: ChatUser | null, fileUrl: string) =>
    nodes[node]!.inject({ method: 'GET', url: fileUrl, headers: user ? bearer(user.access) : {} });
  const count = async (sqlText: string, params: unknown[] = []) =>
    Number((await nodes[0]!.deps.database.query<{ n: number }>(sqlText, params))[0]!.n);

  it('serves a file uploaded through node A, byte-identical, through node B (and A)', async () => {
    // 2.5 MB: several read slices, every byte value.
    const bytes = pngOf(2_500_000 + 17);
    const sent = await upload(0, a, bytes, 'curve.png');
    expect(sent.statusCode, sent.body).toBe(201);
    const message = json<ChatMessage>(sent);
    expect(message).toMatchObject({ messageType: 'file', file: { name: 'curve.png', size: bytes.length, type: 'image/png' } });
    const fileUrl = message.file!.url;

    for (const [node, user] of [
      [1, b],
      [0, b],
      [1, a],
    ] as const) {
      const got = await download(node, user, fileUrl);
      expect(got.statusCode, `node ${node}: ${got.body.slice(0, 200)}`).toBe(200);
      expect(got.headers['content-type']).toBe('image/png');
      expect(got.headers['content-disposition']).toContain('curve.png');
      expect(got.rawPayload.equals(bytes)).toBe(true);
    }
    // The bytes live in the shared database, not on either node's disk.
    for (const node of nodes) expect(node.deps.files.kind).toBe('postgres');
    for (const node of nodes) {
      const entries = await readdir(path.join(node.deps.config.dataDir)).catch(() => [] as string[]);
      expect(entries).not.toContain('files');
    }
  });

  it('refuses a non-member, and a caller without a session, the same way on both nodes', async () => {
    const sent = await upload(1, b, pngOf(4096), 'axes.png');
    expect(sent.statusCode, sent.body).toBe(201);
    const fileUrl = json<ChatMessage>(sent).file!.url;

    const refusals = await Promise.all([download(0, outsider, fileUrl), download(1, outsider, fileUrl)]);
    for (const refused of refusals) {
      expect(refused.statusCode).toBe(404);
      expect(json(refused)).toMatchObject({ code: 'NOT_FOUND', message: 'File not found.' });
    }
    expect(json(refusals[0]!)).toEqual(json(refusals[1]!));

    const anonymous = await Promise.all([download(0, null, fileUrl), download(1, null, fileUrl)]);
    expect(anonymous.map((r) => r.statusCode)).toEqual([401, 401]);
    expect(json(anonymous[0]!)).toEqual(json(anonymous[1]!));
    // The members still get it on both.
    expect((await download(0, a, fileUrl)).statusCode).toBe(200);
    expect((await download(1, b, fileUrl)).statusCode).toBe(200);
  });

  it('stores the same bytes uploaded on both nodes at once as one blob, and serves both messages', async () => {
    const bytes = pngOf(300_000);
    const [onA, onB] = await Promise.all([upload(0, a, bytes, 'same-a.png'), upload(1, b, bytes, 'same-b.png')]);
    expect([onA.statusCode, onB.statusCode]).toEqual([201, 201]);
    const key = (
      await nodes[0]!.deps.database.query<{ storage_key: string }>('SELECT storage_key FROM chat_files WHERE name = $1', ['same-a.png'])
    )[0]!.storage_key;
    expect(await count('SELECT count(*)::int AS n FROM file_blobs WHERE sha256 = $1', [key])).toBe(1);
    expect((await download(1, b, json<ChatMessage>(onA).file!.url)).rawPayload.equals(bytes)).toBe(true);
    expect((await download(0, a, json<ChatMessage>(onB).file!.url)).rawPayload.equals(bytes)).toBe(true);
  });

  it('writes the blob before the message: a send that fails afterwards leaves only an unreachable blob', async () => {
    const id = reqId();
    const first = pngOf(2048);
    const original = await upload(0, a, first, 'first.png', id);
    expect(original.statusCode, original.body).toBe(201);
    // The same reqId again with other bytes, through the other node: the send is a replay (200, the first
    // message), but the new bytes were stored before the send found that out.
    const second = pngOf(2048);
    const replay = await upload(1, a, second, 'second.png', id);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(json<ChatMessage>(replay).messageId).toBe(json<ChatMessage>(original).messageId);
    const secondKey = createHash('sha256').update(second).digest('hex');
    expect(await count('SELECT count(*)::int AS n FROM file_blobs WHERE sha256 = $1', [secondKey])).toBe(1);
    expect(await count('SELECT count(*)::int AS n FROM chat_files WHERE storage_key = $1', [secondKey])).toBe(0);
    // Every file row, on the other hand, names a stored blob.
    expect(
      await count('SELECT count(*)::int AS n FROM chat_files f LEFT JOIN file_blobs b ON b.sha256 = f.storage_key WHERE b.sha256 IS NULL'),
    ).toBe(0);
  });

  it('writes no message when the blob cannot be stored', async () => {
    const before = await count('SELECT last_position::int AS n FROM chat_channels WHERE url = $1', [channel.url]);
    const files = await count('SELECT count(*)::int AS n FROM chat_files');
    // A store that cannot write (its table is out of reach for a moment): the upload fails and nothing is sent.
    await nodes[0]!.deps.database.exec('ALTER TABLE file_blobs RENAME TO file_blobs_away');
    try {
      const failed = await upload(1, a, pngOf(2048), 'lost.png');
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await nodes[0]!.deps.database.exec('ALTER TABLE file_blobs_away RENAME TO file_blobs');
    }
    expect(await count('SELECT last_position::int AS n FROM chat_channels WHERE url = $1', [channel.url])).toBe(before);
    expect(await count('SELECT count(*)::int AS n FROM chat_files')).toBe(files);
  });
});
