/**
 * Network and team calls (issue 15 §1; spec trading-domain §7 "Client and team", application §6) on both
 * databases: invites at the spec's paths (and their aliases), members' roles with the spec's role rules and the
 * last-ops-admin rule, the organisation profile with every §5 rule and message, offline counterparties, and the
 * network directories; tenants apart, view-only roles never write, bad input is a 400 with the field's message.
 */
import {
  ADDRESS_STATES,
  INDIAN_STATES,
  MESSAGES,
  PERMISSIONS,
  TEAM_MESSAGES,
  type ClientProfile,
  type NetworkClient,
  type TeamUser,
} from '@dart/contracts';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema';
import { bearer, createTestApp, DRIVERS, json, latestOtp, login, type TestApp } from './helpers';
import { makeDeal, postTradeActors } from './post-trade-support';

type Errors = { code: string; message: string; errors?: Record<string, string[]> };

const PROFILE = {
  pan: 'AABCD1234E',
  gst: '27AABCD1234E1Z5',
  business_email: 'treasury@democapital.in',
  website: 'https://www.democapital.in/about',
  registered_address: { line1: 'One BKC, G Block', line2: 'Bandra Kurla Complex', city: 'Mumbai', state: 'Maharashtra', pincode: '400051' },
  correspondence_address: { line1: 'Plot 5, Sector 18', city: 'Gurugram', state: 'Haryana', pincode: '122015' },
  bank_account: { account_number: '50100123456789', ifsc: 'HDFC0000060', bank_name: 'HDFC Bank' },
  demat: { bo_id: '1208160000012345', dp_id: 'IN300214', client_id: '10234567' },
  settlement_cutoff_time: '14:30',
};

describe.each(DRIVERS)('network and team (%s)', (driver) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};

  const api = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...bearer(tokens[who]!), ...headers } });

  /** Registers `email` (a verified e-mail): a new firm (its owner is ops admin and dealer), or joining by `invite`. */
  async function register(email: string, mobile: string, extra: Record<string, unknown>) {
    await t.app.inject({ method: 'POST', url: '/api/request-otp/', payload: { email, request_type: 'register', auth_mode: 'email' } });
    const otp = await latestOtp(t.app, email);
    const { verification } = json<{ verification: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/api/validate-otp/',
        payload: { email, otp, request_type: 'register', auth_mode: 'email' },
      }),
    );
    return t.app.inject({
      method: 'POST',
      url: '/api/client/register/',
      payload: {
        auth_mode: 'password',
        pan: 'AAACK4409J',
        password: 'NorthFund2026',
        identity: { first_name: 'Meera', last_name: 'Pillai' },
        client_type: 'CORP',
        category: null,
        corporate_identity: null,
        contact: { email, mobile, whatsapp_consent: false },
        verification,
        ...extra,
      },
    });
  }

  /** A new firm registered by its owner (ops admin and dealer), as a second tenant with an ops admin. */
  async function registerFirm(email: string, mobile: string, name: string): Promise<string> {
    const response = await register(email, mobile, { corporate_identity: { name } });
    expect(response.statusCode, response.body).toBe(200);
    return json<{ access: string }>(response).access;
  }

  const auditActions = async (actions: string[]) =>
    (await t.database.db.select({ action: auditLog.action }).from(auditLog).where(inArray(auditLog.action, actions))).map((r) => r.action);

  beforeAll(async () => {
    t = await createTestApp(driver, { BOND_IMPORT: 'slice' });
    const actors = await postTradeActors(t);
    for (const [who, actor] of Object.entries(actors)) {
      tokens[who] = actor.token;
      ids[who] = actor.userId;
    }
    tokens.opsadmin = (await login(t.app, 'opsadmin@demo.dart')).access;
    tokens.north = await registerFirm('owner@northfund.in', '9000000011', 'North Fund');
  }, 180_000);
  afterAll(async () => t?.close());

  it('invites at the spec paths: create, validate, revoke; the old paths answer from the same handlers', async () => {
    const created = await api('opsadmin', 'POST', '/api/client/user/invite/', { email: 'analyst@democapital.in', roles: ['clientdealer'] });
    expect(created.statusCode, created.body).toBe(201);
    const invite = json<{ id: string; token: string; client_name: string }>(created);
    expect(invite.client_name).toBe('Demo Capital');

    const valid = await t.app.inject({ method: 'POST', url: '/api/client/user/invite/validate/', payload: { invite_code: invite.token } });
    expect(json(valid)).toEqual({ valid: true, email: 'analyst@democapital.in', client_name: 'Demo Capital' });
    const alias = await t.app.inject({ method: 'GET', url: `/api/invites/${encodeURIComponent(invite.token)}/` });
    expect(json(alias)).toEqual(json(valid));
    const pending = async () =>
      json<{ results: Array<{ id: string }> }>(await api('opsadmin', 'GET', '/api/client/invites/')).results.map((r) => r.id);
    expect(await pending()).toContain(invite.id);

    // Another firm's ops admin cannot see or revoke it.
    expect((await api('north', 'POST', '/api/client/user/invite/revoke/', { invitee_id: invite.id })).statusCode).toBe(404);
    const revoked = await api('opsadmin', 'POST', '/api/client/user/invite/revoke/', { invitee_id: invite.id });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(json(revoked)).toMatchObject({ id: invite.id, email: 'analyst@democapital.in' });
    // Revoking twice answers as the first time and writes nothing more.
    const again = await api('opsadmin', 'POST', '/api/client/user/invite/revoke/', { invitee_id: invite.id });
    expect(json(again)).toEqual(json(revoked));
    expect((await auditActions(['invite.revoked'])).length).toBe(1);
    expect(await pending()).not.toContain(invite.id);
    for (const response of [
      await t.app.inject({ method: 'POST', url: '/api/client/user/invite/validate/', payload: { invite_code: invite.token } }),
      await t.app.inject({ method: 'GET', url: `/api/invites/${encodeURIComponent(invite.token)}/` }),
    ]) {
      expect(response.statusCode).toBe(410);
      expect(json(response)).toEqual({ code: 'INVITE_INVALID', message: 'Invitation URL invalid' });
    }
    // Registration refuses the revoked invite as it refuses an expired one, and creates nobody.
    const joined = await register('analyst@democapital.in', '9000000012', { invite: invite.token });
    expect(joined.statusCode).toBe(410);
    expect((await login(t.app, 'analyst@democapital.in', 'NorthFund2026').catch(() => null)) ?? null).toBeNull();
  });

  it("resends a pending invite with a new link: the old link stops working; not another firm's, not a revoked one", async () => {
    const created = await api('opsadmin', 'POST', '/api/client/user/invite/', { email: 'resend@democapital.in', roles: ['clientviewer'] });
    const invite = json<{ id: string; token: string }>(created);
    const validate = (code: string) =>
      t.app.inject({ method: 'POST', url: '/api/client/user/invite/validate/', payload: { invite_code: code } });

    expect((await api('north', 'POST', '/api/client/user/invite/resend/', { invitee_id: invite.id })).statusCode).toBe(404);
    const resent = await api('opsadmin', 'POST', '/api/client/user/invite/resend/', { invitee_id: invite.id });
    expect(resent.statusCode, resent.body).toBe(200);
    const renewed = json<{ id: string; email: string; token: string; roles: string[] }>(resent);
    expect(renewed).toMatchObject({ id: invite.id, email: 'resend@democapital.in', roles: ['clientviewer'] });
    expect(renewed.token).not.toBe(invite.token);
    expect((await validate(invite.token)).statusCode).toBe(410);
    expect(json(await validate(renewed.token))).toEqual({ valid: true, email: 'resend@democapital.in', client_name: 'Demo Capital' });
    // The new link is what the e-mail carries.
    const outbox = json<{ results: Array<{ body: string }> }>(
      await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent('resend@democapital.in')}` }),
    );
    expect(outbox.results[0]?.body).toContain(`invite=${encodeURIComponent(renewed.token)}`);
    expect((await auditActions(['invite.resent'])).length).toBe(1);

    await api('opsadmin', 'POST', '/api/client/user/invite/revoke/', { invitee_id: invite.id });
    const afterRevoke = await api('opsadmin', 'POST', '/api/client/user/invite/resend/', { invitee_id: invite.id });
    expect(afterRevoke.statusCode).toBe(409);
    expect(json<Errors>(afterRevoke).message).toBe('This invitation was revoked; send a new one.');
    // A viewer may not resend (ops admins only).
    expect((await api('viewer', 'POST', '/api/client/user/invite/resend/', { invitee_id: invite.id })).statusCode).toBe(403);
  });

  it('applies the spec role rules to invites on both paths, and replays a retried invite', async () => {
    for (const url of ['/api/client/user/invite/', '/api/client/invites/']) {
      const viewerPlus = await api('opsadmin', 'POST', url, { email: 'v@democapital.in', roles: ['clientviewer', 'clientdealer'] });
      expect(viewerPlus.statusCode).toBe(400);
      expect(json<Errors>(viewerPlus).errors).toEqual({ roles: [TEAM_MESSAGES.viewerOnly] });
      const complianceAlone = await api('opsadmin', 'POST', url, { email: 'c@democapital.in', roles: ['complianceofficer'] });
      expect(json<Errors>(complianceAlone).errors).toEqual({ roles: [TEAM_MESSAGES.complianceTwoRoles] });
    }
    const bad = await t.app.inject({ method: 'POST', url: '/api/client/user/invite/validate/', payload: { invite_code: '', extra: 1 } });
    expect(bad.statusCode).toBe(400);
    const headers = { 'idempotency-key': 'team-invite-1' };
    const body = { email: 'desk@democapital.in', roles: ['complianceofficer', 'user'] };
    const first = await api('opsadmin', 'POST', '/api/client/user/invite/', body, headers);
    const retry = await api('opsadmin', 'POST', '/api/client/user/invite/', body, headers);
    expect(first.statusCode).toBe(201);
    expect(retry.headers['idempotency-replayed']).toBe('true');
    expect(json(retry)).toEqual(json(first));
    // Invites are the ops admin's: a dealer or a viewer is refused.
    expect((await api('demo', 'POST', '/api/client/user/invite/', body)).statusCode).toBe(403);
    expect((await api('viewer', 'POST', '/api/client/user/invite/revoke/', { invitee_id: ids.demo })).statusCode).toBe(403);
  });

  it('changes roles with the spec rules; tenants apart; the change takes effect at once', async () => {
    const put = (who: string, body: object) => api(who, 'PUT', '/api/client/user/', body);
    const rule = async (roles: string[], message: string) => {
      const response = await put('opsadmin', { user_id: ids.backoffice, roles });
      expect(response.statusCode, response.body).toBe(400);
      expect(json<Errors>(response).errors?.roles).toEqual([message]);
    };
    await rule(['complianceofficer'], TEAM_MESSAGES.complianceTwoRoles);
    await rule(['complianceofficer', 'backoffice', 'user'], TEAM_MESSAGES.complianceTwoRoles);
    await rule(['clientviewer', 'user'], TEAM_MESSAGES.viewerOnly);
    await rule([], TEAM_MESSAGES.chooseRole);
    await rule(['backoffice', 'backoffice'], TEAM_MESSAGES.duplicateRole);
    const unknown = await put('opsadmin', { user_id: ids.backoffice, roles: ['backoffice'], client_id: 'x' });
    expect(json<Errors>(unknown).errors).toEqual({ client_id: ['Unknown field.'] });
    expect(json<Errors>(await put('opsadmin', { user_id: ids.backoffice, roles: ['superuser'] })).code).toBe('VALIDATION_FAILED');
    // Another firm's user is "not found"; other roles may not change roles at all.
    const foreign = await put('opsadmin', { user_id: ids.second, roles: ['clientviewer'] });
    expect(foreign.statusCode).toBe(404);
    expect(json<Errors>(foreign).message).toBe(TEAM_MESSAGES.userNotFound);
    expect((await put('north', { user_id: ids.backoffice, roles: ['clientviewer'] })).statusCode).toBe(404);
    expect((await put('demo', { user_id: ids.backoffice, roles: ['clientviewer'] })).statusCode).toBe(403);
    expect((await put('compliance', { user_id: ids.backoffice, roles: ['clientviewer'] })).statusCode).toBe(403);

    // Back office becomes a compliance user (two roles): view-only from the next request on.
    const changed = await put('opsadmin', { user_id: ids.backoffice, roles: ['complianceofficer', 'backoffice'] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(json<TeamUser>(changed)).toMatchObject({ id: ids.backoffice, roles: ['complianceofficer', 'backoffice'], status: 'active' });
    const refused = await api('backoffice', 'POST', '/api/client/register-user/lite', {
      identity: { first_name: 'Ravi', last_name: 'Kumar' },
      contact: { email: 'ravi@coastalbank.in' },
    });
    expect(refused.statusCode).toBe(403);
    expect(json<Errors>(refused).code).toBe('VIEW_ONLY');
    const session = json<{ user_info: { roles: string[] } }>(await api('backoffice', 'GET', '/api/session/'));
    expect(session.user_info.roles.sort()).toEqual(['backoffice', 'complianceofficer']);
    // The same roles again write nothing.
    await put('opsadmin', { user_id: ids.backoffice, roles: ['backoffice', 'complianceofficer'] });
    expect((await auditActions(['user.roles_changed'])).length).toBe(1);
  });

  it('deactivates and reactivates a member, and never removes the last ops admin', async () => {
    const put = (body: object) => api('opsadmin', 'PUT', '/api/client/user/', body);
    const opsadmin = json<{ user_info: { id: string } }>(await api('opsadmin', 'GET', '/api/session/')).user_info.id;
    const dropOwn = await put({ user_id: opsadmin, roles: ['clientdealer'] });
    expect(dropOwn.statusCode).toBe(400);
    expect(json<Errors>(dropOwn).errors).toEqual({ roles: [TEAM_MESSAGES.lastOpsAdmin] });
    const deactivateOwn = await put({ user_id: opsadmin, roles: ['clientopsadmin'], status: 'inactive' });
    expect(json<Errors>(deactivateOwn).errors).toEqual({ status: [TEAM_MESSAGES.lastOpsAdmin] });

    const off = await put({ user_id: ids.viewer, roles: ['clientviewer'], status: 'inactive' });
    expect(off.statusCode, off.body).toBe(200);
    expect(json<TeamUser>(off).status).toBe('inactive');
    expect((await api('viewer', 'GET', '/api/session/')).statusCode).toBe(401);
    const listed = json<{ results: TeamUser[] }>(await api('opsadmin', 'GET', '/api/useraccounts/?search=priya')).results;
    expect(listed.map((u) => [u.email, u.status])).toEqual([['viewer@demo.dart', 'inactive']]);
    expect((await put({ user_id: ids.viewer, roles: ['clientviewer'], status: 'active' })).statusCode).toBe(200);
    tokens.viewer = (await login(t.app, 'viewer@demo.dart')).access;
    expect((await api('viewer', 'GET', '/api/session/')).statusCode).toBe(200);

    // With a second ops admin, the first may step down.
    const promoted = await put({ user_id: ids.demo, roles: ['clientdealer', 'clientopsadmin'], permissions: [...PERMISSIONS].sort() });
    expect(json<TeamUser>(promoted).permissions.sort()).toEqual([...PERMISSIONS].sort());
    expect((await put({ user_id: opsadmin, roles: ['user'] })).statusCode).toBe(200);
    expect((await api('opsadmin', 'GET', '/api/client/users/')).statusCode).toBe(403);
    expect((await api('demo', 'PUT', '/api/client/user/', { user_id: opsadmin, roles: ['clientopsadmin'] })).statusCode).toBe(200);
    expect((await auditActions(['user.deactivated', 'user.reactivated'])).sort()).toEqual(['user.deactivated', 'user.reactivated']);
  });

  it('reads and updates the organisation profile with every §5 rule and message', async () => {
    const before = json<ClientProfile>(await api('viewer', 'GET', '/api/client/'));
    expect(before).toMatchObject({ name: 'Demo Capital', pan: 'AABCD1234E', client_tier: 'PREMIUM', bank_account: null });
    const clientId = before.id;
    const bad = await api('opsadmin', 'PUT', `/api/client/${clientId}/`, {
      pan: 'AABCD1234',
      gst: '27AABCD1234E1Z',
      business_email: 'treasury@gmail.com',
      website: 'not a website',
      registered_address: { line1: '', city: 'Mumbai', state: 'Atlantis', pincode: '4000' },
      bank_account: { account_number: '12345', ifsc: 'HDFC1000001' },
      demat: { bo_id: '12081600', dp_id: 'IN30', client_id: '1023' },
      settlement_cutoff_time: '25:00',
    });
    expect(bad.statusCode).toBe(400);
    expect(json<Errors>(bad).errors).toEqual({
      pan: [MESSAGES.pan],
      gst: [MESSAGES.gst],
      business_email: [MESSAGES.businessEmailPersonal],
      website: [TEAM_MESSAGES.websiteInvalid],
      'registered_address.line1': [TEAM_MESSAGES.lineRequired],
      'registered_address.state': [TEAM_MESSAGES.stateRequired],
      'registered_address.pincode': [MESSAGES.pincode],
      'bank_account.account_number': [MESSAGES.accountNumber],
      'bank_account.ifsc': [MESSAGES.ifsc],
      'demat.bo_id': [MESSAGES.boId],
      'demat.dp_id': [MESSAGES.dpId],
      'demat.client_id': [MESSAGES.clientId],
      settlement_cutoff_time: [MESSAGES.time],
    });
    const badEmail = await api('opsadmin', 'PUT', `/api/client/${clientId}/`, { pan: 'AABCD1234E', business_email: 'treasury@' });
    expect(json<Errors>(badEmail).errors).toEqual({ business_email: [MESSAGES.businessEmailInvalid] });

    const saved = await api('opsadmin', 'PUT', `/api/client/${clientId}/`, PROFILE);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(json<ClientProfile>(saved)).toMatchObject({
      website: 'democapital.in',
      gst: '27AABCD1234E1Z5',
      bank_account: { account_number: '50100123456789', ifsc: 'HDFC0000060' },
      correspondence_address: { state: 'Haryana', line2: null },
      settlement_cutoff_time: '14:30',
    });
    // Members read it; only ops admins see the account number in full.
    const seen = json<ClientProfile>(await api('viewer', 'GET', '/api/client/'));
    expect(seen.bank_account?.account_number).toBe('XXXXXXXXXX6789');
    expect(seen.demat).toEqual(PROFILE.demat);
    // 'Other' and every one of the 36 states are accepted.
    expect(INDIAN_STATES).toHaveLength(36);
    expect(ADDRESS_STATES.at(-1)).toBe('Other');
    const other = await api('opsadmin', 'PUT', `/api/client/${clientId}/`, {
      ...PROFILE,
      correspondence_address: { ...PROFILE.correspondence_address, state: 'Other' },
    });
    expect(other.statusCode, other.body).toBe(200);

    // Another firm's id is "not found"; a viewer or dealer may not write; nothing half-written.
    expect((await api('north', 'PUT', `/api/client/${clientId}/`, PROFILE)).statusCode).toBe(404);
    expect((await api('viewer', 'PUT', `/api/client/${clientId}/`, PROFILE)).statusCode).toBe(403);
    const northId = json<ClientProfile>(await api('north', 'GET', '/api/client/')).id;
    const taken = await api('north', 'PUT', `/api/client/${northId}/`, { pan: 'AAACK4409J', website: 'democapital.in' });
    expect(taken.statusCode).toBe(400);
    expect(json<Errors>(taken).errors).toEqual({ website: [TEAM_MESSAGES.websiteTaken] });
    expect(json<ClientProfile>(await api('north', 'GET', '/api/client/')).website).toBeNull();

    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'client.profile_updated'));
    expect(audit).toHaveLength(2);
    expect(JSON.stringify(audit[0]!.after)).not.toContain('50100123456789');

    // The firm behind a website, however it is typed.
    const found = await api('second', 'GET', '/api/client/by-website/?website=http%3A%2F%2Fwww.DemoCapital.in%2Fteam');
    expect(json(found)).toEqual({ client_id: clientId, name: 'Demo Capital', is_broker: false, website: 'democapital.in' });
    const none = await api('second', 'GET', '/api/client/by-website/?website=no-such-firm.in');
    expect(json<Errors>(none)).toEqual({ code: 'NOT_FOUND', message: TEAM_MESSAGES.noClientForWebsite });
    expect(json<Errors>(await api('second', 'GET', '/api/client/by-website/?website=%20')).errors).toEqual({
      website: [TEAM_MESSAGES.websiteInvalid],
    });
  });

  it('records offline counterparties for the recording firm only', async () => {
    const body = {
      identity: { first_name: 'Ravi', last_name: 'Kumar' },
      contact: { email: 'ravi.kumar@coastalcoop.in', mobile: '+919812345678' },
      corporate_identity: { name: 'Coastal Co-operative Bank' },
      pan: 'AAACC7788L',
    };
    const created = await api('demo', 'POST', '/api/client/register-user/lite', body, { 'idempotency-key': 'lite-1' });
    expect(created.statusCode, created.body).toBe(201);
    const record = json<NetworkClient>(created);
    expect(record).toMatchObject({ name: 'Coastal Co-operative Bank', offline_record: true, contact: { mobile: '9812345678' } });
    const replay = await api('demo', 'POST', '/api/client/register-user/lite', body, { 'idempotency-key': 'lite-1' });
    expect(json(replay)).toEqual(record);
    const duplicate = await api('demo', 'POST', '/api/client/register-user/lite', body);
    expect(json<Errors>(duplicate).errors).toEqual({ 'contact.email': [TEAM_MESSAGES.offlineDuplicate] });
    const bad = await api('demo', 'POST', '/api/client/register-user/lite', {
      identity: { first_name: 'R@vi', last_name: '' },
      contact: { email: 'ravi', mobile: '12345' },
      pan: 'ABC',
    });
    expect(json<Errors>(bad).errors).toEqual({
      'identity.first_name': [MESSAGES.nameSpecialCharacters],
      'identity.last_name': ['Last name is required.'],
      'contact.email': [MESSAGES.email],
      'contact.mobile': [MESSAGES.mobile],
      pan: [MESSAGES.pan],
    });
    expect((await api('viewer', 'POST', '/api/client/register-user/lite', body)).statusCode).toBe(403);

    const mine = json<{ results: NetworkClient[] }>(await api('viewer', 'GET', '/api/clients/?offline_record=true&search=coastal')).results;
    expect(mine.map((c) => c.client_id)).toEqual([record.client_id]);
    const theirs = json<{ results: NetworkClient[] }>(await api('second', 'GET', '/api/clients/?search=coastal')).results;
    expect(theirs).toEqual([]);
    expect(await auditActions(['client.offline_recorded'])).toEqual(['client.offline_recorded']);
  });

  it('lists the network: partners, facilitators, agents and the firm’s own members', async () => {
    const firms = async (who: string, query: string) =>
      json<{ results: NetworkClient[] }>(await api(who, 'GET', `/api/clients/${query}`)).results;
    const second = (await firms('demo', '?search=second')).find((c) => c.name === 'Second Bank');
    expect(second).toMatchObject({ is_partner: false, offline_record: false, contact: null });
    expect((await firms('demo', '?is_partner=true')).map((c) => c.name)).toEqual([]);
    await makeDeal(t); // Demo Capital buys the HDFC Bank NCD (INE040A08955) from Second Bank.
    expect((await firms('demo', '?is_partner=true')).map((c) => c.name)).toEqual(['Second Bank']);
    expect((await firms('second', '?is_partner=true&offline_record=false')).map((c) => c.name)).toEqual(['Demo Capital']);
    const everyone = await firms('demo', '');
    expect(everyone.some((c) => c.name === 'Demo Capital')).toBe(false);
    expect(JSON.stringify(everyone)).not.toMatch(/@second\.dart|@brokers\.dart|AABCS5678F/);
    expect((await api('demo', 'GET', '/api/clients/?is_partner=maybe')).statusCode).toBe(400);

    const facilitatorResponse = await api('viewer', 'GET', '/api/trade/facilitator/');
    expect(facilitatorResponse.statusCode, facilitatorResponse.body).toBe(200);
    const facilitators = json<{ results: Array<{ name: string; agents: number }> }>(facilitatorResponse);
    expect(facilitators.results).toEqual([expect.objectContaining({ name: 'Demo Brokers', agents: 1 })]);
    const agents = json<{ results: Array<{ user_name: string; brand_name: string }> }>(
      await api('demo', 'GET', '/api/trade/agent/?search=farhan'),
    );
    expect(agents.results).toEqual([expect.objectContaining({ user_name: 'Farhan Shaikh', brand_name: 'Demo Brokers' })]);
    expect((await api('demo', 'GET', '/api/trade/agent/?page=2')).statusCode).toBe(400);

    const own = json<{ results: TeamUser[] }>(await api('second', 'GET', '/api/useraccounts/')).results;
    expect(own.map((u) => u.email)).toEqual(['dealer@second.dart']);
    const demo = json<{ results: TeamUser[]; count: number }>(await api('compliance', 'GET', '/api/useraccounts/?search=demo.dart'));
    expect(demo.count).toBe(5);

    // The chat calls of §7 the panel uses already exist (modules/chat, modules/tickets).
    const routes = t.app.routeInventory.map((r) => `${r.method} ${r.url}`);
    expect(routes).toEqual(expect.arrayContaining(['POST /api/chatter/invite-users', 'GET /api/chatter/users-clients-unified/']));
  });
});
