/**
 * Envelope encryption of exchange passwords (README "Encryption at rest"). Each record gets its own random
 * 256-bit data key; the password is sealed with AES-256-GCM under that data key, and the data key is sealed
 * with AES-256-GCM under the key-encryption key from configuration (CREDENTIALS_KEY). Both seals are bound to
 * the record's firm and clearing corporation (GCM additional data), so a sealed value copied onto another
 * firm's row does not open. Sealed text: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { sha256 } from '../../lib/crypto';

const VERSION = 'v1';
const IV_BYTES = 12;

/** What a record stores: the sealed password, its sealed data key and which key-encryption key sealed that. */
export interface SealedSecret {
  passwordSealed: string;
  dataKeyWrapped: string;
  keyId: string;
}

/** A short public name of a key-encryption key (never the key): the first 16 hex digits of SHA-256 over it. */
export const keyIdOf = (kek: Buffer): string => sha256(`dart-credentials-kek:${kek.toString('hex')}`).slice(0, 16);

function seal(key: Buffer, plaintext: Buffer, aad: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

function open(key: Buffer, sealed: string, aad: string): Buffer {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('Unknown sealed-secret format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
}

/** The GCM additional data of a record: its firm and clearing corporation. */
export const recordContext = (clientId: string, corp: string): string => `exchange-credentials:${clientId}:${corp}`;

/** Seals a password under a fresh data key, itself sealed under `kek`. */
export function sealSecret(kek: Buffer, password: string, context: string): SealedSecret {
  const dataKey = randomBytes(32);
  try {
    return {
      passwordSealed: seal(dataKey, Buffer.from(password, 'utf8'), context),
      dataKeyWrapped: seal(kek, dataKey, `${context}:data-key`),
      keyId: keyIdOf(kek),
    };
  } finally {
    dataKey.fill(0);
  }
}

/** Opens a sealed password; throws when `kek` is not the key that sealed it or the record was altered. */
export function openSecret(kek: Buffer, secret: SealedSecret, context: string): string {
  if (secret.keyId !== keyIdOf(kek)) throw new Error('Sealed under another key-encryption key');
  const dataKey = open(kek, secret.dataKeyWrapped, `${context}:data-key`);
  try {
    return open(dataKey, secret.passwordSealed, context).toString('utf8');
  } finally {
    dataKey.fill(0);
  }
}
