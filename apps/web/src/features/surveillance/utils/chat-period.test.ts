import { SURVEILLANCE_MESSAGES } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { chatPeriodErrors, defaultChatPeriod, describePeriod, exportRange, istDayOf, istDayStart, toChatPeriodQuery } from './chat-period';

describe('chat period (IST days)', () => {
  it('reads instants as IST days: 19:00 UTC is already the next day in India', () => {
    expect(istDayOf(new Date('2026-01-10T18:29:59Z'))).toBe('2026-01-10');
    expect(istDayOf(new Date('2026-01-10T18:30:00Z'))).toBe('2026-01-11');
    expect(istDayStart('2026-01-11').toISOString()).toBe('2026-01-10T18:30:00.000Z');
    expect(istDayStart('2026-01-31', 1).toISOString()).toBe('2026-01-31T18:30:00.000Z');
  });

  it('defaults to the last 30 IST days, today included', () => {
    expect(defaultChatPeriod(new Date('2026-03-01T20:00:00Z'))).toEqual({ from: '2026-02-01', to: '2026-03-02' });
  });

  it("checks the period with the server's schema and its messages", () => {
    expect(chatPeriodErrors({ from: '2026-01-01', to: '2026-01-31' })).toEqual({});
    expect(chatPeriodErrors({ from: '', to: '' })).toEqual({});
    expect(chatPeriodErrors({ from: '2026-02-01', to: '2026-01-31' })).toEqual({ to: SURVEILLANCE_MESSAGES.dateOrder });
    expect(chatPeriodErrors({ from: '2026-13-01', to: '' })).toEqual({ from: SURVEILLANCE_MESSAGES.date });
    expect(toChatPeriodQuery({ from: '', to: '2026-01-31' })).toEqual({ to: '2026-01-31' });
  });

  it('turns the period into the transcript range: whole IST days, else the chat start and now', () => {
    const now = new Date('2026-03-01T10:00:00Z');
    expect(exportRange({ from: '2026-01-10', to: '2026-01-10' }, '2025-12-01T00:00:00Z', now)).toEqual({
      startTime: '2026-01-09T18:30:00.000Z',
      endTime: '2026-01-10T18:30:00.000Z',
    });
    expect(exportRange({ from: '', to: '' }, '2025-12-01T00:00:00.000Z', now)).toEqual({
      startTime: '2025-12-01T00:00:00.000Z',
      endTime: '2026-03-01T10:01:00.000Z',
    });
  });

  it('says the period in words', () => {
    expect(describePeriod({ from: '2026-01-01', to: '2026-01-31' })).toBe('2026-01-01 to 2026-01-31 (IST)');
    expect(describePeriod({ from: '2026-01-01', to: '' })).toBe('from 2026-01-01 (IST)');
    expect(describePeriod({ from: '', to: '2026-01-31' })).toBe('up to 2026-01-31 (IST)');
    expect(describePeriod({ from: '', to: '' })).toBe('the whole chat');
  });
});
