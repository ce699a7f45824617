import { describe, expect, it } from 'vitest';
import { sessionUser } from '../test/session-user';
import { navVisibility } from './navigation';

describe('menu entries follow the route rules', () => {
  it('hides the workspace from compliance users and shows surveillance only to them', () => {
    const compliance = sessionUser({ roles: ['complianceofficer', 'user'], permissions: [] });
    expect(navVisibility('/dart', compliance)).toBe('hidden');
    expect(navVisibility('/surveillance', compliance)).toBe('visible');
    expect(navVisibility('/surveillance', sessionUser())).toBe('hidden');
  });

  it('shows the WhatsApp message log to compliance officers and ops admins only', () => {
    expect(navVisibility('/whatsapp/messages', sessionUser({ roles: ['complianceofficer', 'user'], permissions: [] }))).toBe('visible');
    expect(navVisibility('/whatsapp/messages', sessionUser({ roles: ['clientopsadmin'], permissions: [] }))).toBe('visible');
    expect(navVisibility('/whatsapp/messages', sessionUser())).toBe('hidden');
  });

  it('marks premium screens for BASIC clients instead of hiding them (they lead to the 402 page)', () => {
    expect(navVisibility('/inventory', sessionUser({ tier: 'BASIC' }))).toBe('premium');
    expect(navVisibility('/inventory', sessionUser())).toBe('visible');
  });

  it('shows visitors only public screens', () => {
    expect(navVisibility('/find', null)).toBe('visible');
    expect(navVisibility('/dart', null)).toBe('hidden');
  });
});
