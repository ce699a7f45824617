/** The HTTP rules, tested against a real local HTTP server (no mocked fetch). */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpClient, HttpError, TimeoutError } from './http';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let baseUrl: string;
const hits = new Map<string, number>();
let route: Record<string, Handler> = {};

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const key = `${req.method} ${req.url}`;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    const handler = route[key];
    if (handler) handler(req, res);
    else send(res, 404, { code: 'NOT_FOUND', message: 'nope' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  hits.clear();
  route = {};
});

function client(overrides: Partial<Parameters<typeof createHttpClient>[0]> = {}) {
  const state = { token: 'old', refreshes: 0, logouts: 0 };
  const http = createHttpClient({
    baseUrl,
    retryDelayMs: 0,
    getAccessToken: () => state.token,
    refreshSession: async () => {
      state.refreshes++;
      state.token = 'new';
      return true;
    },
    onLogout: () => {
      state.logouts++;
    },
    ...overrides,
  });
  return { http, state };
}

describe('HTTP client rules (spec application §8, §9)', () => {
  it('sends the bearer token and parses JSON', async () => {
    route['GET /api/x'] = (req, res) => send(res, 200, { auth: req.headers.authorization });
    const { http } = client();
    expect(await http.get('/api/x')).toEqual({ auth: 'Bearer old' });
  });

  it('retries a GET once on a retryable status, and never a POST', async () => {
    let n = 0;
    route['GET /api/flaky'] = (_req, res) =>
      ++n === 1 ? send(res, 503, { code: 'SERVICE_UNAVAILABLE', message: 'down' }) : send(res, 200, { ok: true });
    route['POST /api/flaky'] = (_req, res) => send(res, 503, { code: 'SERVICE_UNAVAILABLE', message: 'down' });
    const { http } = client();
    expect(await http.get('/api/flaky')).toEqual({ ok: true });
    expect(hits.get('GET /api/flaky')).toBe(2);
    await expect(http.post('/api/flaky', {})).rejects.toBeInstanceOf(HttpError);
    expect(hits.get('POST /api/flaky')).toBe(1);
  });

  it('does not retry a GET on a non-retryable status and raises the server body', async () => {
    route['GET /api/bad'] = (_req, res) =>
      send(res, 400, { code: 'VALIDATION_FAILED', message: 'Bad', errors: { pan: ['Please enter a valid PAN (10 Digits).'] } });
    const { http } = client();
    const error = await http.get('/api/bad').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    expect((error as HttpError).body.errors).toEqual({ pan: ['Please enter a valid PAN (10 Digits).'] });
    expect(hits.get('GET /api/bad')).toBe(1);
  });

  it('on 401 refreshes once and retries with the new token', async () => {
    route['GET /api/me'] = (req, res) =>
      req.headers.authorization === 'Bearer new'
        ? send(res, 200, { me: 1 })
        : send(res, 401, { code: 'TOKEN_EXPIRED', message: 'expired' });
    const { http, state } = client();
    expect(await http.get('/api/me')).toEqual({ me: 1 });
    expect(state.refreshes).toBe(1);
    expect(state.logouts).toBe(0);
  });

  it('logs out when the retried call is 401 again, or when refresh fails', async () => {
    route['GET /api/never'] = (_req, res) => send(res, 401, { code: 'UNAUTHENTICATED', message: 'no' });
    const first = client();
    await expect(first.http.get('/api/never')).rejects.toBeInstanceOf(HttpError);
    expect(hits.get('GET /api/never')).toBe(2);
    expect(first.state.logouts).toBe(1);
    const second = client({ refreshSession: async () => false });
    await expect(second.http.get('/api/never')).rejects.toBeInstanceOf(HttpError);
    expect(second.state.logouts).toBe(1);
  });

  it('never refreshes on a 401 from the token endpoints', async () => {
    route['POST /api/token/'] = (_req, res) =>
      send(res, 401, { code: 'INVALID_CREDENTIALS', message: 'Unable to log in with provided credentials.' });
    const { http, state } = client();
    await expect(http.post('/api/token/', { email: 'a', password: 'b' })).rejects.toMatchObject({ status: 401 });
    expect(state.refreshes).toBe(0);
    expect(state.logouts).toBe(0);
  });

  it('shares one refresh among concurrent 401s', async () => {
    route['GET /api/a'] = (req, res) =>
      req.headers.authorization === 'Bearer new' ? send(res, 200, 'a') : send(res, 401, { code: 'TOKEN_EXPIRED', message: 'x' });
    route['GET /api/b'] = (req, res) =>
      req.headers.authorization === 'Bearer new' ? send(res, 200, 'b') : send(res, 401, { code: 'TOKEN_EXPIRED', message: 'x' });
    const state = { token: 'old', refreshes: 0 };
    const http = createHttpClient({
      baseUrl,
      retryDelayMs: 0,
      getAccessToken: () => state.token,
      onLogout: () => {},
      refreshSession: async () => {
        state.refreshes++;
        await new Promise((r) => setTimeout(r, 20));
        state.token = 'new';
        return true;
      },
    });
    expect(await Promise.all([http.get('/api/a'), http.get('/api/b')])).toEqual(['a', 'b']);
    expect(state.refreshes).toBe(1);
  });

  it('raises TimeoutError when the server is too slow', async () => {
    route['GET /api/slow'] = (_req, res) => setTimeout(() => send(res, 200, {}), 500);
    const { http } = client({ timeoutMs: 50 });
    const error = await http.get('/api/slow', { retries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).name).toBe('TimeoutError');
  });

  it('attaches the status to 207 answers and to the chatter trade POST', async () => {
    route['POST /api/bulk'] = (_req, res) => send(res, 207, { results: [] });
    route['POST /api/chatter/trade/'] = (_req, res) => send(res, 200, { id: 1 });
    route['POST /api/other'] = (_req, res) => send(res, 200, { id: 2 });
    const { http } = client();
    expect(await http.post('/api/bulk', {})).toEqual({ results: [], status: 207 });
    expect(await http.post('/api/chatter/trade/', {})).toEqual({ id: 1, status: 200 });
    expect(await http.post('/api/other', {})).toEqual({ id: 2 });
  });

  it('adds query parameters and sends credentials-included JSON bodies', async () => {
    route['POST /api/echo?x=1&y=two'] = (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => send(res, 200, { type: req.headers['content-type'], body: JSON.parse(body) as unknown }));
    };
    const { http } = client();
    expect(await http.post('/api/echo', { a: 1 }, { query: { x: 1, y: 'two', z: undefined } })).toEqual({
      type: 'application/json',
      body: { a: 1 },
    });
  });
});
