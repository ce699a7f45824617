/**
 * The HTTP rules of spec application §8–§9 in one place: base URL, credentials included,
 * timeout → `TimeoutError`, retries on 408/409/425/429/500/502/503/504 (once for GET, never for
 * writes by default), 401 → refresh once and retry (at most 2 per URL), log out when refresh fails.
 */
import { DEFAULT_RETRIES, RETRYABLE_STATUSES, type ErrorBody } from '@dart/contracts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Raised for any HTTP status 400–599. `body` is the server's `{ code, message, errors }`. */
export class HttpError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  constructor(status: number, body: ErrorBody) {
    super(body.message);
    this.name = 'HttpError';
    this.status = status;
    this.body = body;
  }
}

/** Raised when a request outlives its timeout (spec: 'TimeoutError'). */
export class TimeoutError extends Error {
  constructor(url: string) {
    super(`Request timed out: ${url}`);
    this.name = 'TimeoutError';
  }
}

export interface HttpClientOptions {
  baseUrl: string;
  /** The current access token, if any. */
  getAccessToken: () => string | null;
  /** Refreshes the session; resolves true when a new access token is in place. */
  refreshSession: () => Promise<boolean>;
  /** Called when the session cannot be recovered: clear state and go to /auth/logout. */
  onLogout: () => void;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Pause between retries; tests pass 0. */
  retryDelayMs?: number;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  retries?: number;
  headers?: Record<string, string>;
  /** Skip the 401 refresh rule (token endpoints). */
  isTokenEndpoint?: boolean;
  signal?: AbortSignal;
}

/** Token endpoints (and sign-out) never trigger refresh-and-retry. */
const TOKEN_PATH = /\/api\/(?:token|logout)\//;
/** The chatter trade POST whose 200 also carries its status (spec §8). */
const CHATTER_TRADE_PATH = /\/api\/chatter\/trade\/?$/;

export interface HttpClient {
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, options?: RequestOptions): Promise<T>;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retryDelayMs = options.retryDelayMs ?? 300;
  let refreshInFlight: Promise<boolean> | null = null;

  function refreshOnce(): Promise<boolean> {
    refreshInFlight ??= options
      .refreshSession()
      .catch(() => false)
      .finally(() => {
        refreshInFlight = null;
      });
    return refreshInFlight;
  }

  function buildUrl(path: string, query?: RequestOptions['query']): string {
    const base = options.baseUrl.replace(/\/$/, '');
    const url = new URL(`${base}${path.startsWith('/') ? path : `/${path}`}`, 'http://placeholder.invalid');
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    return base.startsWith('http') ? url.toString() : `${url.pathname}${url.search}`;
  }

  async function send(method: HttpMethod, url: string, opts: RequestOptions): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TimeoutError(url)), timeoutMs);
    const onOuterAbort = () => controller.abort(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    const token = options.getAccessToken();
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    try {
      return await fetchImpl(url, { method, headers, body, credentials: 'include', signal: controller.signal });
    } catch (error) {
      if (controller.signal.aborted && controller.signal.reason instanceof TimeoutError) throw controller.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onOuterAbort);
    }
  }

  async function parse<T>(response: Response, url: string): Promise<T> {
    const text = await response.text();
    let data: unknown = text === '' ? null : text;
    if (text !== '' && (response.headers.get('content-type') ?? '').includes('json')) data = JSON.parse(text);
    if (response.status >= 400) {
      const body: ErrorBody =
        data && typeof data === 'object' && 'message' in data
          ? (data as ErrorBody)
          : { code: `HTTP_${response.status}`, message: response.statusText || `HTTP ${response.status}` };
      throw new HttpError(response.status, body);
    }
    const attachStatus = response.status === 207 || (response.status === 200 && CHATTER_TRADE_PATH.test(new URL(url, 'http://x').pathname));
    if (attachStatus && data && typeof data === 'object') (data as Record<string, unknown>).status = response.status;
    return data as T;
  }

  async function request<T>(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<T> {
    const url = buildUrl(path, opts.query);
    const retries = opts.retries ?? DEFAULT_RETRIES[method];
    const isTokenEndpoint = opts.isTokenEndpoint ?? TOKEN_PATH.test(path);
    for (let attempt = 0; ; attempt++) {
      const response = await send(method, url, opts);
      if (response.status === 401 && !isTokenEndpoint) {
        // One refresh, one retry: the URL has then been tried UNAUTHORIZED_RETRY_LIMIT_PER_URL times.
        if (!(await refreshOnce())) {
          options.onLogout();
          return parse<T>(response, url);
        }
        await response.body?.cancel();
        const retried = await send(method, url, opts);
        if (retried.status === 401) options.onLogout();
        return parse<T>(retried, url);
      }
      if ((RETRYABLE_STATUSES as readonly number[]).includes(response.status) && attempt < retries) {
        await response.body?.cancel();
        if (retryDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
        continue;
      }
      return parse<T>(response, url);
    }
  }

  return {
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    put: (path, body, opts) => request('PUT', path, { ...opts, body }),
    patch: (path, body, opts) => request('PATCH', path, { ...opts, body }),
    delete: (path, opts) => request('DELETE', path, opts),
  };
}
