/**
 * FileStore: where uploaded bytes live (chat files now; inventory sheets and attachments later).
 * Metadata (name, type, owner) stays in the database; the store only knows opaque keys it made
 * itself, so a client-supplied file name never becomes a path (RELIABILITY #29).
 *
 * Two stores behind one interface, picked by `createFileStore`:
 * - PostgreSQL (DATABASE_URL set): the `file_blobs` table, so every node serves every file.
 * - The embedded default (PGlite, one node): a folder under DATA_DIR.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../db/client';

export interface StoredFile {
  /** Opaque key: the SHA-256 of the bytes (content-addressed, so identical uploads share storage). */
  key: string;
  size: number;
  sha256: string;
}

export interface FileStore {
  /** `local` or `postgres`: shown in logs. */
  readonly kind: 'local' | 'postgres';
  /**
   * Stores the bytes and resolves once they are durable and readable by every node that shares the
   * store. Callers write it before the database row that names the key, never inside that row's
   * transaction (see createPostgresFileStore).
   */
  put(bytes: Buffer): Promise<StoredFile>;
  /** The bytes, or null when the key is unknown or malformed. */
  get(key: string): Promise<Buffer | null>;
}

const KEY = /^[0-9a-f]{64}$/;

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Local disk under `root` (default `${DATA_DIR}/files`): `ab/abcdef…` by content hash. One node only. */
export function createLocalFileStore(root: string): FileStore {
  const pathOf = (key: string) => path.join(root, key.slice(0, 2), key);
  return {
    kind: 'local',
    async put(bytes) {
      const sha256 = sha256Of(bytes);
      const target = pathOf(sha256);
      const exists = await stat(target).then(
        (s) => s.size === bytes.length,
        () => false,
      );
      if (!exists) {
        await mkdir(path.dirname(target), { recursive: true });
        // Write then rename: a reader never sees a half-written file.
        const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
        await writeFile(temp, bytes, { mode: 0o600 });
        await rename(temp, target);
      }
      return { key: sha256, size: bytes.length, sha256 };
    },
    async get(key) {
      if (!KEY.test(key)) return null;
      return readFile(pathOf(key)).catch(() => null);
    },
  };
}

/**
 * Bytes are read back in slices of this size: node-postgres receives bytea as hex text (two
 * characters per byte), so one 10 MB read would hold about 50 MB at once (the 20 MB message, its
 * 20 MB string and the 10 MB result); slices keep that near the file's own size.
 */
export const BLOB_READ_SLICE = 1024 * 1024;

const asBuffer = (value: unknown): Buffer => {
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  throw new Error('file_blobs.bytes did not come back as bytes');
};

/**
 * The `file_blobs` table (migration 0010): one row per distinct content, keyed by its SHA-256.
 *
 * `put` writes in its own statement, before (and outside) the transaction that inserts the file row
 * and its message. The order is the point: an upload that fails after `put` leaves a blob no row
 * names (harmless garbage: nothing can reach it, and the same bytes uploaded again reuse it), while
 * the reverse order could commit a message whose download 404s on every node. Joining the caller's
 * transaction would also hold that transaction (and the channel row lock that orders positions)
 * open while up to 10 MB travel to the database.
 *
 * Idempotent across nodes: INSERT … ON CONFLICT DO NOTHING, so two nodes storing the same bytes at
 * the same moment both succeed and one row remains. The bytes are sent as a binary parameter (no
 * hex or base64 on the way in) and stored uncompressed out of line (STORAGE EXTERNAL), so a slice
 * read touches only its own TOAST chunks.
 */
export function createPostgresFileStore(database: Database): FileStore {
  return {
    kind: 'postgres',
    async put(bytes) {
      const sha256 = sha256Of(bytes);
      // The same bytes are already stored (a re-upload, or another node's): skip sending them again.
      const [known] = await database.query<{ size: number }>('SELECT size FROM file_blobs WHERE sha256 = $1', [sha256]);
      if (!known)
        await database.query('INSERT INTO file_blobs (sha256, size, bytes) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING', [
          sha256,
          bytes.length,
          bytes,
        ]);
      return { key: sha256, size: bytes.length, sha256 };
    },
    async get(key) {
      if (!KEY.test(key)) return null;
      // The size and the first slice in one round trip (most chat files fit in one slice).
      const [row] = await database.query<{ size: number; part: unknown }>(
        'SELECT size, substring(bytes FROM 1 FOR $2) AS part FROM file_blobs WHERE sha256 = $1',
        [key, BLOB_READ_SLICE],
      );
      if (!row) return null;
      const first = asBuffer(row.part);
      if (first.length >= row.size) return first.length === row.size ? first : null;
      const out = Buffer.allocUnsafe(row.size);
      first.copy(out, 0);
      let filled = first.length;
      while (filled < row.size) {
        const [next] = await database.query<{ part: unknown }>(
          'SELECT substring(bytes FROM $2 FOR $3) AS part FROM file_blobs WHERE sha256 = $1',
          [key, filled + 1, BLOB_READ_SLICE],
        );
        const part = next ? asBuffer(next.part) : Buffer.alloc(0);
        // Rows are never updated, so a short slice means the row is not what its size says: refuse it.
        if (part.length === 0) return null;
        filled += part.copy(out, filled);
      }
      return out;
    },
  };
}

/**
 * The store a node uses: PostgreSQL whenever the app runs on it (several nodes may share that
 * database, and each must serve every file), the local folder on the embedded database (one node).
 */
export function createFileStore(database: Database, localRoot: string): FileStore {
  return database.driver === 'postgres' ? createPostgresFileStore(database) : createLocalFileStore(localRoot);
}
