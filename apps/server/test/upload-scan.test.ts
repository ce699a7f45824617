/**
 * The anti-virus hook on stored uploads (RELIABILITY #30), through the chat file route on every
 * driver: the EICAR test file is refused with a field error and nothing is stored (no bytes, no file
 * row, no message, no position used); a configured ClamAV daemon that cannot be reached refuses uploads with
 * 503 (fail closed) and stores nothing either.
 */
import { createServer } from 'node:net';
import { FILE_SCAN_MESSAGES, type Channel, type ChatMessage } from '@dart/contracts';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, type TestApp } from './helpers';
import { chatUser, type ChatUser } from './chat-support';

const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*', 'latin1');

/** A port with nothing listening: bound, then released. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe.each(DRIVERS)('upload virus scan (%s)', (driver) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function deskChannel(app: TestApp) {
    const a = await chatUser(app.app, 'dealer@demo.dart');
    const b = await chatUser(app.app, 'dealer@second.dart');
    const created = await app.app.inject({
      method: 'POST',
      url: '/api/chat/channels/',
      headers: bearer(a.access),
      payload: { customType: 'group', name: 'Scan desk', invitedUserIds: [b.id] },
    });
    expect(created.statusCode, created.body).toBe(201);
    return { a, channel: json<Channel>(created) };
  }
  const upload = (app: TestApp, user: ChatUser, url: string, body: Buffer, name: string) =>
    app.app.inject({
      method: 'POST',
      url: `/api/chat/channels/${url}/files/?reqId=${name}-${Date.now()}&fileName=${name}`,
      headers: { ...bearer(user.access), 'content-type': 'text/plain' },
      payload: body,
    });
  const stored = async (app: TestApp, url: string) => {
    const files = await app.app.deps.database.db.execute(sql`SELECT count(*)::int AS n FROM chat_files`);
    // The bytes' own table (PostgreSQL's FileStore; always empty on the embedded database, which keeps a folder).
    const blobs = await app.app.deps.database.db.execute(sql`SELECT count(*)::int AS n FROM file_blobs`);
    const channel = await app.app.deps.database.db.execute(sql`SELECT last_position FROM chat_channels WHERE url = ${url}`);
    const rows = (r: unknown) => ((r as { rows?: unknown[] }).rows ?? (r as unknown[])) as Array<Record<string, number>>;
    return { files: Number(rows(files)[0]!.n), blobs: Number(rows(blobs)[0]!.n), position: Number(rows(channel)[0]!.last_position) };
  };

  it('refuses the EICAR test file with a field error and stores nothing; a clean file goes through', async () => {
    t = await createTestApp(driver);
    const { a, channel } = await deskChannel(t);
    const before = await stored(t, channel.url);

    const refused = await upload(t, a, channel.url, Buffer.concat([Buffer.from('desk notes\n'), EICAR]), 'notes.txt');
    expect(refused.statusCode).toBe(400);
    expect(json(refused)).toMatchObject({ code: 'VALIDATION_FAILED', errors: { file: [FILE_SCAN_MESSAGES.infected] } });
    expect(await stored(t, channel.url)).toEqual(before);
    expect(t.logs.join('')).toContain('upload refused by the virus scan');

    const clean = await upload(t, a, channel.url, Buffer.from('Axes: 7.18% GS 2034 bid 5 cr\n'), 'axes.txt');
    expect(clean.statusCode, clean.body).toBe(201);
    expect(json<ChatMessage>(clean)).toMatchObject({ messageType: 'file', position: before.position + 1 });
    expect(await stored(t, channel.url)).toEqual({
      files: before.files + 1,
      blobs: before.blobs + (driver === 'postgres' ? 1 : 0),
      position: before.position + 1,
    });
  });

  it('fails closed when the configured ClamAV daemon cannot be reached', async () => {
    t = await createTestApp(driver, { CLAMD_ADDRESS: `127.0.0.1:${await closedPort()}` });
    const { a, channel } = await deskChannel(t);
    const before = await stored(t, channel.url);
    const response = await upload(t, a, channel.url, Buffer.from('plain text'), 'plain.txt');
    expect(response.statusCode).toBe(503);
    expect(json(response)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: FILE_SCAN_MESSAGES.scannerUnavailable });
    expect(await stored(t, channel.url)).toEqual(before);
  });
});
