/**
 * Private runs sent into a chat, through the HTTP API on every driver: the server writes the card
 * and the text from the quote (the client's are ignored), only for the sender's firm's open private
 * quotes addressed to every other firm among the channel's members (invitees included); cards cannot be edited;
 * the card reaches the other member over the socket. Also: link previews show dates as YYYY-MM-DD on
 * both drivers.
 */
import { PRIVATE_RUN_CUSTOM_TYPE, PRIVATE_RUN_MESSAGES, PrivateRunCardSchema, type Channel, type ChatMessage } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, DRIVERS, json, type TestApp } from './helpers';
import { listeningChatApp, openChat, sleep, type ChatUser } from './chat-support';

/** Sizes are face value in rupees (issue 12 §1): ₹1 L is one ₹1 L NCD or 1,000 G-sec bonds. */
const LAKH = 100_000;

const HDFC_NCD = 'INE040A08955';

describe.each(DRIVERS)('private runs in chat (%s)', (driver) => {
  let t: TestApp;
  let wsUrl: string;
  let a: ChatUser; // Demo Capital
  let b: ChatUser; // Second Bank
  let c: ChatUser; // Demo Brokers
  const firm: Record<string, string> = {};
  let hdfc: number;
  let seq = 0;

  beforeAll(async () => {
    const started = await listeningChatApp(driver, ['dealer@demo.dart', 'dealer@second.dart', 'broker@brokers.dart'], {
      BOND_IMPORT: 'slice',
    });
    ({ t, wsUrl } = started);
    a = started.users['dealer@demo.dart'];
    b = started.users['dealer@second.dart'];
    c = started.users['broker@brokers.dart'];
    for (const user of [a, b, c])
      firm[user.email] = json<{ client_id: string }>(
        await t.app.inject({ method: 'GET', url: '/api/session/', headers: bearer(user.access) }),
      ).client_id;
    hdfc = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${HDFC_NCD}/` })).id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const api = (user: ChatUser, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(user.access), ...(payload ? { payload } : {}) });
  const quote = async (user: ChatUser, to: ChatUser[] | null, extra: object = {}) => {
    const response = await api(user, 'POST', '/api/trade/eoi/', {
      finstrument_id: hdfc,
      quote_type: 'BID',
      quantum: 500 * LAKH,
      yield_stored: 0.0791,
      settlement_delta: 1,
      ...(to ? { counterparties: to.map((u) => firm[u.email]) } : {}),
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(201);
    return json<{ id: string; unit_price_stored: number; settlement_date?: string }>(response);
  };
  // Spaced out: refused sends count against the 5 messages/s limit too.
  const sendRun = async (user: ChatUser, url: string, data: object, message = 'Private run') => {
    await sleep(250);
    return api(user, 'POST', `/api/chat/channels/${url}/messages/`, {
      reqId: `run-${++seq}`,
      message,
      customType: PRIVATE_RUN_CUSTOM_TYPE,
      data,
    });
  };
  const fieldErrorOf = (response: { statusCode: number; body: string }) => {
    expect(response.statusCode, response.body).toBe(400);
    return (JSON.parse(response.body) as { errors: Record<string, string[]> }).errors['data.quote_id']?.[0];
  };

  it('stores the card and the text from the quote, whatever the client sent, and delivers it live', async () => {
    const direct = json<Channel>(
      await api(a, 'POST', '/api/chat/channels/', { isDistinct: true, customType: 'direct', invitedUserIds: [b.id] }),
    );
    const listener = await openChat(wsUrl, b);
    const q = await quote(a, [b]);
    const sent = await sendRun(a, direct.url, { quote_id: q.id }, 'Totally not a quote <b>forged</b>');
    expect(sent.statusCode, sent.body).toBe(201);
    const message = json<ChatMessage>(sent);
    expect(message.customType).toBe(PRIVATE_RUN_CUSTOM_TYPE);
    const card = PrivateRunCardSchema.parse(message.data.private_run);
    expect(card).toMatchObject({
      quote_id: q.id,
      quote_type: 'BID',
      isin: HDFC_NCD,
      yield_stored: 0.0791,
      quantum: 500 * LAKH,
      face_value_per_bond: LAKH,
    });
    expect(card.unit_price_stored).toBeCloseTo(q.unit_price_stored, 4);
    expect(card.settlement_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(message.message).toBe(
      `Private run: Bid ${card.display_name} (${HDFC_NCD}) at 7.9100%, price ${card.unit_price_stored.toFixed(4)}, ₹5 Cr · 500 bonds, settlement ${card.settlement_date}`,
    );
    expect(Object.keys(message.data)).toEqual(['private_run']);
    const frame = await listener.next((f) => f.type === 'message' && f.channel_url === direct.url);
    expect((frame.message as ChatMessage).data.private_run).toEqual(card);
    listener.socket.close();
    // A card is not text to rewrite.
    expect((await api(a, 'PATCH', `/api/chat/channels/${direct.url}/messages/${message.messageId}/`, { message: 'x' })).statusCode).toBe(
      403,
    );
  });

  it('refuses quotes that are not the sender’s open private runs to every other firm in the chat', async () => {
    const direct = json<Channel>(
      await api(a, 'POST', '/api/chat/channels/', { isDistinct: true, customType: 'direct', invitedUserIds: [b.id] }),
    );
    const count = async () =>
      json<{ messages: unknown[] }>(await api(a, 'GET', `/api/chat/channels/${direct.url}/messages/?limit=100`)).messages.length;
    const before = await count();
    expect(fieldErrorOf(await sendRun(a, direct.url, { quote_id: 'nope' }))).toBe('Not a quote id.');
    expect(fieldErrorOf(await sendRun(a, direct.url, {}))).toBeTruthy();
    expect(fieldErrorOf(await sendRun(a, direct.url, { quote_id: crypto.randomUUID() }))).toBe(PRIVATE_RUN_MESSAGES.notFound);
    // Another firm's quote, even one addressed to the sender, is "not found".
    expect(fieldErrorOf(await sendRun(a, direct.url, { quote_id: (await quote(b, [a])).id }))).toBe(PRIVATE_RUN_MESSAGES.notFound);
    expect(fieldErrorOf(await sendRun(a, direct.url, { quote_id: (await quote(a, null, { yield_stored: 0.0795 })).id }))).toBe(
      PRIVATE_RUN_MESSAGES.notPrivate,
    );
    expect(fieldErrorOf(await sendRun(a, direct.url, { quote_id: (await quote(a, [c])).id }))).toBe(PRIVATE_RUN_MESSAGES.notAddressed);
    const closed = await quote(a, [b]);
    expect((await api(a, 'PUT', `/api/trade/d/eoi/${closed.id}/close/`)).statusCode).toBe(200);
    expect(fieldErrorOf(await sendRun(a, direct.url, { quote_id: closed.id }))).toBe(PRIVATE_RUN_MESSAGES.notOpen);
    expect(await count()).toBe(before);
  });

  it('counts every member who can read the chat, invitees included', async () => {
    const group = json<Channel>(
      await api(a, 'POST', '/api/chat/channels/', { customType: 'group', name: 'HDFC desk', invitedUserIds: [b.id, c.id] }),
    );
    // Demo Brokers' dealer is only invited, but would read the card: a run to Second Bank alone does not fit.
    expect(fieldErrorOf(await sendRun(a, group.url, { quote_id: (await quote(a, [b])).id }))).toBe(PRIVATE_RUN_MESSAGES.notAddressed);
    expect((await sendRun(a, group.url, { quote_id: (await quote(a, [b, c])).id })).statusCode).toBe(201);
    // A broadcast's recipients are not members of it: nobody from another firm is in it.
    const broadcast = json<Channel>(
      await api(a, 'POST', '/api/chat/channels/', { customType: 'broadcast', name: 'Axes', invitedUserIds: [b.id] }),
    );
    expect(fieldErrorOf(await sendRun(a, broadcast.url, { quote_id: (await quote(a, [b])).id }))).toBe(PRIVATE_RUN_MESSAGES.noOtherFirm);
  });

  it('link previews show dates as YYYY-MM-DD', async () => {
    const direct = json<Channel>(
      await api(a, 'POST', '/api/chat/channels/', { isDistinct: true, customType: 'direct', invitedUserIds: [c.id] }),
    );
    const sent = await api(a, 'POST', `/api/chat/channels/${direct.url}/messages/`, {
      reqId: `link-${++seq}`,
      message: `See /security/${HDFC_NCD}`,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(json<ChatMessage>(sent).ogMetaData?.description).toMatch(/Maturity \d{4}-\d{2}-\d{2}/);
  });
});
