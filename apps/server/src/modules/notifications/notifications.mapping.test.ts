import { describe, expect, it } from 'vitest';
import { mapEvent, type Lookups, type SourceEvent } from './notifications.mapping';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const lookups: Lookups = {
  negotiations: new Map([['n1', { quoterClientId: A, responderClientId: B }]]),
  quotes: new Map([['q1', { clientId: A, finstrumentId: 7 }]]),
  bonds: new Map([[7, { isin: 'IN0020220151', displayName: '7.26% GS 2033' }]]),
  supportLastByStaff: new Map([
    ['t-staff', true],
    ['t-own', false],
  ]),
  chatChannels: new Map([
    ['sendbird_group_channel_1', { name: 'G-sec desk', customType: 'group' }],
    ['sendbird_group_channel_2', { name: '', customType: 'direct' }],
  ]),
  people: new Map([['u9', { name: 'Farhan Shaikh', firm: 'Second Bank' }]]),
};
const event = (topic: string, clientId: string | null, payload: unknown, position = 10): SourceEvent => ({
  position,
  topic,
  clientId,
  payload,
});

describe('notification mapping', () => {
  it('tells the other side of a counter, never the firm that countered', () => {
    const counter = {
      negotiation_id: 'n1',
      quote_id: 'q1',
      status: 'open',
      last: { action: 'counter', by_client: 'responder', yield_stored: 0.0725, quantum: 10_000_000 },
    };
    expect(mapEvent(event('market.rfq_negotiation', B, counter), lookups)).toEqual([]);
    const [toQuoter] = mapEvent(event('market.rfq_negotiation', A, counter), lookups);
    expect(toQuoter).toMatchObject({
      clientId: A,
      category: 'negotiation',
      kind: 'negotiation.counter',
      title: 'Counter received',
      sourcePosition: 10,
    });
    expect(toQuoter!.body).toBe('A counter on 7.26% GS 2033 (IN0020220151): yield 7.2500%, face value ₹1.00 Cr.');
    expect(
      mapEvent(
        event('market.rfq_negotiation', B, { ...counter, last: { ...counter.last, action: 'accept', by_client: 'quoter' } }),
        lookups,
      )[0]?.kind,
    ).toBe('negotiation.accepted');
  });

  it('tells the recipients of a new private run or exchange RFQ, not its owner', () => {
    const created = { action: 'created', quote_id: 'q1', finstrument_id: 7 };
    expect(mapEvent(event('market.private_run', A, created), lookups)).toEqual([]);
    expect(mapEvent(event('market.private_run', B, created), lookups)[0]).toMatchObject({
      category: 'rfq',
      title: 'RFQ received',
      kind: 'rfq.private_received',
    });
    expect(mapEvent(event('market.inquiries', B, created), lookups)[0]?.kind).toBe('rfq.exchange_received');
    expect(mapEvent(event('market.private_run', B, { ...created, action: 'updated' }), lookups)).toEqual([]);
  });

  it("tells a ticket's other firms of a user's step, never the firm that acted; the system's steps to every firm", () => {
    const priced = { ticket_id: 't', number: 7, state: 'priced', action: 'price', actor_client_id: A };
    expect(mapEvent(event('trade.refresh_tickets', A, priced), lookups)).toEqual([]);
    expect(mapEvent(event('trade.refresh_tickets', B, priced), lookups)[0]).toMatchObject({
      clientId: B,
      kind: 'ticket.price',
      title: 'Ticket updated',
      body: 'Ticket TKT-000007: quoted; it is now priced.',
    });
    const repriced = { ticket_id: 't', price: 99.5, actor_client_id: A };
    expect(mapEvent(event('trade.consideration_update', A, repriced), lookups)).toEqual([]);
    expect(mapEvent(event('trade.consideration_update', B, repriced), lookups)[0]?.title).toBe('Consideration updated');
    const reported = { ticket_id: 't', number: 7, state: 'reported', action: 'reported', actor_client_id: null };
    for (const firm of [A, B]) expect(mapEvent(event('trade.refresh_tickets', firm, reported), lookups)[0]?.kind).toBe('ticket.reported');
  });

  it('maps matches, deals, tickets and the reported, rejected, settled and failed orders only', () => {
    expect(mapEvent(event('market.cluster', A, { status: 'proposed', finstrument_id: 7 }), lookups)[0]?.category).toBe('match');
    expect(mapEvent(event('market.cluster', A, { status: 'accepted', finstrument_id: 7 }), lookups)).toEqual([]);
    expect(mapEvent(event('market.consideration_update', A, { finstrument_id: 7, quantum: 500_000, yield: 0.07 }), lookups)[0]?.title).toBe(
      'Deal done',
    );
    expect(
      mapEvent(event('trade.refresh_tickets', A, { ticket_id: 't', state: 'pending_confirmation', action: 'price_set' }), lookups)[0]?.body,
    ).toBe('A ticket was price set; it is now pending confirmation.');
    for (const state of ['reported', 'rejected', 'settled', 'failed'])
      expect(mapEvent(event('trade.open_orders', A, { order_id: 'o', state, client_id: A }), lookups)[0]?.kind).toBe(`order.${state}`);
    expect(mapEvent(event('trade.open_orders', A, { order_id: 'o', state: 'reporting', client_id: A }), lookups)).toEqual([]);
    // The counterparty's order reaches this firm's screens live, but its bell only through the ticket's own step.
    expect(mapEvent(event('trade.open_orders', A, { order_id: 'o', state: 'reported', client_id: B }), lookups)).toEqual([]);
    // Market-wide events concern no one in particular.
    expect(mapEvent(event('market.consideration_update', null, { finstrument_id: 7 }), lookups)).toEqual([]);
  });

  it("tells a requester of Dart Support's reply and of a status change, not of their own message", () => {
    const base = { ticket_id: 't-staff', number: 12, status: 'in_progress', user_id: 'u1' };
    expect(mapEvent(event('support.ticket_changed', A, { ...base, action: 'replied' }), lookups)[0]).toMatchObject({
      userId: 'u1',
      category: 'support',
      title: 'Support replied',
      link: '/support/requests',
    });
    expect(mapEvent(event('support.ticket_changed', A, { ...base, ticket_id: 't-own', action: 'replied' }), lookups)).toEqual([]);
    expect(mapEvent(event('support.ticket_changed', A, { ...base, action: 'status' }), lookups)[0]?.body).toBe(
      'Your request #12 is now in progress.',
    );
    expect(mapEvent(event('support.ticket_changed', A, { ...base, action: 'created' }), lookups)).toEqual([]);
  });

  it('names the reporting deadline: an alert at 10 minutes and an escalation at 15, with the ticket number', () => {
    const alert = mapEvent(
      event('trade.refresh_tickets', A, { ticket_id: 't1', number: 42, state: 'reporting', action: 'report_alert' }),
      lookups,
    );
    expect(alert).toEqual([
      expect.objectContaining({
        clientId: A,
        category: 'ticket',
        kind: 'ticket.report_alert',
        title: 'Reporting deadline approaching',
        body: 'Ticket TKT-000042 is not reported 10 minutes after the trade; it must be reported within 15.',
      }),
    ]);
    expect(alert[0]!.userId).toBeUndefined(); // the firm's trading users
    const escalated = mapEvent(
      event('trade.refresh_tickets', A, { ticket_id: 't1', number: 42, state: 'reporting', action: 'report_escalated' }),
      lookups,
    );
    expect(escalated[0]).toMatchObject({ title: 'Reporting deadline missed', kind: 'ticket.report_escalated' });
    expect(escalated[0]!.body).toBe('Ticket TKT-000042 was not reported within the 15-minute deadline; it is escalated.');
  });

  it('invites each invitee by name of the inviter and the group, and only them', () => {
    const invited = mapEvent(
      event('chat_invites.created', A, { channel_url: 'sendbird_group_channel_1', inviter_id: 'u9', user_ids: ['u1', 'u2'] }),
      lookups,
    );
    expect(invited.map((n) => [n.userId, n.category, n.title, n.body])).toEqual([
      ['u1', 'chat', 'Chat invitation', 'Farhan Shaikh (Second Bank) invited you to the group “G-sec desk”.'],
      ['u2', 'chat', 'Chat invitation', 'Farhan Shaikh (Second Bank) invited you to the group “G-sec desk”.'],
    ]);
    const direct = mapEvent(
      event('chat_invites.created', A, { channel_url: 'sendbird_group_channel_2', inviter_id: 'u9', user_ids: ['u1'] }),
      lookups,
    );
    expect(direct[0]!.body).toBe('Farhan Shaikh (Second Bank) invited you to a chat.');
    expect(mapEvent(event('chat_invites.created', A, { channel_url: 'gone', inviter_id: 'u9', user_ids: ['u1'] }), lookups)).toEqual([]);
  });

  it('tells the requester their upgrade was granted', () => {
    const [granted, ...rest] = mapEvent(
      event('account.upgrade_granted', A, { ticket_id: 't-staff', number: 12, tier: 'PREMIUM', user_id: 'u1' }),
      lookups,
    );
    expect(rest).toEqual([]);
    expect(granted).toMatchObject({
      userId: 'u1',
      category: 'account',
      kind: 'account.upgrade_granted',
      title: 'Upgrade granted',
      body: 'Your organisation is now on the Premium plan (request #12).',
    });
  });
});
