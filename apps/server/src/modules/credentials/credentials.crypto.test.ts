import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyIdOf, openSecret, recordContext, sealSecret } from './credentials.crypto';

describe('envelope encryption of exchange passwords', () => {
  const kek = randomBytes(32);
  const context = recordContext('1b0e1a56-0000-4000-8000-000000000001', 'NSCCL');

  it('round-trips a password and never stores it, nor the data key, in clear', () => {
    const sealed = sealSecret(kek, 'Nse#Secret 2026', context);
    expect(sealed.passwordSealed).not.toContain('Nse#Secret');
    expect(Buffer.from(sealed.passwordSealed.split('.')[3]!, 'base64url').toString('utf8')).not.toContain('Secret');
    expect(sealed.keyId).toBe(keyIdOf(kek));
    expect(openSecret(kek, sealed, context)).toBe('Nse#Secret 2026');
  });

  it('gives each record its own data key: the same password seals differently', () => {
    const a = sealSecret(kek, 'same', context);
    const b = sealSecret(kek, 'same', context);
    expect(a.passwordSealed).not.toBe(b.passwordSealed);
    expect(a.dataKeyWrapped).not.toBe(b.dataKeyWrapped);
  });

  it('refuses another key, another firm or corp, and a tampered record', () => {
    const sealed = sealSecret(kek, 'pw', context);
    expect(() => openSecret(randomBytes(32), sealed, context)).toThrow(/another key/);
    expect(() => openSecret(kek, { ...sealed, keyId: keyIdOf(kek) }, recordContext('other', 'NSCCL'))).toThrow(
      /unable to authenticate data/,
    );
    expect(() => openSecret(kek, sealed, recordContext('1b0e1a56-0000-4000-8000-000000000001', 'ICCL'))).toThrow(
      /unable to authenticate data/,
    );
    const [v, iv, tag, body] = sealed.passwordSealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => openSecret(kek, { ...sealed, passwordSealed: [v, iv, tag, flipped.toString('base64url')].join('.') }, context)).toThrow(
      /unable to authenticate data/,
    );
  });
});
