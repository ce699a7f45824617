/**
 * Masked session recording (issue 16 §3): with recording on, users type real values — a password (the sign-in
 * form, and an exchange password in the app), a clean price in the calculator and a bond search — and the stored
 * events, read back through the ops admin's API, hold none of them; the ops admin's replay page lists the session
 * and replays it.
 *
 * Recording is off in the shared e2e server (other specs must see nothing of it), so this spec starts its own
 * server with SESSION_RECORDING=on on a free port and an empty data directory, and stops it afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { request as playwrightRequest, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, DEMO_PASSWORD, signIn } from './helpers';

const HDFC_ISIN = 'INE040A08567';
const ROOT = path.resolve(import.meta.dirname, '..');

let server: ChildProcess | null = null;
let dataDir = '';
let baseURL = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'dart-e2e-recording-'));
  baseURL = `http://127.0.0.1:${port}`;
  // Its own embedded database and in-process bus: CI sets DATABASE_URL and REDIS_URL for the suite's server, whose
  // database, demo seed, elected jobs and live bus this server must not share.
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/index.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...inherited,
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO_SEED: '1',
      NODE_ENV: 'test',
      BOND_IMPORT: 'slice',
      CREDENTIAL_RATE_PER_MINUTE: '600',
      RATE_LIMIT_PER_MINUTE: '6000',
      EXCHANGE_SIM_PARTICIPANTS: '0',
      SESSION_RECORDING: 'on',
    },
  });
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(`${baseURL}/api/health`)).ok;
        } catch {
          return false;
        }
      },
      { timeout: 150_000, intervals: [500] },
    )
    .toBe(true);
});

test.afterAll(async () => {
  if (server?.pid) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    process.kill(server.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A signed-in page on the recording server whose recorder has started (its start call answered 201). */
async function recordedPage(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL })).newPage();
  const started = page.waitForResponse((r) => r.url().endsWith('/api/recording/sessions/') && r.request().method() === 'POST');
  await signIn(page, email);
  expect((await started).status()).toBe(201);
  return page;
}

async function opsApi(): Promise<APIRequestContext> {
  const anonymous = await playwrightRequest.newContext({ baseURL });
  const token = (await (await anonymous.post('/api/token/', { data: { email: DEMO.opsAdmin, password: DEMO_PASSWORD } })).json()) as {
    access: string;
  };
  await anonymous.dispose();
  return playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token.access}` } });
}

interface Summary {
  id: string;
  user_email: string;
  event_count: number;
}
interface StoredEvent {
  type: number;
  data: { source?: number; text?: string };
}

/** The stored events of `email`'s recordings, read through the ops API. */
async function storedEvents(api: APIRequestContext, email: string): Promise<StoredEvent[]> {
  const list = (await (await api.get('/api/recording/sessions/?page_size=100')).json()) as { results: Summary[] };
  const events: StoredEvent[] = [];
  for (const row of list.results.filter((r) => r.user_email === email)) {
    const detail = (await (await api.get(`/api/recording/sessions/${row.id}/`)).json()) as { events: StoredEvent[] };
    events.push(...detail.events);
  }
  return events;
}

/** rrweb: an incremental snapshot (3) from an input (source 5). */
const inputTexts = (events: StoredEvent[]) => events.filter((e) => e.type === 3 && e.data.source === 5).map((e) => e.data.text ?? '');

test('typed passwords, prices and searches never reach the stored recording, and the ops admin replays it', async ({
  browser,
  consoleGuard,
}) => {
  test.setTimeout(240_000);
  // rrweb's player rebuilds the page in an iframe sandboxed without `allow-scripts` (nothing recorded can run), and
  // Chromium reports each attempt the rebuilt document makes as a blocked script: the sandbox working, not a fault.
  consoleGuard.allow(
    /Blocked script execution in '[^']*' because the document's frame is sandboxed and the 'allow-scripts' permission is not set/,
  );
  const exchangePassword = `Rec-Secret-${Date.now().toString(36)}`;
  const price = '97.3183';
  const search = 'zqxwvu';

  // The dealer prices a bond and searches (the sign-in password is typed before the recorder starts).
  const dealer = await recordedPage(browser, DEMO.dealer);
  await dealer.goto(`/security/${HDFC_ISIN}`);
  await expect(dealer.getByTestId('consideration-total')).toHaveText(/^₹[\d,]+\.\d{2}$/);
  await dealer
    .locator('label')
    .filter({ hasText: /^Price$/ })
    .click();
  const priceBox = dealer.getByRole('textbox', { name: /^Clean price/ });
  await expect(priceBox).toHaveValue(/^\d+\.\d{4}$/);
  await priceBox.fill(price);
  await expect(dealer.getByTestId('pricing-info')).toHaveText(/^Yield \d+\.\d{4}%$/);
  const header = dealer.getByRole('banner').getByPlaceholder('Search for Bonds by Name, ISIN, Issuer...');
  await header.fill(search);
  await expect(dealer.getByText('No bonds found')).toBeVisible();

  // The ops admin types an exchange password (never saved).
  const ops = await recordedPage(browser, DEMO.opsAdmin);
  await ops.goto('/exchange-credentials');
  const nse = ops.getByRole('form', { name: 'NSE Clearing (NSCCL) credentials' });
  await nse.getByRole('textbox', { name: 'Password', exact: true }).fill(exchangePassword);
  await nse.getByRole('textbox', { name: 'Username' }).click();

  // Both recordings reach the server within a few flushes; the typing is there, masked.
  const api = await opsApi();
  await expect
    .poll(async () => inputTexts(await storedEvents(api, DEMO.dealer)), { timeout: 30_000, intervals: [1_000] })
    .toEqual(expect.arrayContaining(['*'.repeat(price.length), '*'.repeat(search.length)]));
  await expect
    .poll(async () => inputTexts(await storedEvents(api, DEMO.opsAdmin)), { timeout: 30_000, intervals: [1_000] })
    .toContain('••••');

  const stored = JSON.stringify([...(await storedEvents(api, DEMO.dealer)), ...(await storedEvents(api, DEMO.opsAdmin))]);
  expect(stored.length).toBeGreaterThan(1_000);
  for (const secret of [exchangePassword, price, search, DEMO_PASSWORD])
    expect(stored, `"${secret}" in the stored events`).not.toContain(secret);
  // Not even the password's length: it is stored as a fixed mark.
  expect(inputTexts(await storedEvents(api, DEMO.opsAdmin))).not.toContain('*'.repeat(exchangePassword.length));
  await api.dispose();

  // The ops admin's replay page lists the dealer's session and replays it.
  await ops.goto('/ops/sessions');
  await expect(ops.getByRole('heading', { name: 'Session recordings', level: 1 })).toBeVisible();
  const row = ops.getByRole('row').filter({ hasText: DEMO.dealer }).first();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Replay' }).click();
  const replay = ops.getByTestId('session-replay');
  await expect(replay.locator('iframe')).toBeAttached({ timeout: 20_000 });
  // The replayed page is the dealer's security page: its headings are there; the typed price is not.
  await expect(replay.frameLocator('iframe').getByRole('heading', { name: 'Price calculator' })).toBeAttached({ timeout: 20_000 });
  await expect(ops.getByRole('button', { name: /^(Pause|Play)$/ })).toBeEnabled();
  await ops.waitForTimeout(1_500);
  await replay.screenshot({ path: 'test-results/screenshots/session-replay.png' });
});
