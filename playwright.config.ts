/**
 * Browser end-to-end tests: Debian's Chromium (never a downloaded browser) against the real server,
 * started fresh on an empty data directory with the demo seed. The web app must be built first
 * (`npm run build`; `npm test` does it). Usage: node_modules/.bin/playwright test
 */
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${PORT}`;
// Computed once: the config is evaluated again in each worker, which must not pick another directory.
process.env.DART_E2E_DATA_DIR ??= path.join(os.tmpdir(), `dart-e2e-${Date.now()}`);

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Multi-browser specs (three signed-in docks) run past a minute when the two cores are busy with Chromium.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'test-results/playwright.json' }]],
  use: {
    baseURL,
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1366, height: 860 },
        launchOptions: {
          executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: {
    // The server's V8 flags as `npm start` gives them (package.json; apps/server/README.md "Runtime").
    command: 'node --max-semi-space-size=64 --initial-old-space-size=256 --expose-gc --import tsx apps/server/src/index.ts',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      DATA_DIR: process.env.DART_E2E_DATA_DIR,
      DEMO_SEED: '1',
      NODE_ENV: 'test',
      // Real bonds for the Find specs: ~800 rows (G-secs, T-bills, SDLs, HDFC bonds, a few of every type).
      BOND_IMPORT: 'slice',
      // Every browser in the suite shares 127.0.0.1, and each page load refreshes the session: the
      // per-IP limit on credential endpoints (30/min by default) would otherwise fail tests at random.
      CREDENTIAL_RATE_PER_MINUTE: '600',
      // Likewise the general limit (per user, else per IP): a handful of demo users serve every test, each
      // opening the docked /dart with all its panels, several times a minute.
      RATE_LIMIT_PER_MINUTE: '6000',
      // The simulated NSE/BSE RFQ participants answer an RFQ a Dart firm raises 1.5 s after its raise
      // (exchange-rfq.spec.ts); `answer`: they raise none of their own, so other specs' RFQ lists stay theirs.
      EXCHANGE_SIM_PARTICIPANTS: 'answer',
      EXCHANGE_SIM_ANSWER_MS: '1500',
      // Post-trade (post-trade.spec.ts): the reporter and settlement jobs run as in production (NODE_ENV=test turns
      // them off for the integration tests, which tick them by hand), and NSCCL / ICCL settle 3 s after the match.
      POST_TRADE_JOBS: 'on',
      EXCHANGE_SIM_SETTLE_MS: '3000',
      // Surveillance (surveillance-alerts.spec.ts): the scanner raises alerts as in production (NODE_ENV=test turns it off).
      SURVEILLANCE_SCAN: 'on',
    },
  },
});
