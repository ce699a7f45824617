/**
 * Helpers of the surveillance alert suites: a compliance officer for Second Bank (the demo seed has one for Demo
 * Capital only), a chat between the two firms' dealers through the chat API, the scanner ticked by hand, and the
 * alerts each firm's compliance officer reads through the alert API. Apps must be built with `{ BOND_IMPORT: 'slice' }`.
 */
import { randomUUID } from 'node:crypto';
import type { SurveillanceAlert, SurveillanceAlertDetail, SurveillanceAlertKind } from '@dart/contracts';
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { clients, userAccountRoles, userAccounts, users } from '../src/db/schema';
import { bearer, json, login, type TestApp } from './helpers';
import { call, postTradeActors } from './post-trade-support';

export const SECOND_COMPLIANCE = 'compliance@second.dart';

/** Adds an active compliance officer to Second Bank (same password as the demo users) and signs them in. */
export async function secondBankCompliance(t: TestApp): Promise<{ token: string; userId: string }> {
  const db = t.database.db;
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, SECOND_COMPLIANCE));
  if (!existing) {
    const [dealer] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, 'dealer@second.dart'));
    const [bank] = await db.select({ id: clients.id }).from(clients).where(eq(clients.name, 'Second Bank'));
    const [user] = await db
      .insert(users)
      .values({
        uniqueId: `u-${randomUUID()}`,
        email: SECOND_COMPLIANCE,
        firstName: 'Meera',
        lastName: 'Iyer',
        mobile: '9876509999',
        passwordHash: dealer!.hash,
        hasAcceptedChatTerms: true,
      })
      .returning({ id: users.id });
    const [account] = await db.insert(userAccounts).values({ userId: user!.id, clientId: bank!.id }).returning({ id: userAccounts.id });
    await db.insert(userAccountRoles).values([
      { userAccountId: account!.id, role: 'complianceofficer' },
      { userAccountId: account!.id, role: 'user' },
    ]);
  }
  const token = (await login(t.app, SECOND_COMPLIANCE)).access;
  const session = json<{ user_info: { id: string } }>(await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(token) }));
  return { token, userId: session.user_info.id };
}

let reqCounter = 0;

/** A group chat made by Demo Capital's dealer with Second Bank's dealer, accepted by the latter. */
export async function demoSecondChat(t: TestApp, name = 'HDFC desk'): Promise<string> {
  const actors = await postTradeActors(t);
  const created = await call(t, 'demo', 'POST', '/api/chat/channels/', {
    customType: 'group',
    name,
    invitedUserIds: [actors.second.userId],
  });
  expect(created.statusCode, created.body).toBeLessThan(300);
  const url = json<{ url: string }>(created).url;
  expect((await call(t, 'second', 'POST', `/api/chat/channels/${url}/accept/`, {})).statusCode).toBe(200);
  return url;
}

/** Sends a text message as Demo Capital's (`demo`) or Second Bank's (`second`) dealer; returns the message id. */
export async function say(t: TestApp, who: 'demo' | 'second', channelUrl: string, message: string): Promise<string> {
  const response = await call(t, who, 'POST', `/api/chat/channels/${channelUrl}/messages/`, { reqId: `s-${++reqCounter}`, message });
  expect(response.statusCode, response.body).toBe(201);
  return json<{ messageId: string }>(response).messageId;
}

/** Ticks the scanner over everything committed so far. */
export const scan = (t: TestApp) => t.app.surveillance.scanner.scanOnce();

/** Every alert a compliance officer's firm has (of one kind when given), newest first. */
export async function alertsOf(t: TestApp, token: string, kind?: SurveillanceAlertKind): Promise<SurveillanceAlert[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/surveillance/alerts/?page_size=100${kind ? `&kind=${kind}` : ''}`,
    headers: bearer(token),
  });
  expect(response.statusCode, response.body).toBe(200);
  return json<{ results: SurveillanceAlert[] }>(response).results;
}

export async function alertDetail(t: TestApp, token: string, id: string): Promise<SurveillanceAlertDetail> {
  const response = await t.app.inject({ method: 'GET', url: `/api/surveillance/alerts/${id}/`, headers: bearer(token) });
  expect(response.statusCode, response.body).toBe(200);
  return json<SurveillanceAlertDetail>(response);
}

/** Alerts of one kind whose evidence names `entityId` (a message, quote, deal or order id). */
export async function alertsAbout(
  t: TestApp,
  token: string,
  kind: SurveillanceAlertKind,
  entityId: string,
): Promise<SurveillanceAlertDetail[]> {
  const out: SurveillanceAlertDetail[] = [];
  for (const alert of await alertsOf(t, token, kind)) {
    const detail = await alertDetail(t, token, alert.id);
    if (detail.evidence.some((item) => item.id === entityId)) out.push(detail);
  }
  return out;
}

/** The reference yield of a bond (finstruments.reference_yield), fraction. */
export async function referenceYield(t: TestApp, isin: string): Promise<number> {
  const rows = await t.database.db.execute(sql`SELECT reference_yield FROM finstruments WHERE isin = ${isin}`);
  const value = (rows as unknown as { rows: Array<{ reference_yield: number | null }> }).rows[0]?.reference_yield;
  expect(value, `reference yield of ${isin}`).toBeTypeOf('number');
  return value!;
}
