/**
 * Issue 16 §1, the audit trail view: its hash chain's integrity is shown and checkable. `GET
 * api/surveillance/audit/integrity/` seals what has finished and verifies every row's hash and every seal; compliance
 * officers only; a row changed behind the append-only triggers' back turns the answer to not intact.
 */
import { AuditIntegritySchema } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

describe.each(DRIVERS)('audit trail integrity (%s)', (driver) => {
  let t: TestApp;
  let compliance: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp(driver);
    compliance = bearer((await login(t.app, 'compliance@demo.dart')).access);
  });
  afterAll(async () => {
    await t?.close();
  });

  const check = () => t.app.inject({ method: 'GET', url: '/api/surveillance/audit/integrity/', headers: compliance });

  it('answers a compliance officer that the trail is intact, with when it was checked and sealed through', async () => {
    await login(t.app, 'dealer@demo.dart');
    const response = await check();
    expect(response.statusCode).toBe(200);
    const body = AuditIntegritySchema.parse(json(response));
    expect(body.intact).toBe(true);
    // The seals cover transactions older than the oldest one still running in the cluster (lib/audit.ts): another
    // test's open transaction may hold the last seal back, so only its order is certain.
    expect(Date.parse(body.sealed_through ?? body.checked_at)).toBeLessThanOrEqual(Date.parse(body.checked_at));
    expect(Number.isNaN(Date.parse(body.checked_at))).toBe(false);
  });

  it('is for compliance officers only', async () => {
    const dealer = bearer((await login(t.app, 'dealer@demo.dart')).access);
    const refused = await t.app.inject({ method: 'GET', url: '/api/surveillance/audit/integrity/', headers: dealer });
    expect(refused.statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/surveillance/audit/integrity/' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('reports a row changed behind the triggers as not intact', async () => {
    await check(); // everything so far sealed
    await t.database.query('ALTER TABLE audit_log DISABLE TRIGGER USER');
    try {
      await t.database.query(
        "UPDATE audit_log SET action = 'auth.logout' WHERE id = (SELECT min(id) FROM audit_log WHERE action = 'auth.login')",
      );
    } finally {
      await t.database.query('ALTER TABLE audit_log ENABLE TRIGGER USER');
    }
    const body = AuditIntegritySchema.parse(json(await check()));
    expect(body.intact).toBe(false);
  });
});
