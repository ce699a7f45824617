import { describe, expect, it } from 'vitest';
import { simulatedSize } from './simulated-participants';

const CRORE = 10_000_000;
/** Every draw of a generator: 0, 1/n, …, (n-1)/n. */
const draws = (n: number) => Array.from({ length: n }, (_, i) => () => i / n);

describe('simulatedSize: the simulated participants trade realistic face value (issue 12 §1)', () => {
  it('asks ₹5–100 Cr of a G-sec, SDL or T-bill, in whole ₹100 bonds', () => {
    for (const type of ['G-Sec', 'SDL', 'T-Bill'])
      for (const random of draws(40)) {
        const size = simulatedSize({ security_type: type, face_value: 100 }, random);
        expect(size).toBeGreaterThanOrEqual(5 * CRORE);
        expect(size).toBeLessThanOrEqual(100 * CRORE);
        expect(size % 100).toBe(0);
      }
  });

  it('asks ₹1–50 Cr of a corporate bond, CP or CD, always a whole number of its bonds', () => {
    for (const faceValue of [100_000, 1_000_000, 500_000, CRORE])
      for (const random of draws(40)) {
        const size = simulatedSize({ security_type: 'Corporate Bond', face_value: faceValue }, random);
        expect(size).toBeGreaterThanOrEqual(CRORE);
        expect(size).toBeLessThanOrEqual(50 * CRORE);
        expect(size % faceValue).toBe(0);
      }
  });

  it('rounds up to one bond when a bond is worth more than the drawn size', () => {
    expect(simulatedSize({ security_type: 'CP', face_value: 3 * CRORE }, () => 0)).toBe(3 * CRORE);
  });
});
