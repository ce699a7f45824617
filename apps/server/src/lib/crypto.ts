/** Hashing helpers: scrypt for passwords (no native build), SHA-256 for high-entropy tokens. */
import { createHash, randomBytes, randomInt, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;
/** OWASP password storage cheat sheet: scrypt N=2^16, r=8, p=2 (64 MiB, one of its listed settings). */
const SCRYPT = { N: 2 ** 16, r: 8, p: 2, maxmem: 128 * 1024 * 1024 } as const;
const KEY_LENGTH = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  // Unknown users still pay for one hash so timing does not reveal who exists (RELIABILITY #4).
  const [scheme, n, r, p, saltB64, keyB64] = (stored ?? DUMMY_HASH).split('$');
  if (scheme !== 'scrypt' || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, 'base64');
  const key = await scrypt(password.normalize('NFKC'), Buffer.from(saltB64, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return stored !== null && timingSafeEqual(key, expected);
}
/** A well-formed hash of a random password, used to equalise timing for unknown users. */
const DUMMY_HASH = `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${randomBytes(16).toString('base64')}$${randomBytes(32).toString('base64')}`;

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
/** 256-bit opaque token, base64url. */
export const newOpaqueToken = (): string => randomBytes(32).toString('base64url');
/** Six-digit code from the CSPRNG (RELIABILITY #1). */
export const newOtpCode = (): string => randomInt(0, 1_000_000).toString().padStart(6, '0');
/** Compare two hex digests in constant time. */
export function digestEquals(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}
