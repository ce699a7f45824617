/** Typed calls of the application-level API, shared by the web app, e2e tests and scripts. */
import type {
  ContactForm,
  MyQuotesQuery,
  OtpLogin,
  Quote,
  Registration,
  RequestOtp,
  SessionUser,
  TokenResponse,
  ValidateOtp,
} from '@dart/contracts';
import type { HttpClient } from './http';

export function createApi(http: HttpClient) {
  return {
    login: (email: string, password: string) => http.post<TokenResponse>('/api/token/', { email, password }),
    refresh: (refresh?: string) => http.post<TokenResponse>('/api/token/refresh/', refresh ? { refresh } : {}),
    logout: () => http.post<{ detail: string }>('/api/logout/', {}, { isTokenEndpoint: true }),
    session: () => http.get<SessionUser>('/api/session/'),
    /** GET api/trade/eoi/: the firm's own quotes (every status, newest first), the market list's paging and filters. */
    myQuotes: (query: Partial<MyQuotesQuery> = {}) =>
      http.get<{ count: number; page: number; page_size: number; results: Quote[]; restriction_text: string | null }>('/api/trade/eoi/', {
        query: { ...query },
      }),
    requestOtp: (body: RequestOtp) => http.post<{ detail: string; expires_in: number }>('/api/request-otp/', body),
    otpLogin: (body: OtpLogin) => http.post<TokenResponse>('/api/token/otp/', body),
    validateOtp: (body: ValidateOtp) => http.post<{ valid: true; verification: string }>('/api/validate-otp/', body),
    resetPassword: (email: string, webUrl: string) => http.post<{ detail: string }>('/api/reset-password/', { email, web_url: webUrl }),
    changePassword: (userId: string, body: { new_password1: string; new_password2: string; token: string }) =>
      http.post<{ detail: string }>(`/api/change-password/${encodeURIComponent(userId)}/`, body),
    register: (body: Registration) => http.post<TokenResponse>('/api/client/register/', body),
    validateInvite: (token: string) =>
      http.get<{ valid: true; email: string; client_name: string }>(`/api/invites/${encodeURIComponent(token)}/`),
    redirectFor: (path: string) => http.get<{ path: string; target: string | null }>('/api/redirects/', { query: { path } }),
    requestSupport: (kind: 'upgrade' | 'support' | 'report_issue', message = '', page?: string) =>
      http.post<{ id: string; detail: string }>('/api/support/requests/', { kind, message, ...(page ? { page } : {}) }),
    contact: (body: ContactForm) => http.post<{ id: string; detail: string }>('/api/contact/', body),
    updateProfile: (body: { first_name?: string; last_name?: string; mobile?: string; verification?: string }) =>
      http.patch<SessionUser>('/api/profile/', body),
    setSecurityPreference: (key: string, enabled: boolean) =>
      http.post<SessionUser>('/api/chatter/user/security-preference', { key, enabled }),
    auditEntries: (page = 1, pageSize = 20) =>
      http.get<{
        results: Array<{
          id: string;
          at: string;
          actor_email: string | null;
          action: string;
          entity: string;
          entity_id: string | null;
          ip: string | null;
        }>;
        count: number;
      }>('/api/surveillance/audit/', { query: { page, page_size: pageSize } }),
    clientUsers: () =>
      http.get<{
        results: Array<{
          id: string;
          first_name: string;
          last_name: string;
          email: string;
          roles: string[];
          permissions: string[];
          status: string;
        }>;
        count: number;
      }>('/api/client/users/'),
    pendingInvites: () =>
      http.get<{ results: Array<{ id: string; email: string; roles: string[]; expires_at: string; created_at: string }> }>(
        '/api/client/invites/',
      ),
    createInvite: (body: { email: string; roles: string[]; permissions?: string[] }) =>
      http.post<{ id: string; email: string; roles: string[]; client_name: string; expires_at: string; token?: string }>(
        '/api/client/invites/',
        body,
      ),
    devOutbox: (to?: string) =>
      http.get<{ results: Array<{ id: string; channel: 'email' | 'sms'; to: string; subject: string; body: string; created_at: string }> }>(
        '/api/dev/outbox',
        { query: { to } },
      ),
    version: () => http.get<{ version: string }>('/version.json', { headers: { 'cache-control': 'no-cache' } }),
    buildManifest: () => http.get<{ id: string }>('/builds/latest.json', { headers: { 'cache-control': 'no-cache' } }),
    health: () => http.get<unknown>('/api/health'),
  };
}
export type Api = ReturnType<typeof createApi>;
