import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRowFromSql,
  auditSealFromSql,
  firstBrokenAuditRow,
  firstBrokenAuditTrail,
  sealAudit,
  verifyAuditChain,
} from '../src/lib/audit';
import { createTestApp, DRIVERS, login, type TestApp } from './helpers';

describe.each(DRIVERS)('audit trail (%s)', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('records every sign-in with actor, IP, user agent and request id', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      headers: { 'user-agent': 'audit-probe/1.0' },
      payload: { email: 'dealer@demo.dart', password: 'Demo@12345' },
    });
    const rows = await t.database.query<{ actor_email: string; ip: string; user_agent: string; request_id: string }>(
      "SELECT actor_email, ip, user_agent, request_id FROM audit_log WHERE action = 'auth.login' ORDER BY id DESC LIMIT 1",
    );
    expect(rows[0]).toMatchObject({ actor_email: 'dealer@demo.dart', ip: '127.0.0.1', user_agent: 'audit-probe/1.0' });
    expect(rows[0]!.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is append-only: UPDATE, DELETE and TRUNCATE are refused', async () => {
    await expect(t.database.query("UPDATE audit_log SET action = 'tampered'")).rejects.toThrow(/append-only/);
    await expect(t.database.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    await expect(t.database.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
  });

  it('hash-chains the rows so the chain verifies, under concurrent writers too', async () => {
    await Promise.all(
      ['viewer@demo.dart', 'opsadmin@demo.dart', 'backoffice@demo.dart', 'broker@brokers.dart'].map((email) => login(t.app, email)),
    );
    expect(await verifyAuditChain(t.database.db)).toBeNull();
  });

  it('seals finished transactions in batches that follow each other, and refuses to change a seal', async () => {
    // The sealing horizon is the oldest transaction still open on the whole PostgreSQL server, in any database:
    // while other suites run beside this one it can stay behind a sign-in for a while, and a seal then covers
    // less (or nothing). Seal until the sign-in's transaction is behind the horizon.
    const sealPastSignIn = async (email: string) => {
      const [signIn] = await t.database.query<{ xid: string }>(
        "SELECT xid::text FROM audit_log WHERE action = 'auth.login' AND actor_email = $1 ORDER BY id DESC LIMIT 1",
        [email],
      );
      let sealed = 0;
      for (const deadline = Date.now() + 60_000; ;) {
        sealed += await sealAudit(t.database.db);
        const [last] = await t.database.query<{ to_xid: string }>('SELECT to_xid::text FROM audit_seals ORDER BY id DESC LIMIT 1');
        if (last && BigInt(last.to_xid) > BigInt(signIn!.xid)) return sealed;
        if (Date.now() > deadline) throw new Error(`the sealing horizon never passed the sign-in's transaction ${signIn!.xid}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await login(t.app, 'dealer@demo.dart');
    await sealPastSignIn('dealer@demo.dart');
    await login(t.app, 'viewer@demo.dart');
    const sealed = await sealPastSignIn('viewer@demo.dart');
    expect(sealed).toBeGreaterThan(0);
    expect(await sealAudit(t.database.db)).toBe(0); // nothing new
    const seals = await t.database.query<{ from_xid: string; to_xid: string; prev_hash: string; hash: string; row_count: number }>(
      'SELECT from_xid::text, to_xid::text, prev_hash, hash, row_count FROM audit_seals ORDER BY id',
    );
    expect(seals.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < seals.length; i++) {
      expect(seals[i]!.from_xid).toBe(seals[i - 1]!.to_xid);
      expect(seals[i]!.prev_hash).toBe(seals[i - 1]!.hash);
    }
    const [{ n }] = (await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log WHERE xid < $1', [
      seals.at(-1)!.to_xid,
    ])) as [{ n: number }];
    expect(seals.reduce((sum, s) => sum + s.row_count, 0)).toBe(n);
    await expect(t.database.query('UPDATE audit_seals SET hash = hash')).rejects.toThrow(/append-only/);
    await expect(t.database.query('DELETE FROM audit_seals')).rejects.toThrow(/append-only/);
    expect(await verifyAuditChain(t.database.db)).toBeNull();
  });

  it('detects a deleted row through its seal', async () => {
    await login(t.app, 'backoffice@demo.dart');
    expect(await verifyAuditChain(t.database.db)).toBeNull(); // sealed now
    await t.database.withConnection(async (run) => {
      await run('BEGIN');
      try {
        await run('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update');
        // The last row a seal covers (the newest rows may be past the sealing horizon while any transaction on
        // the server, in any database, is still open: deleting one of those breaks no seal yet).
        const [target] = await run('SELECT last_id AS id FROM audit_seals ORDER BY id DESC LIMIT 1');
        await run('DELETE FROM audit_log WHERE id = $1', [target!.id]);
        // The rows still verify one by one; the seal over them does not, and names its first row.
        const rows = (await run('SELECT * FROM audit_log ORDER BY id')).map(auditRowFromSql);
        const seals = (await run('SELECT * FROM audit_seals ORDER BY id')).map(auditSealFromSql);
        expect(firstBrokenAuditRow(rows)).toBeNull();
        expect(firstBrokenAuditTrail(rows, seals)).toBe(seals.at(-1)!.firstId);
      } finally {
        await run('ROLLBACK');
      }
    });
    expect(await verifyAuditChain(t.database.db)).toBeNull();
  });

  it('detects a forged row', async () => {
    // Drop the guard only inside a transaction that is rolled back, to prove the chain catches tampering.
    await t.database.withConnection(async (run) => {
      await run('BEGIN');
      try {
        await run('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update');
        const [target] = await run('SELECT min(id) + 1 AS id FROM audit_log');
        await run("UPDATE audit_log SET action = 'auth.logout' WHERE id = $1", [target!.id]);
        const rows = (await run('SELECT * FROM audit_log ORDER BY id')).map(auditRowFromSql);
        expect(firstBrokenAuditRow(rows)).toBe(Number(target!.id));
      } finally {
        await run('ROLLBACK');
      }
    });
    expect(await verifyAuditChain(t.database.db)).toBeNull();
  });
});
