import { describe, expect, it } from 'vitest';
import { MASKING_OPTIONS, maskHref, maskInputValue, maskText, scrubEvent } from './masking';

/** A stand-in for an input element: only what the masking reads. */
function field(attributes: Record<string, string> = {}, type = 'text', id = ''): HTMLElement {
  return { type, id, getAttribute: (name: string) => attributes[name] ?? null } as unknown as HTMLElement;
}

describe('session recording masking', () => {
  it('masks every ordinary value character by character, so typing shows but the value does not', () => {
    expect(maskInputValue('101.2500', field({}, 'text'))).toBe('********');
    expect(maskInputValue('Hello desk, parking trade?', field({}, 'textarea'))).toBe('*'.repeat(26));
    expect(maskInputValue('', field())).toBe('');
  });

  it('records passwords and one-time codes as a fixed mark, without their length', () => {
    const password = field({}, 'password');
    expect(maskInputValue('Demo@12345', password)).toBe('••••');
    expect(maskInputValue('x', password)).toBe('••••');
    expect(maskInputValue('482913', field({ autocomplete: 'one-time-code' }, 'text'))).toBe('••••');
    expect(maskInputValue('482913', field({ name: 'otp' }, 'text'))).toBe('••••');
    expect(maskInputValue('Secret1!', field({ name: 'new_password1' }, 'text'))).toBe('••••');
    expect(maskInputValue('', password)).toBe('');
  });

  it('masks typed text outside inputs and keeps only its spacing', () => {
    expect(maskText('sell 5 cr at 7.25%')).toBe('**** * ** ** *****');
  });

  it('drops the query and fragment of page addresses (a search in the address must not leak)', () => {
    expect(maskHref('https://dart.example/find?q=INE002A08534#top')).toBe('https://dart.example/find');
    expect(maskHref('not a url')).toBe('');
    const meta = scrubEvent({ type: 4, timestamp: 1, data: { href: 'http://127.0.0.1/security/INE1?price=99.1', width: 1, height: 2 } });
    expect(meta.data).toEqual({ href: 'http://127.0.0.1/security/INE1', width: 1, height: 2 });
    const other = { type: 3, timestamp: 1, data: { source: 5, text: '***' } };
    expect(scrubEvent(other)).toBe(other);
  });

  it('asks rrweb to mask every input, textarea and select, contenteditable text, and to block data-private', () => {
    expect(MASKING_OPTIONS.maskAllInputs).toBe(true);
    expect(MASKING_OPTIONS.maskInputOptions).toMatchObject({
      password: true,
      text: true,
      number: true,
      textarea: true,
      select: true,
      search: true,
    });
    expect(MASKING_OPTIONS.maskTextSelector).toContain('[contenteditable]');
    expect(MASKING_OPTIONS.blockSelector).toBe('[data-private]');
  });
});
