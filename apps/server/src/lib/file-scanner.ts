/**
 * FileScanner: the anti-virus hook every stored upload passes through before it reaches the FileStore
 * (RELIABILITY #30). Two engines behind one interface:
 *
 * - `createClamdScanner(address)`: ClamAV's daemon over its INSTREAM protocol (a unix socket path, or
 *   `host:port`). Set CLAMD_ADDRESS in production. It fails closed: when clamd cannot be reached or
 *   answers anything but OK/FOUND, the upload is refused with 503 and nothing is stored.
 * - `createSignatureScanner()`: the built-in fallback with no daemon. It knows the EICAR anti-virus
 *   test file only, so the hook and its refusal path are exercised everywhere (tests, the embedded
 *   default); it is not a virus scanner, and the server logs a warning when production runs on it.
 */
import { createConnection, type Socket } from 'node:net';
import { FILE_SCAN_MESSAGES } from '@dart/contracts';
import { AppError, fieldError } from './errors';
import type { FileStore } from './file-store';

export type ScanVerdict = { clean: true } | { clean: false; signature: string };

export interface FileScanner {
  /** `builtin` or `clamd`: shown in logs and health. */
  readonly engine: string;
  scan(bytes: Buffer): Promise<ScanVerdict>;
}

/** The EICAR standard anti-virus test file (eicar.org): 68 printable ASCII characters. */
const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*', 'latin1');

export function createSignatureScanner(): FileScanner {
  return {
    engine: 'builtin',
    scan(bytes) {
      // Real engines match the test string anywhere in a file too (e.g. inside an archive member stored
      // without compression), so this does as well.
      if (bytes.includes(EICAR)) return Promise.resolve({ clean: false, signature: 'Eicar-Test-Signature' });
      return Promise.resolve({ clean: true });
    },
  };
}

const CLAMD_CHUNK = 64 * 1024;
const CLAMD_TIMEOUT_MS = 10_000;

/** `/run/clamav/clamd.ctl` (unix socket) or `host:port` (TCP). */
function connectTo(address: string): Socket {
  const tcp = /^(.+):(\d+)$/.exec(address);
  return tcp && !address.startsWith('/') ? createConnection({ host: tcp[1]!, port: Number(tcp[2]) }) : createConnection({ path: address });
}

/**
 * clamd INSTREAM: `zINSTREAM\0`, then chunks of `<uint32 BE length><bytes>`, then a zero length; the
 * reply is one NUL-terminated line, `stream: OK` or `stream: <signature> FOUND` (or `… ERROR`).
 */
export function createClamdScanner(address: string, timeoutMs = CLAMD_TIMEOUT_MS): FileScanner {
  const unavailable = () => new AppError('SERVICE_UNAVAILABLE', FILE_SCAN_MESSAGES.scannerUnavailable);
  return {
    engine: 'clamd',
    scan(bytes) {
      return new Promise<ScanVerdict>((resolve, reject) => {
        const socket = connectTo(address);
        let reply = '';
        let settled = false;
        const finish = (error: AppError | null, verdict?: ScanVerdict) => {
          if (settled) return;
          settled = true;
          socket.destroy();
          if (error) reject(error);
          else resolve(verdict!);
        };
        socket.setTimeout(timeoutMs, () => finish(unavailable()));
        socket.on('error', () => finish(unavailable()));
        socket.on('connect', () => {
          socket.write('zINSTREAM\0');
          for (let offset = 0; offset < bytes.length; offset += CLAMD_CHUNK) {
            const chunk = bytes.subarray(offset, offset + CLAMD_CHUNK);
            const length = Buffer.alloc(4);
            length.writeUInt32BE(chunk.length);
            socket.write(length);
            socket.write(chunk);
          }
          socket.write(Buffer.alloc(4));
        });
        socket.on('data', (data: Buffer) => {
          reply += data.toString('latin1');
          const end = reply.indexOf('\0');
          if (end < 0 && reply.length < 4096) return;
          const line = (end < 0 ? reply : reply.slice(0, end)).trim();
          if (/^stream: OK$/.test(line)) finish(null, { clean: true });
          else {
            const found = /^stream: (.+) FOUND$/.exec(line);
            // Anything else (size limit exceeded, ERROR, garbage) is not a verdict: fail closed.
            if (found) finish(null, { clean: false, signature: found[1]! });
            else finish(unavailable());
          }
        });
        socket.on('end', () => finish(unavailable()));
      });
    },
  };
}

/** Picks the engine from the configuration: clamd when an address is set, else the built-in list. */
export function createFileScanner(clamdAddress: string | undefined): FileScanner {
  return clamdAddress ? createClamdScanner(clamdAddress) : createSignatureScanner();
}

/**
 * A FileStore whose `put` scans first: an infected upload is refused with a field error on `file`
 * (400) and never written; a scanner that cannot answer refuses with 503 (fail closed).
 */
export function scanningFileStore(store: FileStore, scanner: FileScanner, onInfected?: (signature: string) => void): FileStore {
  return {
    kind: store.kind,
    async put(bytes) {
      const verdict = await scanner.scan(bytes);
      if (!verdict.clean) {
        onInfected?.(verdict.signature);
        throw fieldError('file', FILE_SCAN_MESSAGES.infected);
      }
      return store.put(bytes);
    },
    get: (key) => store.get(key),
  };
}
