/**
 * Canonical JSON for hashing: object keys sorted at every depth, `undefined` as null, dates as ISO text and
 * raw bytes as their SHA-256, so the same value always gives the same text whatever order its keys were
 * built in. Used by the audit hash chain and by the idempotency request fingerprint.
 */
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Buffer.isBuffer(value)) return `"sha256:${createHash('sha256').update(value).digest('hex')}"`;
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (typeof value === 'object')
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
