/**
 * RELIABILITY #26 (XSS): user-supplied text renders as text, and every response carries a CSP with
 * `frame-ancestors`. A payload corpus goes in through the real API (Playwright's request context,
 * as the demo users) — chat messages, an edited message, chat file names, channel names, profile
 * names — then both users open the pages in Chromium. Pass: no script ran (`window.__xss` stays
 * undefined, no dialog, no CSP violation report, no injected element) and each payload is visible
 * as its literal text.
 */
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, DEMO_PASSWORD, signIn } from './helpers';

declare global {
  interface Window {
    /** CSP violation reports of the page (recorded by an init script). */
    dartCspViolations?: string[];
  }
}
/** The global every payload sets when it runs. */
const XSS_FLAG = '__xss';

/** Every one of these sets window.__xss or opens a dialog if it is ever treated as markup or a link. */
const PAYLOADS = [
  '<img src=x onerror=window.__xss=1>',
  '<script>window.__xss=1</script>',
  '"><svg onload=window.__xss=1>',
  "'><img src=x onerror=alert(1)>",
  'javascript:window.__xss=1',
  '[Dart quote](javascript:window.__xss=1)',
  '<a href="javascript:window.__xss=1">click me</a>',
  '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
  "{{constructor.constructor('window.__xss=1')()}}",
  '<b onmouseover=window.__xss=1 style="display:block;position:fixed;inset:0">hover</b>',
] as const;

interface Session {
  request: APIRequestContext;
  userId: string;
  auth: { authorization: string };
}

async function apiSession(request: APIRequestContext, email: string): Promise<Session> {
  const token = await request.post('/api/token/', { data: { email, password: DEMO_PASSWORD } });
  expect(token.status()).toBe(200);
  const { access } = (await token.json()) as { access: string };
  const auth = { authorization: `Bearer ${access}` };
  const session = await request.get('/api/session/', { headers: auth });
  expect(session.status()).toBe(200);
  const { user_info } = (await session.json()) as { user_info: { id: string } };
  return { request, userId: user_info.id, auth };
}

async function json<T>(response: Awaited<ReturnType<APIRequestContext['post']>>, status: number[]): Promise<T> {
  expect(status, `${response.url()} answered ${response.status()}: ${await response.text()}`).toContain(response.status());
  return (await response.json()) as T;
}

/** A signed-in page that records script-execution evidence: dialogs and CSP violation reports. */
async function watchedPage(browser: Browser, email: string): Promise<{ page: Page; dialogs: string[] }> {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    window.dartCspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      // The app's own bundle probing for eval (zod 4 checks `new Function` once to pick its fast
      // path) is refused by script-src 'self' and is no injection; anything else counts.
      const ownEvalProbe = event.blockedURI === 'eval' && event.sourceFile.startsWith(`${location.origin}/assets/`);
      if (!ownEvalProbe)
        window.dartCspViolations?.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile} ${event.sample}`);
    });
  });
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await signIn(page, email);
  return { page, dialogs };
}

/** Nothing executed and nothing was injected as markup on this page. */
async function expectNoExecution(page: Page, dialogs: string[]): Promise<void> {
  // Give any event handlers (onerror of a broken image, onload of an svg) the time to fire.
  await page.waitForTimeout(500);
  expect(await page.evaluate((flag) => (window as unknown as Record<string, unknown>)[flag], XSS_FLAG)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(await page.evaluate(() => window.dartCspViolations ?? [])).toEqual([]);
  await expect(page.locator('img[src="x"], iframe[srcdoc], [onerror], [onload], [onmouseover]')).toHaveCount(0);
  await expect(page.locator('a[href^="javascript:" i]')).toHaveCount(0);
}

test.describe('XSS (RELIABILITY #26)', () => {
  test('chat text, edited text, file names, channel names and profile names render as text; nothing executes', async ({
    browser,
    playwright,
    baseURL,
  }) => {
    test.slow(); // a corpus of sends under the 5 messages/s limit, two browsers
    const arjunApi = await apiSession(await playwright.request.newContext({ baseURL: baseURL! }), DEMO.dealer);
    const nehaApi = await apiSession(await playwright.request.newContext({ baseURL: baseURL! }), DEMO.secondDealer);

    // Profile names: markup is refused at the API (the name pattern); a name with an apostrophe is stored.
    for (const payload of PAYLOADS) {
      const refused = await nehaApi.request.patch('/api/profile/', { headers: nehaApi.auth, data: { first_name: payload } });
      expect(refused.status(), `first_name ${payload}`).toBe(400);
    }
    const odd = "Kulkarni-D'Souza";
    await json(await nehaApi.request.patch('/api/profile/', { headers: nehaApi.auth, data: { last_name: odd } }), [200]);

    try {
      // Channel names: one group per payload name (Arjun creates, Neha accepts).
      const namePayloads = [PAYLOADS[0], PAYLOADS[2], PAYLOADS[6], PAYLOADS[7]];
      const channels: Array<{ url: string; name: string }> = [];
      for (const name of namePayloads) {
        const channel = await json<{ url: string; name: string }>(
          await arjunApi.request.post('/api/chat/channels/', {
            headers: arjunApi.auth,
            data: { customType: 'group', name, invitedUserIds: [nehaApi.userId] },
          }),
          [201],
        );
        expect(channel.name).toBe(name);
        await json(
          await nehaApi.request.post(`/api/chat/channels/${encodeURIComponent(channel.url)}/accept/`, { headers: nehaApi.auth }),
          [200],
        );
        channels.push(channel);
      }
      const target = channels[0]!;
      const messagesPath = `/api/chat/channels/${encodeURIComponent(target.url)}/messages/`;

      // Messages: the whole corpus, under the 5 messages/s limit.
      for (const [index, message] of PAYLOADS.entries()) {
        await json(
          await arjunApi.request.post(messagesPath, { headers: arjunApi.auth, data: { reqId: `xss-${Date.now()}-${index}`, message } }),
          [201],
        );
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      // An edit carries a payload too.
      const plain = await json<{ messageId: string }>(
        await arjunApi.request.post(messagesPath, {
          headers: arjunApi.auth,
          data: { reqId: `xss-edit-${Date.now()}`, message: 'to be edited' },
        }),
        [201],
      );
      const editedText = '<img src=x onerror=alert(document.domain)> (edited in)';
      await json(
        await arjunApi.request.patch(`${messagesPath}${encodeURIComponent(plain.messageId)}/`, {
          headers: arjunApi.auth,
          data: { message: editedText },
        }),
        [200],
      );

      // File names (the server replaces path separators and control characters: compare with what it stored).
      const fileNames: string[] = [];
      for (const [index, fileName] of [`${PAYLOADS[0]}.txt`, `${PAYLOADS[1]}.txt`, `${PAYLOADS[3]}.txt`].entries()) {
        const stored = await json<{ file: { name: string } }>(
          await arjunApi.request.post(`/api/chat/channels/${encodeURIComponent(target.url)}/files/`, {
            headers: { ...arjunApi.auth, 'content-type': 'text/plain' },
            params: { reqId: `xss-file-${Date.now()}-${index}`, fileName },
            data: Buffer.from(`payload file ${index}\n`),
          }),
          [201],
        );
        expect(stored.file.name).toContain('<');
        fileNames.push(stored.file.name);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }

      // Both sides in Chromium: the full chat page, then the workspace panel.
      for (const email of [DEMO.secondDealer, DEMO.dealer]) {
        const { page, dialogs } = await watchedPage(browser, email);
        const documentResponse = await page.goto('/chat');
        const csp = documentResponse?.headers()['content-security-policy'] ?? '';
        expect(csp).toMatch(/frame-ancestors 'none'/);
        expect(csp).toMatch(/script-src 'self'/);
        await expect(page.getByTestId('chat-status')).toHaveAttribute('data-connected', 'true');

        // Channel names in the list and as the conversation title.
        const titles = page.getByTestId('chat-channel-title');
        for (const name of namePayloads) await expect(titles.getByText(name, { exact: true })).toBeVisible();
        await titles.getByText(target.name, { exact: true }).click();
        await expect(page.getByTestId('chat-conversation-title')).toHaveText(target.name);

        await expect(page.getByTestId('chat-messages').getByTestId('chat-message').first()).toBeVisible();
        await expectNoExecution(page, dialogs);

        // Messages, the edited one, and file names: literal text.
        const texts = page.getByTestId('chat-messages').getByTestId('chat-message-text');
        for (const payload of PAYLOADS) await expect(texts.getByText(payload, { exact: true })).toBeVisible();
        await expect(texts.getByText(editedText, { exact: true })).toBeVisible();
        const files = page.getByTestId('chat-messages').getByTestId('chat-file');
        for (const name of fileNames) await expect(files.getByText(name, { exact: true })).toBeVisible();

        // Hover over everything that could carry a handler, open the members drawer (names), then check.
        await page.getByTestId('chat-messages').hover();
        await page.getByTestId('chat-members-button').click();
        const members = page.getByRole('dialog', { name: /^Members/ });
        await expect(members).toContainText(`Neha ${odd}`);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('button', { name: 'Account menu' })).toContainText(
          email === DEMO.secondDealer ? `Neha ${odd}` : 'Arjun Mehta',
        );
        await expectNoExecution(page, dialogs);

        // The workspace's compact chat panel renders the same data.
        await page.goto('/dart');
        const panel = page.getByTestId('workspace-chat');
        await expect(panel.getByTestId('chat-channel-title').getByText(PAYLOADS[2], { exact: true })).toBeVisible();
        await expectNoExecution(page, dialogs);
        await page.context().close();
      }
    } finally {
      await nehaApi.request.patch('/api/profile/', { headers: nehaApi.auth, data: { last_name: 'Kulkarni' } });
    }
  });

  test('every kind of response carries a CSP with frame-ancestors', async ({ request }) => {
    for (const path of ['/', '/chat', '/auth/login', '/api/health', '/api/session/']) {
      const response = await request.get(path);
      const csp = response.headers()['content-security-policy'];
      expect(csp, `CSP on ${path}`).toBeDefined();
      expect(csp, `frame-ancestors on ${path}`).toMatch(/frame-ancestors 'none'/);
    }
  });
});
