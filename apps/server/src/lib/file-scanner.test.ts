import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FILE_SCAN_MESSAGES } from '@dart/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { createClamdScanner, createSignatureScanner, scanningFileStore } from './file-scanner';
import { createLocalFileStore } from './file-store';

const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

/**
 * A peer that speaks clamd's INSTREAM the way clamd does: reads the command, reassembles the
 * length-prefixed chunks up to the zero terminator and answers for the whole stream. `behaviour`
 * scripts the failures a real daemon shows (no answer, a non-verdict line, a dropped connection).
 */
function startClamdPeer(behaviour: 'scan' | 'silent' | 'error-line' | 'hang-up' = 'scan') {
  const streams: Buffer[] = [];
  const server: Server = createServer((socket: Socket) => {
    let buffer = Buffer.alloc(0);
    let commandSeen = false;
    const chunks: Buffer[] = [];
    socket.on('data', (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      if (!commandSeen) {
        const end = buffer.indexOf(0);
        if (end < 0) return;
        if (buffer.subarray(0, end).toString() !== 'zINSTREAM') return socket.end('UNKNOWN COMMAND\0');
        commandSeen = true;
        buffer = buffer.subarray(end + 1);
      }
      while (buffer.length >= 4) {
        const length = buffer.readUInt32BE(0);
        if (length === 0) {
          const stream = Buffer.concat(chunks);
          streams.push(stream);
          if (behaviour === 'silent') return;
          if (behaviour === 'hang-up') return socket.destroy();
          if (behaviour === 'error-line') return socket.end('INSTREAM size limit exceeded. ERROR\0');
          return socket.end(stream.includes(EICAR) ? 'stream: Win.Test.EICAR_HDB-1 FOUND\0' : 'stream: OK\0');
        }
        if (buffer.length < 4 + length) return;
        chunks.push(buffer.subarray(4, 4 + length));
        buffer = buffer.subarray(4 + length);
      }
    });
  });
  return new Promise<{ address: string; streams: Buffer[]; close: () => Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ address: `127.0.0.1:${port}`, streams, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('createSignatureScanner', () => {
  it('finds the EICAR test file, alone or inside other bytes', async () => {
    const scanner = createSignatureScanner();
    expect(await scanner.scan(Buffer.from(EICAR))).toEqual({ clean: false, signature: 'Eicar-Test-Signature' });
    expect((await scanner.scan(Buffer.from(`trade notes\n${EICAR}\n`))).clean).toBe(false);
  });

  it('passes ordinary files', async () => {
    const scanner = createSignatureScanner();
    expect(await scanner.scan(Buffer.from('ISIN,price\nIN0020230085,100.25\n'))).toEqual({ clean: true });
    // One character off is not the signature.
    expect(await scanner.scan(Buffer.from(EICAR.replace('EICAR', 'EICAX')))).toEqual({ clean: true });
  });
});

describe('createClamdScanner (INSTREAM)', () => {
  it('streams the bytes in length-prefixed chunks and reads the verdict', async () => {
    const peer = await startClamdPeer();
    cleanups.push(peer.close);
    const scanner = createClamdScanner(peer.address);
    // 200 KiB spans several 64 KiB chunks; the peer reassembles exactly what was sent.
    const large = Buffer.alloc(200 * 1024, 'a');
    expect(await scanner.scan(large)).toEqual({ clean: true });
    expect(peer.streams[0]!.equals(large)).toBe(true);
    expect(await scanner.scan(Buffer.concat([large, Buffer.from(EICAR)]))).toEqual({ clean: false, signature: 'Win.Test.EICAR_HDB-1' });
    expect(await scanner.scan(Buffer.alloc(0))).toEqual({ clean: true });
  });

  it.each([
    ['a daemon that is not there', 'absent'],
    ['an answer that is not a verdict', 'error-line'],
    ['a dropped connection', 'hang-up'],
    ['no answer within the timeout', 'silent'],
  ] as const)('fails closed (503) on %s', async (_label, behaviour) => {
    let address = '127.0.0.1:1';
    if (behaviour !== 'absent') {
      const peer = await startClamdPeer(behaviour);
      cleanups.push(peer.close);
      address = peer.address;
    }
    const error = await createClamdScanner(address, 300)
      .scan(Buffer.from('hello'))
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(503);
    expect((error as AppError).message).toBe(FILE_SCAN_MESSAGES.scannerUnavailable);
  });
});

describe('scanningFileStore', () => {
  it('stores clean files and refuses infected ones without writing anything', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'dart-scan-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const seen: string[] = [];
    const store = scanningFileStore(createLocalFileStore(root), createSignatureScanner(), (signature) => seen.push(signature));

    const refused = await store.put(Buffer.from(EICAR)).then(
      () => null,
      (e: unknown) => e as AppError,
    );
    expect(refused?.status).toBe(400);
    expect(refused?.fieldErrors).toEqual({ file: [FILE_SCAN_MESSAGES.infected] });
    expect(seen).toEqual(['Eicar-Test-Signature']);
    expect(readdirSync(root)).toEqual([]);

    const stored = await store.put(Buffer.from('clean'));
    expect((await store.get(stored.key))?.toString()).toBe('clean');
  });
});
