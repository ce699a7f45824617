import { beforeEach, describe, expect, it, vi } from 'vitest';

const played = vi.hoisted(() => [] as string[]);
vi.mock('./sounds', () => ({ playSound: (kind: string) => played.push(kind) }));

const { showToast, toastSound, toastStores } = await import('./toast');

describe('toast sounds (spec trading §8)', () => {
  beforeEach(() => {
    played.length = 0;
  });

  it('plays the error sound on an error toast, the success sound on a success toast, and leaves info and warn silent', () => {
    expect(toastSound('default', 'error')).toBe('error');
    expect(toastSound('default', 'success')).toBe('success');
    expect(toastSound('default', 'info')).toBeNull();
    expect(toastSound('default', 'warn')).toBeNull();
  });

  it('plays the notification sound on a response in the notification group', () => {
    expect(toastSound('suprsend-notif', 'info')).toBe('notification');
    expect(toastSound('suprsend-notif', 'error')).toBe('error');
  });

  it('keeps loading toasts and the connectivity group silent', () => {
    expect(toastSound('loader', 'info', true)).toBeNull();
    expect(toastSound('loader', 'success')).toBe('success');
    expect(toastSound('connectivity', 'success')).toBeNull();
    expect(toastSound('connectivity', 'warn')).toBeNull();
  });

  it('plays as the toast is shown, and a toast may choose its own sound or none', () => {
    showToast({ summary: 'Deal done', detail: '₹5 Cr at 99.5000', severity: 'success' });
    showToast({ summary: 'Could not save', severity: 'error' });
    showToast({ summary: 'Saved quietly', severity: 'success', sound: false });
    showToast({ summary: 'Counter received', group: 'suprsend-notif' });
    showToast({ summary: 'Heads up', sound: 'notification' });
    expect(played).toEqual(['success', 'error', 'notification', 'notification']);
    expect(toastStores.default.getState().notifications.map((toast) => toast.title)).toContain('Deal done');
  });
});
