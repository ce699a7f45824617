import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAccessControl, MissingPolicyError } from '../src/plugins/access';
import { registerErrorHandling } from '../src/plugins/errors';
import { bearer, createTestApp, DRIVERS, json, latestOtp, login, type TestApp } from './helpers';

type Who = 'anonymous' | 'dealer' | 'viewer' | 'opsadmin' | 'compliance' | 'backoffice' | 'broker';
const EMAILS: Record<Exclude<Who, 'anonymous'>, string> = {
  dealer: 'dealer@demo.dart',
  viewer: 'viewer@demo.dart',
  opsadmin: 'opsadmin@demo.dart',
  compliance: 'compliance@demo.dart',
  backoffice: 'backoffice@demo.dart',
  broker: 'broker@brokers.dart',
};
const everyone = (signedIn: number, anonymous: number) =>
  ({
    anonymous,
    dealer: signedIn,
    viewer: signedIn,
    opsadmin: signedIn,
    compliance: signedIn,
    backoffice: signedIn,
    broker: signedIn,
  }) satisfies Record<Who, number>;
const only = (who: Who[], allowed: number) =>
  Object.fromEntries(
    (['anonymous', 'dealer', 'viewer', 'opsadmin', 'compliance', 'backoffice', 'broker'] as Who[]).map((w) => [
      w,
      w === 'anonymous' ? 401 : who.includes(w) ? allowed : 403,
    ]),
  ) as Record<Who, number>;

/** Chat writes: every signed-in role but the view-only ones (viewer, compliance → 403 VIEW_ONLY). */
const chatWriters = (allowed: number) => only(['dealer', 'opsadmin', 'backoffice', 'broker'], allowed);

let inviteCounter = 0;
/** The authorization matrix (RELIABILITY #15): every API route × role → expected status. */
const MATRIX: Array<{
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  body?: () => unknown;
  expect: Record<Who, number>;
}> = [
  { method: 'GET', url: '/version.json', expect: everyone(200, 200) },
  { method: 'GET', url: '/builds/latest.json', expect: everyone(200, 200) },
  { method: 'GET', url: '/api/health', expect: everyone(200, 200) },
  { method: 'GET', url: '/api/redirects/?path=/market', expect: everyone(200, 200) },
  { method: 'GET', url: '/api/dev/outbox', expect: everyone(200, 200) },
  { method: 'GET', url: '/api/session/', expect: everyone(200, 401) },
  { method: 'PATCH', url: '/api/profile/', body: () => ({}), expect: everyone(200, 401) },
  // The saved workspace layout is the user's own screen: every role reads and saves its own (view-only too).
  { method: 'GET', url: '/api/workspace/layout/', expect: everyone(200, 401) },
  {
    method: 'PUT',
    url: '/api/workspace/layout/',
    body: () => ({
      layout: {
        panels: ['Build Network'],
        dock: {
          grid: { root: { type: 'branch', data: [], size: 0 }, width: 0, height: 0, orientation: 'HORIZONTAL' },
          panels: {},
        },
      },
    }),
    expect: everyone(200, 401),
  },
  { method: 'GET', url: '/api/profile/display-preferences/', expect: everyone(200, 401) },
  { method: 'PATCH', url: '/api/profile/display-preferences/', body: () => ({ sounds_enabled: true }), expect: everyone(200, 401) },
  {
    method: 'POST',
    url: '/api/chatter/user/security-preference',
    body: () => ({ key: 'login_alerts', enabled: true }),
    expect: everyone(200, 401),
  },
  { method: 'POST', url: '/api/support/requests/', body: () => ({ kind: 'support', message: 'Matrix probe' }), expect: everyone(201, 401) },
  { method: 'GET', url: '/api/client/users/', expect: only(['opsadmin'], 200) },
  { method: 'GET', url: '/api/client/invites/', expect: only(['opsadmin'], 200) },
  {
    method: 'POST',
    url: '/api/client/invites/',
    body: () => ({ email: `matrix${++inviteCounter}@democapital.in`, roles: ['clientviewer'] }),
    expect: only(['opsadmin'], 201),
  },
  // Network and team (issue 15 §1): the ops admin manages the firm; everyone reads it and the network.
  {
    method: 'POST',
    url: '/api/client/user/invite/',
    body: () => ({ email: `matrix${++inviteCounter}@democapital.in`, roles: ['clientviewer'] }),
    expect: only(['opsadmin'], 201),
  },
  {
    method: 'POST',
    url: '/api/client/user/invite/revoke/',
    body: () => ({ invitee_id: '00000000-0000-0000-0000-000000000000' }),
    expect: only(['opsadmin'], 404),
  },
  {
    method: 'POST',
    url: '/api/client/user/invite/resend/',
    body: () => ({ invitee_id: '00000000-0000-0000-0000-000000000000' }),
    expect: only(['opsadmin'], 404),
  },
  { method: 'POST', url: '/api/client/user/invite/validate/', body: () => ({ invite_code: 'no-such-invite' }), expect: everyone(410, 410) },
  {
    method: 'POST',
    url: '/api/client/register-user/lite',
    body: () => ({}),
    expect: only(['dealer', 'opsadmin', 'backoffice', 'broker'], 400),
  },
  { method: 'GET', url: '/api/client/', expect: everyone(200, 401) },
  { method: 'PUT', url: '/api/client/:id/', body: () => ({}), expect: only(['opsadmin'], 400) },
  { method: 'PUT', url: '/api/client/user/', body: () => ({}), expect: only(['opsadmin'], 400) },
  { method: 'GET', url: '/api/clients/', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/trade/facilitator/', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/trade/agent/', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/useraccounts/', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/client/by-website/?website=no-such-firm.in', expect: everyone(404, 401) },
  // Counterparty quality (Build Network): the trade directory's readers, i.e. members holding client.can_trade.
  { method: 'GET', url: '/api/network/stats/', expect: only(['dealer', 'broker'], 200) },
  { method: 'GET', url: '/api/surveillance/audit/', expect: only(['compliance'], 200) },
  { method: 'GET', url: '/api/surveillance/audit/users/', expect: only(['compliance'], 200) },
  { method: 'GET', url: '/api/surveillance/audit/export/', expect: only(['compliance'], 200) },
  { method: 'GET', url: '/api/surveillance/audit/integrity/', expect: only(['compliance'], 200) },
  // Surveillance alerts (issue 16 §1): compliance officers only; ':id' is not a UUID → 400 for them, 403 for the rest.
  { method: 'GET', url: '/api/surveillance/alerts/', expect: only(['compliance'], 200) },
  { method: 'GET', url: '/api/surveillance/alerts/:id/', expect: only(['compliance'], 400) },
  { method: 'GET', url: '/api/surveillance/alerts/:id/evidence.pdf', expect: only(['compliance'], 400) },
  { method: 'POST', url: '/api/surveillance/alerts/:id/assign/', body: () => ({}), expect: only(['compliance'], 400) },
  { method: 'POST', url: '/api/surveillance/alerts/:id/comment/', body: () => ({}), expect: only(['compliance'], 400) },
  { method: 'POST', url: '/api/surveillance/alerts/:id/escalate/', body: () => ({}), expect: only(['compliance'], 400) },
  { method: 'POST', url: '/api/surveillance/alerts/:id/close/', body: () => ({}), expect: only(['compliance'], 400) },
  { method: 'GET', url: '/api/surveillance/chats/', expect: only(['compliance'], 200) },
  { method: 'GET', url: '/api/surveillance/chats/:id/messages/', expect: only(['compliance'], 400) },
  // Public credential endpoints: validation answers 400 to an empty body for everyone.
  { method: 'POST', url: '/api/token/', body: () => ({}), expect: everyone(400, 400) },
  { method: 'POST', url: '/api/token/refresh/', body: () => ({}), expect: everyone(401, 401) },
  { method: 'POST', url: '/api/request-otp/', body: () => ({}), expect: everyone(400, 400) },
  { method: 'POST', url: '/api/token/otp/', body: () => ({}), expect: everyone(400, 400) },
  { method: 'POST', url: '/api/validate-otp/', body: () => ({}), expect: everyone(400, 400) },
  { method: 'POST', url: '/api/reset-password/', body: () => ({}), expect: everyone(400, 400) },
  { method: 'POST', url: '/api/change-password/:userId/', body: () => ({}), expect: everyone(400, 400) },
  { method: 'POST', url: '/api/client/register/', body: () => ({}), expect: everyone(400, 400) },
  { method: 'GET', url: '/api/invites/:token/', expect: everyone(410, 410) },
  { method: 'POST', url: '/api/contact/', body: () => ({}), expect: everyone(400, 400) },
  // Finstruments (issue 4): no bonds are imported here, so an allowed call on a bond id answers 404.
  { method: 'GET', url: '/api/finstruments/search/?searchKey=hdfc', expect: everyone(200, 200) },
  { method: 'POST', url: '/api/finstruments/', body: () => ({}), expect: everyone(200, 200) },
  { method: 'GET', url: '/api/finstrument/:id/', expect: everyone(404, 404) },
  { method: 'POST', url: '/api/v1/finstrument/:id/', body: () => ({}), expect: everyone(404, 404) },
  { method: 'POST', url: '/api/bonds-by-same-issuer/:id/', body: () => ({}), expect: everyone(404, 404) },
  { method: 'GET', url: '/api/credit-rationale/:id/', expect: everyone(404, 401) },
  { method: 'POST', url: '/api/trades/:id/', body: () => ({}), expect: everyone(404, 401) },
  { method: 'POST', url: '/api/cashflow/:id/', body: () => ({ quantity: 1 }), expect: everyone(404, 401) },
  { method: 'POST', url: '/api/im/download/', body: () => ({ isin: 'INE002A08534' }), expect: everyone(404, 401) },
  { method: 'POST', url: '/api/bond-details/:id/download/', body: () => ({}), expect: everyone(404, 401) },
  { method: 'POST', url: '/api/quote/:id/download/', body: () => ({}), expect: everyone(404, 401) },
  // Market (issue 5): trading writes need client.can_trade and a non-view-only role (dealers, broker);
  // allowed callers then meet validation (empty body, or a non-uuid id) → 400. Reads are for any signed-in user.
  { method: 'POST', url: '/api/trade/eoi/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'POST', url: '/api/eoi/add/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'GET', url: '/api/trade/d/market/', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/eoi/private-run/', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/eoi/rfq-quote/', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/eoi/my-rfqs/', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/trade/eoi/', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/trade/eoi/:id/', expect: everyone(400, 401) },
  { method: 'GET', url: '/api/trade/timings', expect: everyone(200, 401) },
  { method: 'PUT', url: '/api/trade/d/eoi/:id/close/', expect: only(['dealer', 'broker'], 400) },
  { method: 'PUT', url: '/api/trade/d/eoi/close/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'POST', url: '/api/eoi/expire/:id/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'PUT', url: '/api/eoi/update/:id/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'POST', url: '/api/eoi/add-negotiation/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'GET', url: '/api/eoi/negotiations/', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/trade/deals/', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/trade/cluster/', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/trade/cluster/:id/', expect: everyone(400, 401) },
  { method: 'PUT', url: '/api/trade/cluster/:id/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'POST', url: '/api/cluster/:id/accept/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'GET', url: '/api/cluster/:id/', expect: everyone(400, 401) },
  // Market depth is Premium (every client here is PREMIUM; BASIC → 402 is in market-depth.test.ts): no bond id → 400.
  { method: 'GET', url: '/api/quote/depth/', expect: everyone(400, 401) },
  { method: 'GET', url: '/api/trade/finstrument/', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/eoi/upload/template/', expect: everyone(200, 401) },
  { method: 'POST', url: '/api/eoi/upload/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  // Participant search is a read: every signed-in role may look counterparties up.
  { method: 'GET', url: '/api/chatter/search-trade-participants?search_param=bank', expect: everyone(200, 401) },
  // Tickets (issue 13): writes as the market's (trade access, never view-only) → 400 on an empty body or a
  // non-uuid id; reads for any signed-in user of a firm on the ticket (a non-uuid id → 400).
  // Find's remaining calls (issue 17 §3): reads; the public ones answer anonymous users too (:id is a bond this
  // app does not hold: the gate is what is tested; every demo role has the security-data permission).
  { method: 'POST', url: '/api/categories/', body: () => ({}), expect: everyone(200, 200) },
  { method: 'POST', url: '/api/client-finstrument-list/', body: () => ({}), expect: everyone(200, 401) },
  { method: 'POST', url: '/api/quote/market/:id/', body: () => ({}), expect: everyone(404, 404) },
  { method: 'POST', url: '/api/quote/:id/', body: () => ({}), expect: everyone(404, 401) },
  { method: 'POST', url: '/api/v1/finstrument/master/quote/:id', body: () => ({}), expect: everyone(404, 401) },
  { method: 'GET', url: '/api/v2/finstrument/info/:id', expect: everyone(404, 404) },
  // Exchange credentials (issue 14): the firm's ops admin only; the participant searches feed that screen.
  { method: 'GET', url: '/api/client/credentials/', expect: only(['opsadmin'], 200) },
  { method: 'POST', url: '/api/client/credentials/', body: () => ({}), expect: only(['opsadmin'], 400) },
  // The clearing corporations' public participant lists: any signed-in user may search them.
  { method: 'GET', url: '/api/search-nsscl-participants/?search_param=hdfc', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/search-iccl-participants/?search_param=hdfc', expect: everyone(200, 401) },
  // Inventory (issue 14): the page permission (the demo ops admin and compliance officer have none); the viewer
  // reads only; the back office keeps the book (upload, external trades, costs, the daily confirm) but never
  // offers (no trade access).
  { method: 'GET', url: '/api/inventory/', expect: only(['dealer', 'viewer', 'backoffice', 'broker'], 200) },
  { method: 'GET', url: '/api/inventory/cashflows/', expect: only(['dealer', 'viewer', 'backoffice', 'broker'], 200) },
  { method: 'GET', url: '/api/inventory/upload/template/', expect: only(['dealer', 'viewer', 'backoffice', 'broker'], 200) },
  { method: 'POST', url: '/api/inventory/upload/', body: () => ({}), expect: only(['dealer', 'backoffice', 'broker'], 400) },
  { method: 'POST', url: '/api/inventory/external-trade/', body: () => ({}), expect: only(['dealer', 'backoffice', 'broker'], 400) },
  { method: 'POST', url: '/api/inventory/offer/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'PUT', url: '/api/inventory/confirm-previous/', body: () => ({}), expect: only(['dealer', 'backoffice', 'broker'], 400) },
  { method: 'PUT', url: '/api/inventory/edit-valuation-cost/', body: () => ({}), expect: only(['dealer', 'backoffice', 'broker'], 400) },
  { method: 'POST', url: '/api/chatter/trade/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'GET', url: '/api/chatter/trade/', expect: everyone(200, 401) },
  { method: 'POST', url: '/api/chatter/trade/manual-ticket/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'GET', url: '/api/chatter/trade/:id/', expect: everyone(400, 401) },
  { method: 'PATCH', url: '/api/chatter/trade/:id/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'PATCH', url: '/api/chatter/trade/actions/:id/:action/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'PATCH', url: '/api/chatter/trade/send-to-broker/:id/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'PATCH', url: '/api/chatter/trade/:id/price/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'PATCH', url: '/api/chatter/trade/accept-consideration/:id/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'GET', url: '/api/chatter/trade/confirmed-trade/:id/', expect: everyone(400, 401) },
  { method: 'PATCH', url: '/api/trade/members/:id/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'GET', url: '/api/trade/client/users/:id/', expect: everyone(400, 401) },
  { method: 'PATCH', url: '/api/trade/:id/brokerage/', body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  { method: 'GET', url: '/api/chatter/users-clients-unified/', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/chatter/search-brokers/:id', expect: everyone(400, 401) },
  { method: 'GET', url: '/api/client/search-custodians/', expect: everyone(200, 401) },
  // Orders (issue 13): reads for dealers, viewers and back office (/client/transactions, Premium), a non-uuid
  // id → 400; writes for traders only → 400 on an empty body or a non-uuid id.
  { method: 'GET', url: '/api/orders/unified/', expect: only(['dealer', 'viewer', 'backoffice', 'compliance', 'broker'], 200) },
  { method: 'GET', url: '/api/orders/unified/export/', expect: only(['dealer', 'viewer', 'backoffice', 'compliance', 'broker'], 200) },
  ...(['orders', 'procurement-orders'] as const).flatMap((base) => [
    { method: 'POST' as const, url: `/api/${base}/`, body: () => ({}), expect: only(['dealer', 'broker'], 400) },
    { method: 'GET' as const, url: `/api/${base}/:id/`, expect: only(['dealer', 'viewer', 'backoffice', 'compliance', 'broker'], 400) },
    {
      method: 'GET' as const,
      url: `/api/${base}/:id/contract-note/`,
      expect: only(['dealer', 'viewer', 'backoffice', 'compliance', 'broker'], 400),
    },
    { method: 'PUT' as const, url: `/api/${base}/:id/accept-reject/`, body: () => ({}), expect: only(['dealer', 'broker'], 400) },
    { method: 'POST' as const, url: `/api/${base}/:id/cancel/`, body: () => ({}), expect: only(['dealer', 'broker'], 400) },
    {
      method: base === 'orders' ? ('PUT' as const) : ('PATCH' as const),
      url: `/api/${base}/:id/modify/`,
      body: () => ({}),
      expect: only(['dealer', 'broker'], 400),
    },
    { method: 'PATCH' as const, url: `/api/${base}/settle-cancel/:id/:action/`, body: () => ({}), expect: only(['dealer', 'broker'], 400) },
  ]),
  // Chat (issue 6): writes refuse view-only roles (viewer, compliance); reads and receipts are for any
  // signed-in user who accepted the chat terms (every demo user here). Unknown channels/files answer 404.
  { method: 'POST', url: '/api/issue-sb-session-token', body: () => ({}), expect: everyone(400, 401) },
  { method: 'DELETE', url: '/api/remove-sb-session', expect: everyone(400, 401) },
  { method: 'PATCH', url: '/api/client/chat-terms/', body: () => ({}), expect: everyone(400, 401) },
  { method: 'GET', url: '/api/chatter/user/search', expect: everyone(200, 401) },
  { method: 'POST', url: '/api/chatter/invite-users', body: () => ({}), expect: chatWriters(400) },
  { method: 'GET', url: '/api/chat/channels/', expect: everyone(200, 401) },
  { method: 'POST', url: '/api/chat/channels/', body: () => ({}), expect: chatWriters(400) },
  { method: 'GET', url: '/api/chat/channels/:url/', expect: everyone(404, 401) },
  { method: 'GET', url: '/api/chat/channels/:url/messages/', expect: everyone(404, 401) },
  { method: 'POST', url: '/api/chat/channels/:url/messages/', body: () => ({}), expect: chatWriters(400) },
  { method: 'PATCH', url: '/api/chat/channels/:url/messages/:messageId/', body: () => ({}), expect: chatWriters(400) },
  { method: 'DELETE', url: '/api/chat/channels/:url/messages/:messageId/', expect: chatWriters(404) },
  { method: 'POST', url: '/api/chat/channels/:url/read/', body: () => ({}), expect: everyone(400, 401) },
  { method: 'POST', url: '/api/chat/channels/:url/delivered/', body: () => ({}), expect: everyone(400, 401) },
  { method: 'POST', url: '/api/chat/channels/:url/accept/', body: () => ({}), expect: chatWriters(404) },
  { method: 'POST', url: '/api/chat/channels/:url/decline/', body: () => ({}), expect: chatWriters(404) },
  { method: 'POST', url: '/api/chat/channels/:url/leave/', body: () => ({}), expect: chatWriters(404) },
  { method: 'POST', url: '/api/chat/channels/:url/operators/', body: () => ({}), expect: chatWriters(404) },
  { method: 'POST', url: '/api/chat/channels/:url/ban/', body: () => ({}), expect: chatWriters(400) },
  { method: 'POST', url: '/api/chat/channels/:url/files/', body: () => ({}), expect: chatWriters(400) },
  { method: 'GET', url: '/api/chat/files/:id/', expect: everyone(404, 401) },
  { method: 'POST', url: '/api/download-chats', body: () => ({}), expect: everyone(400, 401) },
  // Support desk (issue 15 §2): every signed-in role raises and follows its own requests (view-only too: not a
  // business write); validation answers 400 to an empty body or a non-uuid id. The queue is Dart Support's only
  // (support_staff; no matrix role is staff → 403); a status change is validated first (400), then staff-checked.
  { method: 'POST', url: '/ext/public/upload/', body: () => ({}), expect: everyone(400, 401) },
  { method: 'POST', url: '/ext/tickets/', body: () => ({}), expect: everyone(400, 401) },
  { method: 'GET', url: '/ext/tickets/', expect: everyone(200, 401) },
  { method: 'GET', url: '/ext/tickets/unread/', expect: everyone(200, 401) },
  { method: 'GET', url: '/ext/tickets/:id/', expect: everyone(400, 401) },
  { method: 'POST', url: '/ext/tickets/:id/read/', body: () => ({}), expect: everyone(400, 401) },
  { method: 'POST', url: '/ext/tickets/:id/reply/', body: () => ({}), expect: everyone(400, 401) },
  { method: 'PATCH', url: '/ext/tickets/:id/status/', body: () => ({}), expect: everyone(400, 401) },
  { method: 'POST', url: '/ext/tickets/:id/grant-upgrade/', body: () => ({}), expect: everyone(400, 401) },
  { method: 'GET', url: '/ext/tickets/:id/attachments/:attachmentId/', expect: everyone(400, 401) },
  { method: 'GET', url: '/ext/support/settings/', expect: everyone(200, 401) },
  { method: 'GET', url: '/ext/support/queue/', expect: only([], 200) },
  // The notification centre (issue 15 §3): every signed-in user's own inbox, view-only roles included.
  { method: 'GET', url: '/api/notifications/', expect: everyone(200, 401) },
  { method: 'GET', url: '/api/notifications/unread-count/', expect: everyone(200, 401) },
  { method: 'POST', url: '/api/notifications/:id/read/', body: () => ({}), expect: everyone(400, 401) },
  { method: 'POST', url: '/api/notifications/read-all/', body: () => ({}), expect: everyone(200, 401) },
  { method: 'GET', url: '/api/notifications/preferences/', expect: everyone(200, 401) },
  { method: 'PUT', url: '/api/notifications/preferences/', body: () => ({}), expect: everyone(400, 401) },
  { method: 'POST', url: '/api/notifications/snooze/', body: () => ({}), expect: everyone(200, 401) },
  // The WhatsApp link (issue 16 §2): own consent on every role; the firm's bridged messages to compliance and ops;
  // linking a channel is a chat write; the simulator's inbound webhook is public outside production only.
  { method: 'GET', url: '/api/whatsapp/consent/', expect: everyone(200, 401) },
  { method: 'PUT', url: '/api/whatsapp/consent/', body: () => ({}), expect: everyone(400, 401) },
  { method: 'GET', url: '/api/whatsapp/messages/', expect: only(['opsadmin', 'compliance'], 200) },
  { method: 'PUT', url: '/api/whatsapp/channels/:url/link/', body: () => ({ linked: true }), expect: chatWriters(404) },
  { method: 'POST', url: '/api/dev/whatsapp/inbound/', body: () => ({}), expect: everyone(400, 400) },
  // The simulator's phone side (e2e and developers): public outside production only, like the inbound webhook.
  { method: 'GET', url: '/api/dev/whatsapp/outbox/', expect: everyone(200, 200) },
  { method: 'POST', url: '/api/dev/whatsapp/settle/', body: () => ({}), expect: everyone(200, 200) },
  // Masked session recording (issue 16 §3), off here (the default): every call but the settings answers 404 after the
  // access check. The recorder's calls are every signed-in user's (view-only too); list and replay the ops admin's.
  { method: 'GET', url: '/api/recording/settings/', expect: everyone(200, 401) },
  { method: 'POST', url: '/api/recording/sessions/', body: () => ({}), expect: everyone(404, 401) },
  { method: 'POST', url: '/api/recording/sessions/:id/events/', body: () => ({}), expect: everyone(404, 401) },
  { method: 'GET', url: '/api/recording/sessions/', expect: only(['opsadmin'], 404) },
  { method: 'GET', url: '/api/recording/sessions/:id/', expect: only(['opsadmin'], 404) },
  // Last: it ends each caller's session.
  { method: 'POST', url: '/api/logout/', body: () => ({}), expect: everyone(200, 200) },
];

describe.each(DRIVERS)('access control (%s)', (driver) => {
  let t: TestApp;
  const tokens: Partial<Record<Who, string>> = {};
  beforeAll(async () => {
    t = await createTestApp(driver);
    for (const [who, email] of Object.entries(EMAILS)) tokens[who as Who] = (await login(t.app, email)).access;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('covers every registered route in the authorization matrix', () => {
    const routes = t.app.routeInventory
      .filter((r) => !r.websocket)
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    // WebSocket upgrades authenticate by their first message (live.test.ts covers them).
    expect(t.app.routeInventory.filter((r) => r.websocket).map((r) => r.url)).toEqual(['/ws/trade/d/', '/ws/chat/']);
    const covered = MATRIX.map((m) => `${m.method} ${m.url.split('?')[0]}`);
    expect(routes.filter((r) => !covered.includes(r))).toEqual([]);
  });

  it('answers every role × route cell as the matrix says', async () => {
    const mismatches: string[] = [];
    for (const row of MATRIX) {
      const url = row.url
        .replace(':userId', '00000000-0000-0000-0000-000000000000')
        .replace(':token', 'no-such-invite')
        .replace(':url', 'no-such-channel')
        .replace(':messageId', '00000000-0000-0000-0000-000000000000')
        .replace(':id', 'INE002A08534');
      for (const who of Object.keys(row.expect) as Who[]) {
        const response = await t.app.inject({
          method: row.method,
          url,
          ...(row.body ? { payload: row.body() as object } : {}),
          headers: who === 'anonymous' ? {} : bearer(tokens[who]!),
        });
        if (response.statusCode !== row.expect[who])
          mismatches.push(`${row.method} ${row.url} as ${who}: ${response.statusCode}, expected ${row.expect[who]}`);
        // 401 means "not signed in" only; a signed-in user refused is always 403 (never 401).
        if (who !== 'anonymous' && response.statusCode === 401 && row.expect[who] !== 401)
          mismatches.push(`${row.url} answered 401 to signed-in ${who}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('refuses view-only users every business write (403 VIEW_ONLY) and BASIC tier premium features (402)', async () => {
    // A new client registers (BASIC), then invites a compliance officer who also holds ops admin.
    const email = 'owner@basicfund.in';
    await t.app.inject({ method: 'POST', url: '/api/request-otp/', payload: { email, request_type: 'register', auth_mode: 'email' } });
    const verify = async (address: string) => {
      await t.app.inject({
        method: 'POST',
        url: '/api/request-otp/',
        payload: { email: address, request_type: 'register', auth_mode: 'email' },
      });
      const otp = await latestOtp(t.app, address);
      return json<{ verification: string }>(
        await t.app.inject({
          method: 'POST',
          url: '/api/validate-otp/',
          payload: { email: address, otp, request_type: 'register', auth_mode: 'email' },
        }),
      ).verification;
    };
    const register = async (address: string, mobile: string, extra: Record<string, unknown>) =>
      json<{ access: string }>(
        await t.app.inject({
          method: 'POST',
          url: '/api/client/register/',
          payload: {
            auth_mode: 'password',
            pan: 'AAACB1111K',
            password: 'BasicFund2026',
            identity: { first_name: 'Asha', last_name: 'Verma' },
            client_type: 'CORP',
            category: null,
            corporate_identity: { name: 'Basic Fund' },
            contact: { email: address, mobile, whatsapp_consent: false },
            verification: await verify(address),
            ...extra,
          },
        }),
      ).access;
    const owner = await register(email, '9000000001', {});
    const invite = async (address: string, roles: string[]) =>
      json<{ token: string }>(
        await t.app.inject({ method: 'POST', url: '/api/client/invites/', headers: bearer(owner), payload: { email: address, roles } }),
      ).token;
    const complianceOps = await register('co@basicfund.in', '9000000002', {
      corporate_identity: null,
      invite: await invite('co@basicfund.in', ['complianceofficer', 'clientopsadmin']),
    });
    const complianceOnly = await register('cc@basicfund.in', '9000000003', {
      corporate_identity: null,
      invite: await invite('cc@basicfund.in', ['complianceofficer', 'user']),
    });

    const write = await t.app.inject({
      method: 'POST',
      url: '/api/client/invites/',
      headers: bearer(complianceOps),
      payload: { email: 'x@basicfund.in', roles: ['clientviewer'] },
    });
    expect(write.statusCode).toBe(403);
    expect(json(write).code).toBe('VIEW_ONLY');
    // Reads stay allowed.
    expect((await t.app.inject({ method: 'GET', url: '/api/client/users/', headers: bearer(complianceOps) })).statusCode).toBe(200);
    const premium = await t.app.inject({ method: 'GET', url: '/api/surveillance/audit/', headers: bearer(complianceOnly) });
    expect(premium.statusCode).toBe(402);
    expect(json(premium)).toEqual({ code: 'PREMIUM_REQUIRED', message: 'This feature needs the Premium plan.' });
  });

  it('keeps tenants apart: users and audit rows of one client only', async () => {
    tokens.opsadmin = (await login(t.app, EMAILS.opsadmin)).access;
    tokens.compliance = (await login(t.app, EMAILS.compliance)).access;
    const users = json<{ results: Array<{ email: string }> }>(
      await t.app.inject({ method: 'GET', url: '/api/client/users/', headers: bearer(tokens.opsadmin!) }),
    );
    expect(users.results.length).toBeGreaterThanOrEqual(5);
    expect(users.results.every((u) => !u.email.endsWith('@second.dart') && !u.email.endsWith('@brokers.dart'))).toBe(true);
    const audit = json<{ results: Array<{ actor_email: string | null }>; count: number }>(
      await t.app.inject({ method: 'GET', url: '/api/surveillance/audit/?page=1&page_size=100', headers: bearer(tokens.compliance!) }),
    );
    expect(audit.count).toBeGreaterThan(0);
    expect(audit.results.some((r) => r.actor_email === 'broker@brokers.dart' || r.actor_email === 'dealer@second.dart')).toBe(false);
    const page = await t.app.inject({
      method: 'GET',
      url: '/api/surveillance/audit/?page_size=100000',
      headers: bearer(tokens.compliance!),
    });
    expect(page.statusCode).toBe(400);
  });
});

describe('server safeguards', () => {
  it('refuses to start when a route declares no policy', async () => {
    const app = Fastify();
    registerAccessControl(app);
    expect(() => app.get('/api/oops', async () => 'x')).toThrow(MissingPolicyError);
    await app.close();
  });

  it('answers 5xx with only "Internal Server Error" and database outages with 503', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/boom', async () => {
      throw new Error('secret detail: SELECT * FROM users');
    });
    app.get('/db-down', async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    const boom = await app.inject({ method: 'GET', url: '/boom' });
    expect(boom.statusCode).toBe(500);
    expect(boom.json()).toEqual({ code: 'INTERNAL', message: 'Internal Server Error' });
    const down = await app.inject({ method: 'GET', url: '/db-down' });
    expect(down.statusCode).toBe(503);
    await app.close();
  });
});

describe.each(DRIVERS)('request hygiene and the SPA (%s)', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'dart-web-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Dart</title><div id="root"></div>');
    t = await createTestApp(driver, { WEB_DIST: dist });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('rejects malformed JSON, prototype pollution and unknown fields with 400', async () => {
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(badJson.statusCode).toBe(400);
    const proto = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@b.in","password":"x","__proto__":{"admin":true}}',
    });
    expect(proto.statusCode).toBe(400);
    const nested = await t.app.inject({
      method: 'POST',
      url: '/api/contact/',
      payload: { name: 'Ravi Kumar', email: 'ravi@firm.in', message: 'Hello', client_id: 'x' },
    });
    expect(json(nested).errors).toEqual({ client_id: ['Unknown field.'] });
  });

  it('serves the SPA with history fallback, and JSON 404 under /api', async () => {
    for (const route of ['/', '/dart', '/security/INE002A08534', '/no/such/page']) {
      const response = await t.app.inject({ method: 'GET', url: route });
      expect(response.statusCode, route).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
    const api = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(api.statusCode).toBe(404);
    expect(json(api)).toEqual({ code: 'NOT_FOUND', message: 'Not found: GET /api/no-such-thing' });
  });

  it('publishes OpenAPI docs generated from the contracts', async () => {
    const spec = json<{ paths: Record<string, unknown> }>(await t.app.inject({ method: 'GET', url: '/api/docs/json' }));
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/api/token/', '/api/session/', '/api/client/register/']));
    expect((await t.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it('serves version, build manifest, health and redirect lookups', async () => {
    expect(json(await t.app.inject({ method: 'GET', url: '/version.json' }))).toEqual({ version: '0.1.0' });
    const build = await t.app.inject({ method: 'GET', url: '/builds/latest.json' });
    expect(json<{ id: string }>(build).id).toBe(t.config.buildId);
    expect(build.headers['cache-control']).toContain('no-cache');
    expect(json(await t.app.inject({ method: 'GET', url: '/api/health' }))).toEqual({
      status: 'ok',
      database: { ok: true, driver },
      bus: { ok: true, kind: t.app.deps.bus.kind },
      slo: { ok: true },
    });
    expect(json(await t.app.inject({ method: 'GET', url: '/api/redirects/?path=/trade' }))).toEqual({ path: '/trade', target: '/dart' });
  });

  it('accepts the contact form and the 402 upgrade request', async () => {
    const contact = await t.app.inject({
      method: 'POST',
      url: '/api/contact/',
      payload: { name: 'Ravi Kumar', email: 'ravi@firm.in', company: 'Firm', message: 'Please call me about Dart.' },
    });
    expect(contact.statusCode).toBe(201);
    const invalid = await t.app.inject({ method: 'POST', url: '/api/contact/', payload: { name: 'R@vi', email: 'x', message: '' } });
    expect(json(invalid).errors).toEqual({
      name: ['Should not contain special characters.'],
      email: ['Please enter a valid email address.'],
      message: ['Message is required.'],
    });
    const { access } = await login(t.app, 'basic@small.dart');
    const upgrade = await t.app.inject({
      method: 'POST',
      url: '/api/support/requests/',
      headers: bearer(access),
      payload: { kind: 'upgrade', message: '', page: '/inventory' },
    });
    expect(upgrade.statusCode).toBe(201);
    // Filed on the support desk (My requests, the staff queue) with the spec's access toast.
    expect(json(upgrade).detail).toBe('Your request has been noted. We will update you shortly via email.');
    const rows = await t.database.query<{ id: string; ticket_type: string; request_type: string; page: string; description: string }>(
      "SELECT id, ticket_type, request_type, extras->>'page' AS page, description FROM support_tickets",
    );
    expect(rows).toEqual([
      {
        id: json(upgrade).id,
        ticket_type: 'access',
        request_type: 'inventory_access',
        page: '/inventory',
        description: 'Please upgrade our organisation to the Premium plan.',
      },
    ]);
    const mine = await t.app.inject({ method: 'GET', url: '/ext/tickets/', headers: bearer(access) });
    expect(json<{ results: Array<{ id: string }> }>(mine).results.map((ticket) => ticket.id)).toEqual([json(upgrade).id]);
    const report = await t.app.inject({
      method: 'POST',
      url: '/api/support/requests/',
      headers: bearer(access),
      payload: { kind: 'report_issue', message: 'The coupon of this bond looks wrong.', page: '/security/INE002A08575' },
    });
    expect(json(report).detail).toBe('Thank you for reporting the issue. We will update you shortly via email.');
  });
});
