/**
 * Issue 15 §2, the support desk through the HTTP API on both databases: the spec's ticket type ids (and the
 * production ids under SUPPORT_TICKET_IDS), every request type raised as its type with the spec's toast,
 * attachments through the virus scan, Dart Support's queue, reply and status seen by the requester (with the
 * unread badge and the e-mails in the dev outbox), tenant isolation, view-only users, bad input and
 * idempotent submits.
 */
import {
  SUPPORT_MESSAGES,
  SUPPORT_REQUEST_TYPE_TICKET_TYPES,
  SUPPORT_REQUEST_TYPES,
  SUPPORT_TICKET_IDS_DEV,
  SUPPORT_TICKET_IDS_PRODUCTION,
  SUPPORT_TOASTS,
  parseSupportTicketIds,
  type SupportTicket,
  type SupportTicketSummary,
} from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DRIVERS, json, login, type TestApp } from './helpers';

type Errors = { code: string; message: string; errors?: Record<string, string[]> };
type List = { count: number; results: SupportTicketSummary[] };
type Created = { id: string; number: number; ticket_type: string; ticket_type_id: number; request_type: string | null; detail: string };

/** 1×1 transparent PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
/** The EICAR anti-virus test file (eicar.org), assembled so this source file is not itself flagged. */
const EICAR = ['X5O!P%@AP[4\\PZX54(P^)7CC)7}$', 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*'].join('');

const USERS = {
  dealer: 'dealer@demo.dart',
  viewer: 'viewer@demo.dart',
  opsadmin: 'opsadmin@demo.dart',
  compliance: 'compliance@demo.dart',
  other: 'dealer@second.dart',
  staff: 'support@dart.in',
  basic: 'basic@small.dart',
} as const;
type Who = keyof typeof USERS;

function raise(requestType: string | null, text: string, extra: Record<string, unknown> = {}) {
  const type = requestType ? SUPPORT_REQUEST_TYPE_TICKET_TYPES[requestType as keyof typeof SUPPORT_REQUEST_TYPE_TICKET_TYPES] : 'feedback';
  return {
    ticket_type_id: SUPPORT_TICKET_IDS_DEV[type],
    contacts: [],
    ticket_attributes: { _default_description_: text, request_type: requestType, extras: {}, ...extra },
  };
}

describe('support ticket ids', () => {
  it('parses SUPPORT_TICKET_IDS in the spec order query/issue/access/feedback, refusing bad lists', () => {
    expect(parseSupportTicketIds('3/1/4/2')).toEqual(SUPPORT_TICKET_IDS_DEV);
    expect(parseSupportTicketIds('5/1/8/6')).toEqual(SUPPORT_TICKET_IDS_PRODUCTION);
    expect(SUPPORT_TICKET_IDS_DEV).toEqual({ query: 3, issue: 1, access: 4, feedback: 2 });
    expect(SUPPORT_TICKET_IDS_PRODUCTION).toEqual({ query: 5, issue: 1, access: 8, feedback: 6 });
    for (const bad of ['3/1/4', '3/1/4/3', 'a/b/c/d', '3/1/4/0', ''])
      expect(() => parseSupportTicketIds(bad), bad).toThrow(/SUPPORT_TICKET_IDS/);
  });
});

describe.each(DRIVERS)('support desk (%s)', (driver) => {
  let t: TestApp;
  const tokens = {} as Record<Who, string>;
  const call = (who: Who | null, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method,
      url,
      headers: { ...(who ? bearer(tokens[who]) : {}), ...headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const upload = (who: Who, bytes: Buffer | string, type: string, name = 'screen.png') =>
    t.app.inject({
      method: 'POST',
      url: `/ext/public/upload/?fileName=${encodeURIComponent(name)}`,
      headers: { ...bearer(tokens[who]), 'content-type': type },
      payload: bytes,
    });
  const countOf = async (query: string, params: unknown[] = []) =>
    Number((await t.database.query<{ n: number }>(query, params))[0]?.n ?? -1);
  const outbox = async (to: string) =>
    json<{ results: Array<{ subject: string; body: string }> }>(
      await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}&limit=100` }),
    ).results;

  beforeAll(async () => {
    t = await createTestApp(driver);
    for (const [who, email] of Object.entries(USERS)) tokens[who as Who] = (await login(t.app, email)).access;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('raises every request type as its ticket type with the spec toast, and feedback by its id alone', async () => {
    const toastOf = { query: SUPPORT_TOASTS.query, issue: SUPPORT_TOASTS.issue, access: SUPPORT_TOASTS.access } as const;
    for (const requestType of SUPPORT_REQUEST_TYPES) {
      const response = await call('dealer', 'POST', '/ext/tickets/', raise(requestType, `About ${requestType}`));
      expect(response.statusCode, requestType).toBe(201);
      const created = json<Created>(response);
      const type = SUPPORT_REQUEST_TYPE_TICKET_TYPES[requestType];
      expect(created).toMatchObject({ ticket_type: type, ticket_type_id: SUPPORT_TICKET_IDS_DEV[type], request_type: requestType });
      expect(created.detail).toBe(requestType === 'contact_form' ? SUPPORT_TOASTS.contactForm : toastOf[type as keyof typeof toastOf]);
    }
    const feedback = await call('dealer', 'POST', '/ext/tickets/', raise(null, 'The new blotter is quick.'));
    expect(feedback.statusCode).toBe(201);
    expect(json<Created>(feedback)).toMatchObject({
      ticket_type: 'feedback',
      ticket_type_id: 2,
      detail: 'Thank you for your valuable feedback',
    });
    // The toasts are the spec's words.
    expect(SUPPORT_TOASTS).toEqual({
      query: 'Your query has been noted. We will respond shortly via email.',
      issue: 'Thank you for reporting the issue. We will update you shortly via email.',
      access: 'Your request has been noted. We will update you shortly via email.',
      feedback: 'Thank you for your valuable feedback',
      contactForm: 'Your message has been noted',
    });
    expect(SUPPORT_MESSAGES.ticketError).toBe('Error creating intercom ticket');
    expect(SUPPORT_MESSAGES.uploadError).toBe('Error uploading file');
    const mine = json<List>(await call('dealer', 'GET', '/ext/tickets/?page_size=100'));
    expect(mine.count).toBe(SUPPORT_REQUEST_TYPES.length + 1);
    // The requester got the toast by e-mail.
    expect((await outbox(USERS.dealer)).some((m) => m.body.startsWith(SUPPORT_TOASTS.issue))).toBe(true);
  });

  it('refuses bad input with field errors and the spec-side messages, never a 500', async () => {
    const cases: Array<[unknown, string, string]> = [
      [raise('pricing', '   '), 'ticket_attributes._default_description_', SUPPORT_MESSAGES.textRequired],
      [{ ...raise('pricing', 'x'), ticket_type_id: 5 }, 'ticket_type_id', SUPPORT_MESSAGES.unknownTicketType],
      [{ ...raise('pricing', 'x'), ticket_type_id: 1 }, 'ticket_type_id', 'A pricing request is raised as a query ticket.'],
      [{ ...raise(null, 'x'), ticket_type_id: 3 }, 'ticket_attributes.request_type', SUPPORT_MESSAGES.requestTypeRequired],
      [raise('nonsense', 'x'), 'ticket_attributes.request_type', SUPPORT_MESSAGES.requestTypeRequired],
      [{ ...raise('pricing', 'x'), contacts: [{ email: 'dealer@second.dart' }] }, 'contacts', SUPPORT_MESSAGES.contactsSelf],
      [
        raise('pricing', 'x', { attachment_ids: ['00000000-0000-4000-8000-000000000000'] }),
        'ticket_attributes.attachment_ids',
        SUPPORT_MESSAGES.attachmentNotFound,
      ],
      [{ ...raise('pricing', 'x'), owner: 'me' }, 'owner', 'Unknown field.'],
    ];
    for (const [body, field, message] of cases) {
      const response = await call('dealer', 'POST', '/ext/tickets/', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(json<Errors>(response).errors?.[field], field).toEqual([message]);
    }
    expect((await call('dealer', 'GET', '/ext/tickets/not-a-uuid/')).statusCode).toBe(400);
    expect((await call('dealer', 'POST', '/ext/tickets/00000000-0000-4000-8000-000000000000/reply/', { body: '' })).statusCode).toBe(400);
    expect((await call('dealer', 'GET', '/ext/tickets/00000000-0000-4000-8000-000000000000/')).statusCode).toBe(404);
    expect((await call(null, 'POST', '/ext/tickets/', raise('pricing', 'x'))).statusCode).toBe(401);
  });

  it('stores attachments through the virus scan: an infected or mistyped file is refused and nothing is stored', async () => {
    const before = await countOf('SELECT count(*)::int AS n FROM support_attachments');
    const infected = await upload('dealer', EICAR, 'text/plain', 'notes.txt');
    expect(infected.statusCode).toBe(400);
    expect(json<Errors>(infected).errors).toEqual({ file: ['The file was rejected by the virus scan.'] });
    const disguised = await upload('dealer', Buffer.from('MZ\x90\x00 not a png'), 'image/png');
    expect(json<Errors>(disguised).errors).toEqual({ file: [SUPPORT_MESSAGES.fileTypeNotAllowed] });
    const exe = await upload('dealer', Buffer.from('MZ'), 'application/x-msdownload', 'setup.exe');
    expect(exe.statusCode).toBe(400);
    const empty = await upload('dealer', Buffer.alloc(0), 'image/png');
    expect(empty.statusCode).toBe(400);
    const after = await countOf('SELECT count(*)::int AS n FROM support_attachments');
    expect(after).toBe(before);

    const clean = await upload('dealer', PNG, 'image/png', '../../etc/price.png');
    expect(clean.statusCode).toBe(201);
    const attachment = json<{ id: string; name: string; type: string; size: number; url: string | null }>(clean);
    expect(attachment).toMatchObject({ name: '.._.._etc_price.png', type: 'image/png', size: PNG.length, url: null });

    // Another user cannot put my upload on their ticket.
    const stolen = await call('other', 'POST', '/ext/tickets/', raise('report_issue', 'Price wrong', { attachment_ids: [attachment.id] }));
    expect(json<Errors>(stolen).errors).toEqual({ 'ticket_attributes.attachment_ids': [SUPPORT_MESSAGES.attachmentNotFound] });

    const created = json<Created>(
      await call(
        'dealer',
        'POST',
        '/ext/tickets/',
        raise('report_issue', 'Price/yield seems incorrect on 7.26% GS 2033', {
          attachment_ids: [attachment.id],
          extras: { isin: 'IN0020220151', checks: ['Price/yield seems incorrect'], share_pricing: true },
        }),
      ),
    );
    const ticket = json<SupportTicket>(await call('dealer', 'GET', `/ext/tickets/${created.id}/`));
    expect(ticket.attachments).toEqual([{ ...attachment, url: `/ext/tickets/${created.id}/attachments/${attachment.id}/` }]);
    expect(ticket.extras).toEqual({ isin: 'IN0020220151', checks: ['Price/yield seems incorrect'], share_pricing: true });
    const download = await call('dealer', 'GET', ticket.attachments[0]!.url!);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PNG)).toBe(true);
    expect(download.headers['content-type']).toBe('image/png');
    // Used once: the same upload cannot join a second ticket.
    const again = await call('dealer', 'POST', '/ext/tickets/', raise('report_issue', 'Again', { attachment_ids: [attachment.id] }));
    expect(again.statusCode).toBe(400);
    expect((await call('other', 'GET', ticket.attachments[0]!.url!)).statusCode).toBe(404);
  });

  it('lets Dart Support work the queue: the requester sees the reply, the status, the badge and the e-mails', async () => {
    const created = json<Created>(
      await call('dealer', 'POST', '/ext/tickets/', raise('inventory_access', 'Please enable the inventory page for our desk.')),
    );
    // Only staff see the queue or change a status.
    for (const who of ['dealer', 'opsadmin', 'viewer'] as const) {
      expect((await call(who, 'GET', '/ext/support/queue/')).statusCode, who).toBe(403);
      const refused = await call(who, 'PATCH', `/ext/tickets/${created.id}/status/`, { status: 'resolved', version: 1 });
      expect(refused.statusCode, who).toBe(403);
    }
    const queue = json<List>(await call('staff', 'GET', '/ext/support/queue/?page_size=100'));
    const queued = queue.results.find((r) => r.id === created.id)!;
    expect(queued).toMatchObject({
      status: 'open',
      ticket_type: 'access',
      requester: { email: USERS.dealer, client_name: 'Demo Capital' },
    });
    expect((await outbox(USERS.staff)).some((m) => m.subject.includes(`#${created.number}`))).toBe(true);

    const replied = await call('staff', 'POST', `/ext/tickets/${created.id}/reply/`, {
      body: 'Enabled for your firm. Please sign in again.',
    });
    expect(replied.statusCode).toBe(201);
    expect(json<SupportTicket>(replied).status).toBe('in_progress');

    expect(json(await call('dealer', 'GET', '/ext/tickets/unread/'))).toEqual({ unread: 1, tickets: 1 });
    const seen = json<SupportTicket>(await call('dealer', 'GET', `/ext/tickets/${created.id}/`));
    expect(seen.unread_replies).toBe(1);
    expect(seen.messages).toEqual([
      expect.objectContaining({ author: 'staff', author_name: 'Dart Support', body: 'Enabled for your firm. Please sign in again.' }),
    ]);
    const mail = await outbox(USERS.dealer);
    expect(mail.some((m) => m.subject.startsWith(`Re: Dart Support #${created.number}`) && m.body.includes('Enabled for your firm'))).toBe(
      true,
    );
    expect(json(await call('dealer', 'POST', `/ext/tickets/${created.id}/read/`))).toEqual({ unread: 0, tickets: 0 });
    expect(
      json<List>(await call('dealer', 'GET', '/ext/tickets/?page_size=100')).results.find((r) => r.id === created.id)!.unread_replies,
    ).toBe(0);

    // The requester answers; staff resolve with the version they read; a stale version is refused.
    await call('dealer', 'POST', `/ext/tickets/${created.id}/reply/`, { body: 'Works now, thank you.' });
    const current = json<SupportTicket>(await call('staff', 'GET', `/ext/tickets/${created.id}/`));
    expect(current.messages.map((m) => m.author)).toEqual(['staff', 'user']);
    const stale = await call('staff', 'PATCH', `/ext/tickets/${created.id}/status/`, { status: 'resolved', version: current.version - 1 });
    expect(stale.statusCode).toBe(409);
    const resolved = await call('staff', 'PATCH', `/ext/tickets/${created.id}/status/`, { status: 'resolved', version: current.version });
    expect(resolved.statusCode).toBe(200);
    expect(json<SupportTicket>(resolved)).toMatchObject({ status: 'resolved', status_label: 'Resolved' });
    expect(json<List>(await call('dealer', 'GET', '/ext/tickets/?status=resolved')).results.map((r) => r.id)).toContain(created.id);
    expect((await outbox(USERS.dealer)).some((m) => m.body === `Your request #${created.number} is now Resolved.`)).toBe(true);
    const bad = await call('staff', 'PATCH', `/ext/tickets/${created.id}/status/`, { status: 'done', version: 1 });
    expect(bad.statusCode).toBe(400);

    // Closed is final: no more replies.
    const closed = json<SupportTicket>(
      await call('staff', 'PATCH', `/ext/tickets/${created.id}/status/`, {
        status: 'closed',
        version: json<SupportTicket>(resolved).version,
      }),
    );
    expect(closed.status).toBe('closed');
    const late = await call('dealer', 'POST', `/ext/tickets/${created.id}/reply/`, { body: 'One more thing' });
    expect(late.statusCode).toBe(409);
    expect(json<Errors>(late).message).toBe(SUPPORT_MESSAGES.closed);

    const actions = await t.database.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE entity = 'support_ticket' AND entity_id = $1 ORDER BY id",
      [created.id],
    );
    expect(actions.map((a) => a.action)).toEqual([
      'support.ticket_created',
      'support.ticket_replied',
      'support.ticket_read',
      'support.ticket_replied',
      'support.ticket_status_changed',
      'support.ticket_status_changed',
    ]);
  });

  it("keeps tenants apart: own tickets only, the ops admin sees the firm's, other firms get 404", async () => {
    const created = json<Created>(await call('dealer', 'POST', '/ext/tickets/', raise('depth_feature', 'Market depth for our desk?')));
    const fromViewer = await call('viewer', 'POST', '/ext/tickets/', raise('access_to_trade', 'I need trade access.'));
    // View-only roles may raise and follow their own requests (a support request is not a business write).
    expect(fromViewer.statusCode).toBe(201);
    const viewerTicket = json<Created>(fromViewer);
    expect((await call('compliance', 'POST', '/ext/tickets/', raise(null, 'Useful audit trail.'))).statusCode).toBe(201);
    expect((await call('other', 'POST', '/ext/tickets/', raise('cashflow_upgrade', 'Cash-flow calendar, please.'))).statusCode).toBe(201);

    for (const who of ['other', 'viewer', 'compliance'] as const) {
      expect((await call(who, 'GET', `/ext/tickets/${created.id}/`)).statusCode, who).toBe(404);
      expect((await call(who, 'POST', `/ext/tickets/${created.id}/reply/`, { body: 'hi' })).statusCode, who).toBe(404);
    }
    const viewerList = json<List>(await call('viewer', 'GET', '/ext/tickets/?page_size=100'));
    expect(viewerList.results.map((r) => r.id)).toEqual([viewerTicket.id]);
    expect((await call('viewer', 'GET', '/ext/tickets/?scope=firm')).statusCode).toBe(403);
    expect(
      json<List>(await call('other', 'GET', '/ext/tickets/?page_size=100')).results.every((r) => r.requester.email === USERS.other),
    ).toBe(true);

    // The ops admin reads the firm's requests (never another firm's) but does not join the conversation.
    const firm = json<List>(await call('opsadmin', 'GET', '/ext/tickets/?scope=firm&page_size=100'));
    expect(firm.results.map((r) => r.id)).toEqual(expect.arrayContaining([created.id, viewerTicket.id]));
    expect(firm.results.every((r) => r.requester.client_name === 'Demo Capital')).toBe(true);
    expect((await call('opsadmin', 'GET', `/ext/tickets/${created.id}/`)).statusCode).toBe(200);
    expect((await call('opsadmin', 'POST', `/ext/tickets/${created.id}/reply/`, { body: 'hi' })).statusCode).toBe(403);
    expect(json(await call('opsadmin', 'POST', `/ext/tickets/${created.id}/read/`))).toEqual({ unread: 0, tickets: 0 });
    // Staff see every firm's.
    const queue = json<List>(await call('staff', 'GET', '/ext/support/queue/?page_size=100'));
    expect(new Set(queue.results.map((r) => r.requester.client_name))).toEqual(new Set(['Demo Capital', 'Second Bank']));
  });

  it('files a submit once under one Idempotency-Key', async () => {
    const text = 'We would like to connect our NSE RFQ login.';
    const body = raise('integrate_with_exchange', text);
    const headers = { 'idempotency-key': `support-${driver}-1` };
    const first = await call('dealer', 'POST', '/ext/tickets/', body, headers);
    const second = await call('dealer', 'POST', '/ext/tickets/', body, headers);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(json<Created>(second).id).toBe(json<Created>(first).id);
    expect(await countOf('SELECT count(*)::int AS n FROM support_tickets WHERE description = $1', [text])).toBe(1);
    // Five at once with one key: the first result or 409 + Retry-After, never 5xx, one ticket.
    const burstText = `Migrating our desk ${driver}`;
    const burst = raise('business_migrate', burstText);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call('dealer', 'POST', '/ext/tickets/', burst, { 'idempotency-key': `support-${driver}-burst` })),
    );
    expect(answers.every((a) => a.statusCode === 201 || (a.statusCode === 409 && a.headers['retry-after']))).toBe(true);
    expect(await countOf('SELECT count(*)::int AS n FROM support_tickets WHERE description = $1', [burstText])).toBe(1);
  });

  it("grants an upgrade from an access request: the Basic firm is Premium at once, the ticket resolved with a reply, the firm's outbox told", async () => {
    const session = async () => json<{ client_tier: string }>(await call('basic', 'GET', '/api/session/'));
    expect((await session()).client_tier).toBe('BASIC');
    const access = json<Created>(
      await call('basic', 'POST', '/ext/tickets/', raise('inventory_access', 'We would like the inventory book.')),
    );
    const issue = json<Created>(await call('basic', 'POST', '/ext/tickets/', raise('report_issue', 'A coupon looks wrong.')));
    const grant = (who: Who, id: string, version = 1) => call(who, 'POST', `/ext/tickets/${id}/grant-upgrade/`, { version });

    // Only Dart Support; only an access request; only the version read.
    const refused = await grant('basic', access.id);
    expect([refused.statusCode, json<Errors>(refused).message]).toEqual([403, SUPPORT_MESSAGES.staffOnly]);
    const notAccess = await grant('staff', issue.id);
    expect([notAccess.statusCode, json<Errors>(notAccess).message]).toEqual([409, SUPPORT_MESSAGES.upgradeNotAccess]);
    expect((await grant('staff', access.id, 7)).statusCode).toBe(409);
    expect((await call('staff', 'POST', `/ext/tickets/${access.id}/grant-upgrade/`, { version: 'one' })).statusCode).toBe(400);
    expect(await countOf(`SELECT count(*)::int AS n FROM clients WHERE name = 'Small Treasury' AND tier = 'PREMIUM'`)).toBe(0);

    const granted = await grant('staff', access.id);
    expect(granted.statusCode).toBe(200);
    const ticket = json<SupportTicket>(granted);
    expect(ticket).toMatchObject({ status: 'resolved', requester: { email: USERS.basic, client_tier: 'PREMIUM' } });
    expect(ticket.messages.at(-1)).toMatchObject({ author: 'staff', author_name: 'Dart Support' });
    expect(ticket.messages.at(-1)!.body).toContain('now on the Premium plan');
    // The requester's signed-in session knows at once (the cached principal is dropped), and the book opens.
    expect((await session()).client_tier).toBe('PREMIUM');
    expect((await call('basic', 'GET', '/api/inventory/')).statusCode).not.toBe(402);
    const events = await t.database.query<{ payload: { ticket_id: string; tier: string } }>(
      `SELECT e.payload FROM events e JOIN clients c ON c.id = e.client_id WHERE e.topic = 'account.upgrade_granted' AND c.name = 'Small Treasury'`,
    );
    expect(events.map((e) => e.payload)).toEqual([expect.objectContaining({ ticket_id: access.id, tier: 'PREMIUM' })]);
    expect(await countOf(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'support.upgrade_granted' AND entity = 'client'`)).toBe(
      1,
    );
    expect((await outbox(USERS.basic)).some((m) => m.body.includes('now on the Premium plan'))).toBe(true);

    // Once is enough: a second grant (another access request of the same firm) is refused, nothing written.
    const again = json<Created>(await call('basic', 'POST', '/ext/tickets/', raise('access', 'And the depth feature.')));
    const twice = await grant('staff', again.id);
    expect([twice.statusCode, json<Errors>(twice).message]).toEqual([409, SUPPORT_MESSAGES.alreadyPremium]);
    expect(json<SupportTicket>(await call('basic', 'GET', `/ext/tickets/${again.id}/`)).status).toBe('open');
  });

  it('tells the web the ticket ids in force and whether the caller is Dart Support staff', async () => {
    expect(json(await call('dealer', 'GET', '/ext/support/settings/'))).toEqual({ ticket_type_ids: SUPPORT_TICKET_IDS_DEV, staff: false });
    expect(json(await call('staff', 'GET', '/ext/support/settings/'))).toEqual({ ticket_type_ids: SUPPORT_TICKET_IDS_DEV, staff: true });
    expect((await call(null, 'GET', '/ext/support/settings/')).statusCode).toBe(401);
  });

  it('uses the production ticket ids when SUPPORT_TICKET_IDS says so', async () => {
    const production = await createTestApp(driver, { SUPPORT_TICKET_IDS: '5/1/8/6' });
    try {
      const app: FastifyInstance = production.app;
      const { access } = await login(app, USERS.dealer);
      const send = (payload: unknown) =>
        app.inject({ method: 'POST', url: '/ext/tickets/', headers: bearer(access), payload: payload as object });
      const query = await send({ ...raise('pricing', 'Plans?'), ticket_type_id: 5 });
      expect(json<Created>(query)).toMatchObject({ ticket_type: 'query', ticket_type_id: 5 });
      expect(json<Created>(await send({ ...raise('access', 'Access'), ticket_type_id: 8 }))).toMatchObject({ ticket_type: 'access' });
      expect(json<Created>(await send({ ...raise(null, 'Great'), ticket_type_id: 6 }))).toMatchObject({ ticket_type: 'feedback' });
      // The development id of a query means nothing here.
      expect((await send({ ...raise('pricing', 'Plans?'), ticket_type_id: 3 })).statusCode).toBe(400);
      // The web reads the ids in force from the settings call.
      const settings = await app.inject({ method: 'GET', url: '/ext/support/settings/', headers: bearer(access) });
      expect(json(settings)).toEqual({ ticket_type_ids: SUPPORT_TICKET_IDS_PRODUCTION, staff: false });
    } finally {
      await production.close();
    }
  });
});
