import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, latestOtp, login, type TestApp } from './helpers';

describe.each(DRIVERS)('registration and invites (%s)', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function verify(email: string): Promise<string> {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/request-otp/',
      payload: { email, request_type: 'register', auth_mode: 'email' },
    });
    expect(sent.statusCode).toBe(200);
    const otp = await latestOtp(t.app, email);
    const validated = await t.app.inject({
      method: 'POST',
      url: '/api/validate-otp/',
      payload: { email, otp, request_type: 'register', auth_mode: 'email' },
    });
    expect(validated.statusCode).toBe(200);
    return json<{ verification: string }>(validated).verification;
  }

  const payload = (email: string, mobile: string, verification: string, extra: Record<string, unknown> = {}) => ({
    auth_mode: 'password',
    pan: 'AAACH1234K',
    password: 'Treasury2026',
    identity: { first_name: 'Meera', last_name: 'Shah' },
    client_type: 'CORP',
    category: null,
    corporate_identity: { name: 'Shah Treasury Services' },
    contact: { email, mobile, whatsapp_consent: true },
    verification,
    ...extra,
  });

  it('enforces every field rule with the spec messages', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/client/register/',
      payload: {
        auth_mode: 'password',
        pan: 'ABC',
        password: 'short',
        identity: { first_name: '', last_name: 'Sh@h' },
        client_type: 'CORP',
        category: null,
        corporate_identity: { name: 'Acme' },
        contact: { email: 'nope', mobile: '12345', whatsapp_consent: false },
        verification: 'x',
      },
    });
    expect(response.statusCode).toBe(400);
    const errors = json<{ errors: Record<string, string[]> }>(response).errors;
    expect(errors.pan).toEqual(['Please enter a valid PAN (10 Digits).']);
    expect(errors['identity.first_name']).toEqual(['First name is required.']);
    expect(errors['identity.last_name']).toEqual(['Should not contain special characters.']);
    expect(errors['contact.email']).toEqual(['Please enter a valid email address.']);
    expect(errors['contact.mobile']).toEqual(['Please enter a valid Phone number.']);
    expect(errors.password?.[0]).toBe('Password must be at least 8 characters with a letter and a number.');
  });

  it('refuses registration without a verified e-mail, and writes nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/client/register/',
      payload: payload('meera@shahtreasury.in', '9123456780', 'forged-proof'),
    });
    expect(response.statusCode).toBe(400);
    expect(json(response).errors).toEqual({ verification: ['Please verify your email address.'] });
    const rows = await t.database.query("SELECT 1 FROM clients WHERE name = 'Shah Treasury Services'");
    expect(rows).toHaveLength(0);
  });

  it('registers a new BASIC client whose first user is its ops admin and dealer, signed in', async () => {
    const verification = await verify('meera@shahtreasury.in');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/client/register/',
      payload: payload('meera@shahtreasury.in', '9123456780', verification),
    });
    expect(response.statusCode).toBe(200);
    const session = json<{ name: string; client_tier: string; user_info: { roles: string[] } }>(
      await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(json<{ access: string }>(response).access) }),
    );
    expect(session.name).toBe('Shah Treasury Services');
    expect(session.client_tier).toBe('BASIC');
    expect(session.user_info.roles.sort()).toEqual(['clientdealer', 'clientopsadmin']);
    // The proof is single-use.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/client/register/',
      payload: payload('meera@shahtreasury.in', '9123456781', verification),
    });
    expect(again.statusCode).toBe(400);
    // And the new user can sign in with the password.
    await login(t.app, 'meera@shahtreasury.in', 'Treasury2026');
  });

  it('rejects a second account for the same e-mail', async () => {
    const verification = await verify('dealer@demo.dart');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/client/register/',
      payload: payload('dealer@demo.dart', '9123456782', verification),
    });
    expect(response.statusCode).toBe(400);
    expect(json(response).errors).toEqual({ 'contact.email': ['A user with this email already exists.'] });
  });

  it('joins an existing client by invite with the invited roles; a bad invite is 410', async () => {
    const ops = await login(t.app, 'opsadmin@demo.dart');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/client/invites/',
      headers: bearer(ops.access),
      payload: { email: 'analyst@democapital.in', roles: ['clientviewer'], permissions: ['client.view_client'] },
    });
    expect(created.statusCode).toBe(201);
    const invite = json<{ token: string; client_name: string }>(created);
    expect(invite.client_name).toBe('Demo Capital');
    expect((await t.app.inject({ method: 'GET', url: `/api/invites/${invite.token}/` })).statusCode).toBe(200);
    const pending = json<{ results: Array<{ email: string }> }>(
      await t.app.inject({ method: 'GET', url: '/api/client/invites/', headers: bearer(ops.access) }),
    );
    expect(pending.results.map((r) => r.email)).toContain('analyst@democapital.in');
    const mail = json<{ results: Array<{ body: string }> }>(
      await t.app.inject({ method: 'GET', url: '/api/dev/outbox?to=analyst%40democapital.in' }),
    );
    expect(mail.results[0]!.body).toContain(`http://localhost:80/client/register?invite=${invite.token}`.replace(':80', ''));
    const bad = await t.app.inject({ method: 'GET', url: '/api/invites/not-a-real-invite/' });
    expect(bad.statusCode).toBe(410);
    expect(json(bad)).toEqual({ code: 'INVITE_INVALID', message: 'Invitation URL invalid' });

    const verification = await verify('analyst@democapital.in');
    const joined = await t.app.inject({
      method: 'POST',
      url: '/api/client/register/',
      payload: {
        ...payload('analyst@democapital.in', '9123456783', verification, { corporate_identity: null, invite: invite.token }),
        client_type: undefined,
      },
    });
    expect(joined.statusCode).toBe(200);
    const session = json<{ name: string; user_info: { roles: string[] } }>(
      await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(json<{ access: string }>(joined).access) }),
    );
    expect(session.name).toBe('Demo Capital');
    expect(session.user_info.roles).toEqual(['clientviewer']);
    // An accepted invite cannot be used again.
    expect((await t.app.inject({ method: 'GET', url: `/api/invites/${invite.token}/` })).statusCode).toBe(410);
  });
});

describe.each(DRIVERS)('password reset (%s)', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('e-mails a link, sets the new password once, and ends existing sessions', async () => {
    const old = await login(t.app, 'viewer@demo.dart');
    const requested = await t.app.inject({
      method: 'POST',
      url: '/api/reset-password/',
      headers: { host: 'dart.local' },
      payload: { email: 'viewer@demo.dart', web_url: 'http://dart.local/auth/reset-password' },
    });
    expect(requested.statusCode).toBe(200);
    const outbox = json<{ results: Array<{ body: string }> }>(
      await t.app.inject({ method: 'GET', url: '/api/dev/outbox?to=viewer%40demo.dart' }),
    );
    const link = new URL(/http\S+/.exec(outbox.results[0]!.body)![0]);
    expect(link.pathname).toBe('/auth/reset-password');
    const uid = link.searchParams.get('uid')!;
    const token = link.searchParams.get('token')!;

    const mismatch = await t.app.inject({
      method: 'POST',
      url: `/api/change-password/${uid}/`,
      payload: { new_password1: 'NewPass2026', new_password2: 'Other2026x', token },
    });
    expect(json(mismatch).errors).toEqual({ new_password2: ['The two password fields didn’t match.'] });
    const changed = await t.app.inject({
      method: 'POST',
      url: `/api/change-password/${uid}/`,
      payload: { new_password1: 'NewPass2026', new_password2: 'NewPass2026', token },
    });
    expect(changed.statusCode).toBe(200);
    const reused = await t.app.inject({
      method: 'POST',
      url: `/api/change-password/${uid}/`,
      payload: { new_password1: 'Another2026', new_password2: 'Another2026', token },
    });
    expect(reused.statusCode).toBe(400);
    expect(json(reused).errors).toEqual({ token: ['The password reset link is invalid or has expired.'] });
    expect((await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(old.access) })).statusCode).toBe(401);
    await login(t.app, 'viewer@demo.dart', 'NewPass2026');
  });

  it('answers the same for unknown e-mails and refuses links to other sites', async () => {
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/reset-password/',
      headers: { host: 'dart.local' },
      payload: { email: 'ghost@x.in', web_url: 'http://dart.local/auth/reset-password' },
    });
    expect(unknown.statusCode).toBe(200);
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/reset-password/',
      headers: { host: 'dart.local' },
      payload: { email: 'viewer@demo.dart', web_url: 'https://evil.example/reset' },
    });
    expect(foreign.statusCode).toBe(400);
  });
});
