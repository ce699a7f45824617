/**
 * Bad input never answers 500 (issue 11 defects 4 and 7), on every driver and over real sockets:
 * lone UTF-16 surrogates in values and keys are refused once, by the input guard, with a 400 naming
 * the field — the places that used to fail in a jsonb insert first; a refused exchange RFQ reaches no
 * venue; duplicate JSON keys are refused with a 400 at the key (HTTP bodies and both sockets' frames);
 * the body limit and prototype-pollution refusal still hold.
 */
import { CHAT_PATH, LIVE_PATH, TEXT_MESSAGES, type Channel, type ChatMessage } from '@dart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { bearer, DRIVERS, exchangeRfqBody, json, type TestApp } from './helpers';
import { listeningChatApp, openChat, type ChatUser } from './chat-support';

/** Sizes are face value in rupees (issue 12 §1): ₹1 L is one ₹1 L NCD or 1,000 G-sec bonds. */
const LAKH = 100_000;

const GSEC_2033 = 'IN0020220151';
const HALF = TEXT_MESSAGES.illFormed;
const DUPLICATE = TEXT_MESSAGES.duplicateKey;

type ErrorBody = { code: string; message: string; errors?: Record<string, string[]> };

describe.each(DRIVERS)('bad input (%s)', (driver) => {
  let t: TestApp;
  let wsUrl: string;
  let a: ChatUser; // dealer@demo.dart
  let b: ChatUser; // dealer@second.dart
  let gsec: number;
  let counter = 0;
  const reqId = () => `bad-input-${++counter}`;

  beforeAll(async () => {
    const started = await listeningChatApp(driver, ['dealer@demo.dart', 'dealer@second.dart'], { BOND_IMPORT: 'slice' });
    ({ t, wsUrl } = started);
    a = started.users['dealer@demo.dart'];
    b = started.users['dealer@second.dart'];
    gsec = json<{ id: number }>(await t.app.inject({ method: 'GET', url: `/api/finstrument/${GSEC_2033}/` })).id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const send = (user: ChatUser, method: 'POST' | 'PATCH' | 'GET', url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { ...bearer(user.access), ...headers }, ...(payload ? { payload } : {}) });
  /** Raw JSON text as the body, exactly as written. */
  const sendRaw = (user: ChatUser, url: string, text: string) =>
    t.app.inject({ method: 'POST', url, headers: { ...bearer(user.access), 'content-type': 'application/json' }, payload: text });
  const quoteCount = async () => (await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM quotes'))[0]!.n;
  const rfqBody = (extra: object = {}) => exchangeRfqBody(gsec, extra);
  const expectFieldError = (response: { statusCode: number; body: string }, field: string, message: string) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = JSON.parse(response.body) as ErrorBody;
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.errors?.[field], response.body).toEqual([message]);
  };

  it('refuses a lone surrogate with a 400 naming the field wherever it used to fail in the database', async () => {
    const before = await quoteCount();
    // A value in a jsonb column, and a key (named by its parent object).
    expectFieldError(
      await send(a, 'POST', '/api/trade/eoi/', rfqBody({ send_to_rfq: false, oto_participant_details: { name: '\ud800' } })),
      'oto_participant_details.name',
      HALF,
    );
    expectFieldError(
      await send(a, 'POST', '/api/eoi/add/', {
        quantum: 5 * LAKH,
        finstrument_id: gsec,
        quote_type: 'ask',
        unit_price_stored: 100,
        oto_participant_details: { ['trader\udc00']: 'x' },
      }),
      'oto_participant_details',
      HALF,
    );
    expect(await quoteCount()).toBe(before);

    // Chat: channel name and data on create, message data on send, the edited text.
    const invite = { customType: 'group', invitedUserIds: [b.id] };
    expectFieldError(await send(a, 'POST', '/api/chat/channels/', { ...invite, name: 'Desk \ud83d' }), 'name', HALF);
    expectFieldError(
      await send(a, 'POST', '/api/chat/channels/', { ...invite, name: 'Desk', data: { note: { deep: '\udfff' } } }),
      'data.note.deep',
      HALF,
    );
    const created = await send(a, 'POST', '/api/chat/channels/', { ...invite, name: 'Surrogate desk' });
    expect(created.statusCode, created.body).toBeLessThan(300);
    const channel = json<Channel>(created);
    const messages = `/api/chat/channels/${channel.url}/messages/`;
    expectFieldError(await send(a, 'POST', messages, { reqId: reqId(), message: 'hi', data: { k: 'x\ud800y' } }), 'data.k', HALF);
    expectFieldError(await send(a, 'POST', messages, { reqId: reqId(), message: 'hi', data: { ['\ud800']: 1 } }), 'data', HALF);
    const sent = await send(a, 'POST', messages, { reqId: reqId(), message: 'kept as it was' });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    const message = json<ChatMessage>(sent);
    expectFieldError(await send(a, 'PATCH', `${messages}${message.messageId}/`, { message: 'edited \udbff' }), 'message', HALF);
    const page = json<{ messages: ChatMessage[] }>(await send(a, 'GET', messages));
    expect(page.messages.map((m) => m.message)).toEqual(['kept as it was']);

    // A header that reaches the audit trail.
    expectFieldError(
      await send(a, 'POST', messages, { reqId: reqId(), message: 'x' }, { 'user-agent': 'agent \ud800' }),
      'user-agent',
      HALF,
    );
    // A surrogate pair (an emoji) is a character like any other.
    expect((await send(a, 'POST', messages, { reqId: reqId(), message: 'ok 😀', data: { '😀': '𝒳' } })).statusCode).toBeLessThan(300);
  });

  it('refuses a bad RFQ before anything reaches the venue', async () => {
    // The venue numbers everything it is sent (RFQs, responses, trades) in one sequence: two good RFQs
    // around the refused ones must get consecutive numbers.
    const sequenceOf = (ref: string | null) => Number(/-(\d{6})$/.exec(ref ?? '')?.[1]);
    const first = await send(a, 'POST', '/api/trade/eoi/', rfqBody());
    expect(first.statusCode, first.body).toBe(201);
    const firstRef = json<{ exchange_ref: string }>(first).exchange_ref;
    expect(await t.app.exchange.venue.rfq(firstRef)).toBeDefined();
    const before = await quoteCount();

    expectFieldError(
      await send(a, 'POST', '/api/trade/eoi/', rfqBody({ oto_participant_details: { name: 'Dealer \ud800' } })),
      'oto_participant_details.name',
      HALF,
    );
    const { quantum: _quantum, ...rest } = rfqBody();
    expectFieldError(
      await sendRaw(a, '/api/trade/eoi/', `{"quantum":5,${JSON.stringify(rest).slice(1, -1)},"quantum":7}`),
      'quantum',
      DUPLICATE,
    );
    expect(await quoteCount()).toBe(before);

    const second = await send(a, 'POST', '/api/trade/eoi/', rfqBody());
    expect(second.statusCode, second.body).toBe(201);
    expect(sequenceOf(json<{ exchange_ref: string }>(second).exchange_ref)).toBe(sequenceOf(firstRef) + 1);
  });

  it('refuses duplicate JSON keys with a 400 at the key, at any depth and however the key is spelt', async () => {
    const body = JSON.stringify(rfqBody({ send_to_rfq: false })).slice(1, -1);
    const before = await quoteCount();
    const duplicate = await sendRaw(a, '/api/trade/eoi/', `{${body},"quantum":7}`);
    expectFieldError(duplicate, 'quantum', DUPLICATE);
    expect(json<ErrorBody>(duplicate).message).toBe(DUPLICATE);
    expectFieldError(await sendRaw(a, '/api/trade/eoi/', `{${body},"\\u0071uantum":7}`), 'quantum', DUPLICATE);
    expectFieldError(
      await sendRaw(a, '/api/trade/eoi/', `{${body},"oto_participant_details":{"name":"a","name":"b"}}`),
      'oto_participant_details.name',
      DUPLICATE,
    );
    expectFieldError(
      await sendRaw(a, '/api/trade/eoi/', `{"__proto__":{"polluted":true},${body}}`),
      '__proto__',
      TEXT_MESSAGES.forbiddenKey,
    );
    expectFieldError(
      await sendRaw(a, '/api/trade/eoi/', `{"constructor":{"prototype":{"polluted":true}},${body}}`),
      'constructor.prototype',
      TEXT_MESSAGES.forbiddenKey,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await quoteCount()).toBe(before);

    // The same key in sibling objects, or in strings, is fine; a charset parameter is fine.
    const fine = await t.app.inject({
      method: 'POST',
      url: '/api/trade/eoi/',
      headers: { ...bearer(a.access), 'content-type': 'application/json; charset=utf-8' },
      payload: `{${body},"oto_participant_details":{"note":"{\\"quantum\\":1,\\"quantum\\":2}","name":"x"}}`,
    });
    expect(fine.statusCode, fine.body).toBe(201);
    expect(json<{ quantum: number }>(fine).quantum).toBe(500);
    expect(await quoteCount()).toBe(before + 1);
  });

  it('answers a forged channel page token with a 400 (or re-writes its time), never a 500', async () => {
    const refused = [
      { g: 1, a: '2024-01-01T00:00:00Z', u: 'a\u0000b' },
      { g: 1e308, a: '2024-01-01T00:00:00Z', u: 'x' },
      { g: 1.5, a: '2024-01-01T00:00:00Z', u: 'x' },
      { g: 1, a: '+099999-01-01T00:00:00Z', u: 'x' },
      { g: 1, a: 'Jan 1 2024 \ud800', u: 'x' },
      { g: 1, a: '2024-01-01T00:00:00Z', u: 'a\ud800' },
      { g: 1, a: '2024-01-01T00:00:00Z', u: { nested: true } },
    ];
    // Times JavaScript reads (trailing NUL ignored, 30 February = 1 March) are passed on re-written as ISO.
    const rewritten = [
      { g: 1, a: '2024-01-01T00:00:00Z\u0000', u: 'x' },
      { g: 1, a: '2024-02-30', u: 'x' },
    ];
    const list = (cursor: object) =>
      send(a, 'GET', `/api/chat/channels/?token=${Buffer.from(JSON.stringify(cursor)).toString('base64url')}`);
    for (const cursor of refused) expectFieldError(await list(cursor), 'token', 'Invalid page token.');
    for (const cursor of rewritten) expect((await list(cursor)).statusCode).toBe(200);
  });

  it('keeps the body limit and the malformed-JSON answer', async () => {
    const huge = `{"message":"${'a'.repeat(t.config.bodyLimitBytes)}"}`;
    const tooLarge = await sendRaw(a, '/api/contact/', huge);
    expect(tooLarge.statusCode).toBe(413);
    expect(json<ErrorBody>(tooLarge).code).toBe('PAYLOAD_TOO_LARGE');
    const broken = await sendRaw(a, '/api/trade/eoi/', '{"quantum":');
    expect(broken.statusCode).toBe(400);
    expect(json<ErrorBody>(broken)).toEqual({
      code: 'BAD_REQUEST',
      message: "Body is not valid JSON but content-type is set to 'application/json'",
    });
  });

  it('refuses duplicate keys and lone surrogates in chat socket frames, storing nothing', async () => {
    const channel = json<Channel>(
      await send(a, 'POST', '/api/chat/channels/', { customType: 'group', name: 'Frames desk', invitedUserIds: [b.id] }),
    );
    const client = await openChat(wsUrl, a);
    try {
      const nackOf = (id: string) => client.next((f) => f.type === 'nack' && f.reqId === id);
      const url = JSON.stringify(channel.url);
      const dup = reqId();
      client.socket.send(`{"type":"send","channel_url":${url},"reqId":"${dup}","message":"five","message":"seven"}`);
      expect(await nackOf(dup)).toMatchObject({ code: 'VALIDATION_FAILED', message: `message: ${DUPLICATE}` });
      const half = reqId();
      client.socket.send(`{"type":"send","channel_url":${url},"reqId":"${half}","message":"hi \\ud800"}`);
      expect(await nackOf(half)).toMatchObject({ code: 'VALIDATION_FAILED', message: `message: ${HALF}` });
      const key = reqId();
      client.socket.send(`{"type":"send","channel_url":${url},"reqId":"${key}","message":"hi","data":{"\\udc00":1}}`);
      expect(await nackOf(key)).toMatchObject({ code: 'VALIDATION_FAILED', message: `data: ${HALF}` });
      const nested = reqId();
      client.socket.send(`{"type":"send","channel_url":${url},"reqId":"${nested}","message":"hi","data":{"a":{"b":"\\udfff"}}}`);
      expect(await nackOf(nested)).toMatchObject({ message: `data.a.b: ${HALF}` });
      // The socket still works, and only the good message is stored.
      const good = reqId();
      client.send({ type: 'send', channel_url: channel.url, reqId: good, message: 'fine 😀' });
      await client.next((f) => f.type === 'ack' && f.reqId === good);
      const page = json<{ messages: ChatMessage[] }>(await send(a, 'GET', `/api/chat/channels/${channel.url}/messages/`));
      expect(page.messages.map((m) => m.message)).toEqual(['fine 😀']);
    } finally {
      client.socket.close();
    }
  });

  it('refuses a frame with duplicate keys on the live socket', async () => {
    const socket = new WebSocket(wsUrl.replace(CHAT_PATH, LIVE_PATH));
    const frames: Array<{ type: string; code?: string }> = [];
    const arrived = (count: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`live frames: ${JSON.stringify(frames)}`)), 5000);
        const check = () => {
          if (frames.length >= count) {
            clearTimeout(timer);
            resolve();
          } else setTimeout(check, 10);
        };
        check();
      });
    socket.on('message', (raw: Buffer) => frames.push(JSON.parse(raw.toString()) as { type: string }));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    try {
      socket.send('{"type":"ping","type":"ping"}');
      await arrived(1);
      socket.send('{"type":"ping"}');
      await arrived(2);
      expect(frames).toEqual([{ type: 'error', code: 'BAD_MESSAGE', message: 'Unrecognised message.' }, { type: 'pong' }]);
    } finally {
      socket.close();
    }
  });
});
