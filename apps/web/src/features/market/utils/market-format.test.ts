import { describe, expect, it } from 'vitest';
import { countdownState, formatTimeLeft } from './market-format';

describe('countdown of a validity end', () => {
  const end = '2026-11-25T10:00:00.000Z';
  const at = (iso: string) => Date.parse(iso);

  it('counts down in days, hours, minutes and seconds', () => {
    expect(formatTimeLeft(end, at('2026-11-23T08:00:00Z'))).toBe('2d 2h');
    expect(formatTimeLeft(end, at('2026-11-25T07:55:00Z'))).toBe('2h 05m');
    expect(formatTimeLeft(end, at('2026-11-25T09:55:50Z'))).toBe('4m 10s');
  });

  it('is urgent (shown red) under one minute and says Expired at the end', () => {
    expect(countdownState(end, at('2026-11-25T09:58:59Z'))).toEqual({ label: '1m 01s', urgent: false, expired: false });
    expect(countdownState(end, at('2026-11-25T09:59:01Z'))).toEqual({ label: '0m 59s', urgent: true, expired: false });
    expect(countdownState(end, at('2026-11-25T10:00:00Z'))).toEqual({ label: 'Expired', urgent: false, expired: true });
    expect(countdownState('not a date', 0)).toMatchObject({ label: 'Expired', expired: true });
  });
});
