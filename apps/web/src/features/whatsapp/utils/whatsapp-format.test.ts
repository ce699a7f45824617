import { describe, expect, it } from 'vitest';
import {
  describeBody,
  describeConsent,
  describeConsentEntry,
  describeStatus,
  formatStepTime,
  WHATSAPP_STATUS_LABELS,
} from './whatsapp-format';

const at = (iso: string) => `<${iso}>`;

describe('WhatsApp consent words', () => {
  it('says when and from where the standing answer was given or withdrawn', () => {
    expect(describeConsent({ consented: true, source: 'profile', at: '2026-11-27T18:00:00Z' }, at)).toBe(
      'Given from your profile on <2026-11-27T18:00:00Z>',
    );
    expect(describeConsent({ consented: false, source: 'profile', at: '2026-11-27T18:05:00Z' }, at)).toBe(
      'Withdrawn from your profile on <2026-11-27T18:05:00Z>',
    );
    expect(describeConsent({ consented: true, source: 'quote', at: '2026-11-27T09:00:00Z' }, at)).toBe(
      'Given on a quote on <2026-11-27T09:00:00Z>',
    );
    expect(describeConsentEntry({ consented: true, source: 'registration', source_ref: null, at: '2026-01-02T03:04:05Z' }, at)).toBe(
      'Given when you registered on <2026-01-02T03:04:05Z>',
    );
  });

  it('says "Not given" when the user was never asked, without a time', () => {
    expect(describeConsent({ consented: false, source: null, at: null }, at)).toBe('Not given');
  });
});

describe('WhatsApp message log words', () => {
  it('names every status and carries a failure reason', () => {
    expect(describeStatus('failed', '131026 Message undeliverable')).toBe('Failed: 131026 Message undeliverable');
    expect(describeStatus('delivered', null)).toBe('Delivered');
    expect(describeStatus('unrouted', null)).toBe('Not routed');
    expect(Object.values(WHATSAPP_STATUS_LABELS).every((label) => label.length > 0)).toBe(true);
  });

  it('shows a template message with its template name and free text as it is', () => {
    expect(describeBody({ kind: 'template', template: 'dart_alert', body: 'Dart: A private run' })).toBe(
      '[dart_alert] Dart: A private run',
    );
    expect(describeBody({ kind: 'text', template: null, body: 'Neha in Desk: hi' })).toBe('Neha in Desk: hi');
  });
});

describe('WhatsApp status step times', () => {
  it('shows only the time on the day the message was created, else the full date and time', () => {
    const created = new Date(2026, 10, 27, 9, 30, 0);
    const sameDay = new Date(2026, 10, 27, 9, 30, 5);
    const nextDay = new Date(2026, 10, 28, 8, 0, 0);
    expect(formatStepTime(sameDay.toISOString(), created.toISOString(), at)).toBe('09:30:05');
    expect(formatStepTime(nextDay.toISOString(), created.toISOString(), at)).toBe(`<${nextDay.toISOString()}>`);
    expect(formatStepTime('not a time', created.toISOString(), at)).toBe('<not a time>');
  });
});
