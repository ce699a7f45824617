/**
 * Issue 16 §1, surveillance triage: compliance officers only (a dealer gets 403), each on the own firm's alerts (another
 * firm's id is 404 on every call); assign, comment, escalate and close with a reason, each in the history and the
 * audit trail; filters, the CSV export and the evidence pack PDF; and a rescan never duplicates an alert.
 */
import { SURVEILLANCE_EXPORT_COLUMNS, SURVEILLANCE_MESSAGES, type SurveillanceAlertDetail } from '@dart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, surveillanceAlerts } from '../src/db/schema';
import { bearer, createTestApp, DRIVERS, json, type TestApp } from './helpers';
import { pdfText } from './orders-support';
import { postTradeActors, type Actor } from './post-trade-support';
import { alertsAbout, alertsOf, demoSecondChat, say, scan, secondBankCompliance } from './surveillance-support';

describe.each(DRIVERS)('surveillance triage (%s)', (driver) => {
  let t: TestApp;
  let actors: Record<string, Actor>;
  let demo: string;
  let complianceId: string;
  let second: string;
  let alert: SurveillanceAlertDetail;
  let messageId: string;

  const as = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    actors = await postTradeActors(t);
    demo = actors.compliance!.token;
    complianceId = actors.compliance!.userId;
    second = (await secondBankCompliance(t)).token;
    const channel = await demoSecondChat(t, 'Triage desk');
    messageId = await say(t, 'demo', channel, 'Guaranteed returns, and the cash component stays off the books');
    await say(t, 'second', channel, 'Kickback milega? cut milega to setting karo');
    await scan(t);
    [alert] = (await alertsAbout(t, demo, 'chat_lexicon', messageId)) as [SurveillanceAlertDetail];
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers compliance officers only: a dealer, a viewer and a back office user get 403', async () => {
    expect(alert).toMatchObject({ status: 'open', assignee_id: null });
    for (const who of ['demo', 'viewer', 'backoffice'] as const) {
      const token = actors[who]!.token;
      expect((await as(token, 'GET', '/api/surveillance/alerts/')).statusCode).toBe(403);
      expect((await as(token, 'GET', `/api/surveillance/alerts/${alert.id}/`)).statusCode).toBe(403);
      expect((await as(token, 'POST', `/api/surveillance/alerts/${alert.id}/close/`, { reason: 'x' })).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/surveillance/alerts/' })).statusCode).toBe(401);
  });

  it("keeps firms apart: another firm's alert is 404 on every call and absent from its list and export", async () => {
    const secondList = await alertsOf(t, second);
    expect(secondList.length).toBeGreaterThan(0);
    expect(secondList.some((a) => a.id === alert.id)).toBe(false);
    expect(JSON.stringify(secondList)).not.toContain('Guaranteed returns');
    const base = `/api/surveillance/alerts/${alert.id}`;
    expect((await as(second, 'GET', `${base}/`)).statusCode).toBe(404);
    expect((await as(second, 'GET', `${base}/evidence.pdf`)).statusCode).toBe(404);
    expect((await as(second, 'POST', `${base}/comment/`, { comment: 'peek' })).statusCode).toBe(404);
    expect((await as(second, 'POST', `${base}/escalate/`, {})).statusCode).toBe(404);
    expect((await as(second, 'POST', `${base}/close/`, { reason: 'not ours' })).statusCode).toBe(404);
    expect((await as(second, 'POST', `${base}/assign/`, { assignee_id: complianceId })).statusCode).toBe(404);
    const csv = await as(second, 'GET', '/api/surveillance/alerts/?format=csv');
    expect(csv.body).not.toContain(alert.id);
    // Demo Capital's own list holds none of Second Bank's messages either.
    expect(JSON.stringify(await alertsOf(t, demo))).not.toContain('Kickback');
    // The untouched alert is still open.
    expect((await alertsOf(t, demo)).find((a) => a.id === alert.id)!.status).toBe('open');
  });

  it('triages: assign, comment, escalate, close with a reason; each step in the history and the audit trail', async () => {
    const base = `/api/surveillance/alerts/${alert.id}`;
    // Only a compliance officer of the firm may be assigned: the firm's dealer is refused with a field error.
    const wrong = await as(demo, 'POST', `${base}/assign/`, { assignee_id: actors.demo!.userId });
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong)).toMatchObject({ errors: { assignee_id: [SURVEILLANCE_MESSAGES.assignee] } });
    const unknownField = await as(demo, 'POST', `${base}/assign/`, { assignee_id: complianceId, status: 'closed' });
    expect(unknownField.statusCode).toBe(400);

    const assigned = json<SurveillanceAlertDetail>(await as(demo, 'POST', `${base}/assign/`, { assignee_id: complianceId }));
    expect(assigned).toMatchObject({ status: 'assigned', assignee_id: complianceId, assignee_name: 'Vikram Iyer' });
    const blank = await as(demo, 'POST', `${base}/comment/`, { comment: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(json(blank)).toMatchObject({ errors: { comment: [SURVEILLANCE_MESSAGES.comment] } });
    const commented = json<SurveillanceAlertDetail>(await as(demo, 'POST', `${base}/comment/`, { comment: 'Called the dealer.' }));
    expect(commented.status).toBe('assigned');
    const escalated = json<SurveillanceAlertDetail>(await as(demo, 'POST', `${base}/escalate/`, { comment: 'To the head of compliance.' }));
    expect(escalated.status).toBe('escalated');

    const noReason = await as(demo, 'POST', `${base}/close/`, {});
    expect(noReason.statusCode).toBe(400);
    expect(json(noReason)).toMatchObject({ errors: { reason: [SURVEILLANCE_MESSAGES.reason] } });
    const closed = json<SurveillanceAlertDetail>(await as(demo, 'POST', `${base}/close/`, { reason: 'Dealer warned in writing.' }));
    expect(closed.status).toBe('closed');
    expect(closed.history.map((h) => [h.action, h.from_status, h.to_status, h.comment])).toEqual([
      ['assign', 'open', 'assigned', null],
      ['comment', 'assigned', 'assigned', 'Called the dealer.'],
      ['escalate', 'assigned', 'escalated', 'To the head of compliance.'],
      ['close', 'escalated', 'closed', 'Dealer warned in writing.'],
    ]);
    expect(closed.history.every((h) => h.actor_name === 'Vikram Iyer')).toBe(true);
    // A closed alert takes no further triage.
    const after = await as(demo, 'POST', `${base}/comment/`, { comment: 'late note' });
    expect(after.statusCode).toBe(409);
    expect(json(after)).toMatchObject({ message: SURVEILLANCE_MESSAGES.closed });

    const audit = await t.database.db
      .select({ action: auditLog.action, after: auditLog.after, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'surveillance_alert'), eq(auditLog.entityId, alert.id)))
      .orderBy(auditLog.id);
    expect(audit.map((r) => r.action)).toEqual([
      'surveillance.alert_assigned',
      'surveillance.alert_commented',
      'surveillance.alert_escalated',
      'surveillance.alert_closed',
    ]);
    expect(audit.every((r) => r.actor === complianceId)).toBe(true);
    expect(audit.at(-1)!.after).toMatchObject({ status: 'closed', reason: 'Dealer warned in writing.' });
    // The audit trail reads the steps as words.
    const trail = json<{ results: Array<{ action_label: string }> }>(
      await as(demo, 'GET', '/api/surveillance/audit/?category=surveillance&page_size=100'),
    );
    expect(trail.results.map((r) => r.action_label)).toContain('Surveillance alert closed');
  });

  it('filters by kind, status and assignee, and validates the filters with field errors', async () => {
    const closed = await as(demo, 'GET', `/api/surveillance/alerts/?status=closed&assignee=${complianceId}`);
    expect(json<{ results: Array<{ id: string }>; count: number }>(closed)).toMatchObject({ count: 1, results: [{ id: alert.id }] });
    const open = json<{ results: Array<{ id: string; status: string }> }>(await as(demo, 'GET', '/api/surveillance/alerts/?status=open'));
    expect(open.results.every((a) => a.status === 'open')).toBe(true);
    expect(open.results.some((a) => a.id === alert.id)).toBe(false);
    const none = json<{ count: number }>(await as(demo, 'GET', '/api/surveillance/alerts/?kind=wash_trade'));
    expect(none.count).toBe(0);
    const badDay = await as(demo, 'GET', '/api/surveillance/alerts/?from=2026-13-40');
    expect(badDay.statusCode).toBe(400);
    const order = await as(demo, 'GET', '/api/surveillance/alerts/?from=2026-11-02&to=2026-11-01');
    expect(order.statusCode).toBe(400);
    expect(json(order)).toMatchObject({ errors: { to: [SURVEILLANCE_MESSAGES.dateOrder] } });
    expect((await as(demo, 'GET', '/api/surveillance/alerts/?page_size=1000')).statusCode).toBe(400);
    expect((await as(demo, 'GET', '/api/surveillance/alerts/?kind=nope')).statusCode).toBe(400);
  });

  it("exports the filtered alerts as CSV with the spec's columns", async () => {
    const response = await as(demo, 'GET', '/api/surveillance/alerts/?format=csv&kind=chat_lexicon');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="dart-surveillance-alerts-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(SURVEILLANCE_EXPORT_COLUMNS.join(','));
    const listed = await alertsOf(t, demo, 'chat_lexicon');
    expect(lines.length - 1).toBe(listed.length);
    expect(lines.some((line) => line.includes(alert.id) && line.includes('Chat lexicon') && line.includes('Closed'))).toBe(true);
    const exported = await t.database.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'surveillance.alerts_exported'), eq(auditLog.actorUserId, complianceId)));
    expect(exported.length).toBeGreaterThan(0);
  });

  it('downloads the evidence pack as a PDF with the chat excerpt and the triage history', async () => {
    const response = await as(demo, 'GET', `/api/surveillance/alerts/${alert.id}/evidence.pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="evidence-pack-${alert.id}.pdf"`);
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text } = pdfText(response.rawPayload);
    expect(text).toContain('SURVEILLANCE EVIDENCE PACK');
    expect(text).toContain('Guaranteed returns');
    expect(text).toContain('Dealer warned in writing.');
    expect(text).not.toContain('Kickback');
  });

  it('never duplicates an alert on a rescan, even from the start of every table', async () => {
    const count = async () => Number((await t.database.db.select({ n: sql<number>`count(*)` }).from(surveillanceAlerts))[0]!.n);
    const before = await count();
    expect(before).toBeGreaterThanOrEqual(2);
    expect((await scan(t)).alerts).toBe(0);
    await t.database.db.execute(sql`DELETE FROM surveillance_cursors`);
    const rescan = await scan(t);
    expect(rescan.read).toBeGreaterThan(0);
    expect(rescan.alerts).toBe(0);
    expect(await count()).toBe(before);
    // The closed alert keeps its triage.
    expect((await alertsOf(t, demo)).find((a) => a.id === alert.id)!.status).toBe('closed');
  });
});
