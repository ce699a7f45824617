import { evaluateAccess } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { sessionUser } from '../../test/session-user';
import { toAccessSubject } from './access-subject';
import { canTrade, canWrite } from './write-access';

describe('write controls per role', () => {
  const viewer = sessionUser({ roles: ['clientviewer'], permissions: ['client.view_client'] });
  const compliance = sessionUser({ roles: ['complianceofficer', 'user'], permissions: ['client.view_client', 'client.can_trade'] });
  const dealer = sessionUser({ roles: ['clientdealer'] });
  const opsAdmin = sessionUser({ roles: ['clientopsadmin'], permissions: ['client.view_client'] });
  const dealingCompliance = sessionUser({ roles: ['complianceofficer', 'clientdealer', 'user'] });

  it('offers no write to view-only users (viewer, compliance) or visitors', () => {
    expect(canWrite(viewer)).toBe(false);
    expect(canWrite(compliance)).toBe(false);
    expect(canWrite(null)).toBe(false);
    expect(canTrade(viewer)).toBe(false);
    // Holding the trading permission does not make a compliance user a trader.
    expect(canTrade(compliance)).toBe(false);
    expect(canTrade(null)).toBe(false);
  });

  it('offers writes to every other signed-in user, and trading to those with the permission', () => {
    expect(canWrite(dealer)).toBe(true);
    expect(canWrite(opsAdmin)).toBe(true);
    expect(canWrite(dealingCompliance)).toBe(true);
    expect(canTrade(dealer)).toBe(true);
    expect(canTrade(opsAdmin)).toBe(false);
    expect(canTrade(dealingCompliance)).toBe(true);
  });

  it('agrees with the server: a write is shown exactly when its policy would allow it', () => {
    for (const user of [viewer, compliance, dealer, opsAdmin, dealingCompliance]) {
      const subject = toAccessSubject(user);
      expect(canWrite(user)).toBe(evaluateAccess({ kind: 'authenticated', write: true }, subject) === 'allow');
      expect(canTrade(user)).toBe(
        evaluateAccess({ kind: 'authenticated', permissions: ['client.can_trade'], write: true }, subject) === 'allow',
      );
    }
  });
});
