/** Shared steps of the browser tests: demo sign-in and reading one-time codes from the dev outbox. */
import { expect, type APIRequestContext, type APIResponse, type Browser, type Locator, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'Demo@12345';

export const DEMO = {
  dealer: 'dealer@demo.dart',
  viewer: 'viewer@demo.dart',
  opsAdmin: 'opsadmin@demo.dart',
  compliance: 'compliance@demo.dart',
  backOffice: 'backoffice@demo.dart',
  secondDealer: 'dealer@second.dart',
  basic: 'basic@small.dart',
  broker: 'broker@brokers.dart',
  /** Dart's support desk: chat staff, shown in chat under the product name. */
  support: 'support@dart.in',
} as const;

interface OutboxMessage {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  body: string;
  created_at: string;
}

export async function outboxFor(request: APIRequestContext, to: string): Promise<OutboxMessage[]> {
  const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
  expect(response.ok()).toBeTruthy();
  return ((await response.json()) as { results: OutboxMessage[] }).results;
}

/** Ids already in the outbox, so a later read can wait for a message that is new. */
export async function outboxIds(request: APIRequestContext, to: string): Promise<Set<string>> {
  return new Set((await outboxFor(request, to)).map((message) => message.id));
}

/** Waits for a new message to `to` and returns the 6-digit code in its body. */
export async function readNewOtp(request: APIRequestContext, to: string, seen: Set<string>): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const fresh = (await outboxFor(request, to)).find((message) => !seen.has(message.id));
        code = fresh ? /\b(\d{6})\b/.exec(fresh.body)?.[1] : undefined;
        return code;
      },
      { message: `a one-time code e-mailed or texted to ${to}`, timeout: 10_000 },
    )
    .toMatch(/^\d{6}$/);
  return code as string;
}

/** Signs in with the password form and waits until the app has left the login page. */
/** The `verification` proof of a registration: the e-mail's code asked for and read from the dev outbox. */
export async function verifyEmailForRegistration(request: APIRequestContext, email: string): Promise<string> {
  const seen = await outboxIds(request, email);
  const otpBody = { email, request_type: 'register', auth_mode: 'email' };
  expect((await request.post('/api/request-otp/', { data: otpBody })).status()).toBe(200);
  const otp = await readNewOtp(request, email, seen);
  const validated = await request.post('/api/validate-otp/', { data: { ...otpBody, otp } });
  expect(validated.status(), await validated.text()).toBe(200);
  return ((await validated.json()) as { verification: string }).verification;
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD, path = '/auth/login'): Promise<void> {
  await page.goto(path);
  const form = passwordForm(page);
  await form.getByLabel('Email').fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).not.toHaveURL(/\/auth\/login/);
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'You have signed out' })).toBeVisible();
}

export const passwordForm = (page: Page): Locator => page.getByRole('form', { name: 'Sign in with password' });
export const otpRequestForm = (page: Page): Locator => page.getByRole('form', { name: 'Request one-time password' });
export const otpCodeForm = (page: Page): Locator => page.getByRole('form', { name: 'Enter one-time password' });

/** A new browser context signed in as `email` on the Dart workspace, with the live socket up. */
export async function openWorkspace(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email);
  await page.goto('/dart');
  await expect(page.getByRole('heading', { name: 'Workspace', level: 1 })).toBeVisible();
  await resetWorkspaceLayout(page);
  // The live socket is up before anything is posted.
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'connected');
  return page;
}

/**
 * Back to the default (Trader) layout: the layout is saved per user on the server, so without this a
 * test would see the panels an earlier test left in front (Market depth over Public runs).
 */
export async function resetWorkspaceLayout(page: Page): Promise<void> {
  // The dock is up (it decides between the local and the server copy before it draws its tabs).
  await expect(page.getByRole('tab', { name: 'Public runs' })).toBeVisible();
  await page.getByRole('button', { name: 'Layout' }).click();
  await page.getByRole('menuitem', { name: 'Reset layout' }).click();
  await expect(page.getByRole('tab', { name: 'Public runs' })).toHaveAttribute('aria-selected', 'true');
  // The closed menu hands focus back to its button; take it off so the test starts with nothing focused.
  await expect(page.getByRole('menu')).toBeHidden();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** Picks a bond in the quote ticket by a search term and its display name. */
export async function chooseTicketBond(page: Page, search: string, name: string): Promise<Locator> {
  const ticket = page.getByRole('form', { name: 'New quote' });
  await ticket.getByRole('searchbox', { name: 'Bond for the quote' }).fill(search);
  await page.getByRole('option', { name }).click();
  await expect(ticket.getByTestId('ticket-bond')).toHaveText(name);
  return ticket;
}

/** A demo user's API session, as the specs that set a scene through the HTTP API take it: the bearer header and the user's id. */
export interface ApiSession {
  auth: Record<string, string>;
  userId: string;
}

export async function apiSession(request: APIRequestContext, email: string): Promise<ApiSession> {
  const token = await request.post('/api/token/', { data: { email, password: DEMO_PASSWORD } });
  expect(token.status()).toBe(200);
  const auth = { authorization: `Bearer ${((await token.json()) as { access: string }).access}` };
  const session = await request.get('/api/session/', { headers: auth });
  expect(session.status()).toBe(200);
  return { auth, userId: ((await session.json()) as { user_info: { id: string } }).user_info.id };
}

/** The JSON body of an answer that must have `status` (a failure names the call, its status and its body). */
export async function expectJson<T>(response: APIResponse, status: number): Promise<T> {
  expect(response.status(), `${response.url()} answered ${response.status()}: ${await response.text()}`).toBe(status);
  return (await response.json()) as T;
}
