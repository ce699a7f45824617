/**
 * FileStore: where uploaded bytes live (chat files now; inventory sheets and attachments later).
 * Metadata (name, type, owner) stays in the database; the store only knows opaque keys it made
 * itself, so a client-supplied file name never becomes a path (RELIABILITY #29).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface StoredFile {
  /** Opaque key: the SHA-256 of the bytes (content-addressed, so identical uploads share storage). */
  key: string;
  size: number;
  sha256: string;
}

export interface FileStore {
  put(bytes: Buffer): Promise<StoredFile>;
  /** The bytes, or null when the key is unknown or malformed. */
  get(key: string): Promise<Buffer | null>;
}

const KEY = /^[0-9a-f]{64}$/;

/** Local disk under `root` (default `${DATA_DIR}/files`): `ab/abcdef…` by content hash. */
export function createLocalFileStore(root: string): FileStore {
  const pathOf = (key: string) => path.join(root, key.slice(0, 2), key);
  return {
    async put(bytes) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
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
