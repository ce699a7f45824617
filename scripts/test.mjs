#!/usr/bin/env node
/**
 * `npm test`: lint, format check, type-check, unit + integration (Vitest), then the browser
 * end-to-end tests (Playwright + Debian's Chromium). Integration suites also run on PostgreSQL and
 * Redis when DATABASE_URL / REDIS_URL are set. Without Chromium the e2e tests are reported loudly
 * as NOT RUN (never as passed); under CI that is a failure.
 * Usage: node scripts/test.mjs [--skip-e2e] [--only-e2e] [--help]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = new Set(process.argv.slice(2));
if (args.has('--help')) {
  console.log('Usage: npm test [-- --skip-e2e | --only-e2e]\nRuns lint, format check, type-check, Vitest and Playwright e2e.');
  process.exit(0);
}
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const reportDir = path.join(root, 'test-results');
mkdirSync(reportDir, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
// The names of failed tests, printed again at the very end so that a log's tail says what failed.
const failedTests = [];

function step(name, command, commandArgs, env = {}) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = result.status === 0;
  console.log(`=== ${name}: ${ok ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s) ===`);
  if (!ok) failures.push(name);
  return ok;
}

function findChromium() {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter(Boolean);
  return candidates.find((candidate) => existsSync(candidate));
}

if (process.env.CI && !(process.env.DATABASE_URL && process.env.REDIS_URL)) {
  console.error('CI must run the integration suites on PostgreSQL and Redis too: set DATABASE_URL and REDIS_URL (.ci/run does).');
  process.exit(1);
}

if (!args.has('--only-e2e')) {
  step('lint', 'npm', ['run', '--silent', 'lint']);
  step('format', bin('prettier'), ['--check', '--log-level', 'warn', '.']);
  step('typecheck', process.execPath, ['scripts/typecheck.mjs']);
  const vitestReport = path.join(reportDir, 'vitest.json');
  step('unit and integration (vitest)', bin('vitest'), [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestReport}`,
  ]);
  if (existsSync(vitestReport)) {
    const report = JSON.parse(readFileSync(vitestReport, 'utf8'));
    totals.passed += report.numPassedTests ?? 0;
    totals.failed += report.numFailedTests ?? 0;
    const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    totals.skipped += skipped;
    // Under CI every suite runs: a suite skipped because PostgreSQL or Redis was missing is a failure, not a pass.
    if (process.env.CI && skipped > 0) failures.push(`vitest (${skipped} tests skipped under CI)`);
    for (const file of report.testResults ?? []) {
      for (const test of file.assertionResults ?? []) {
        if (test.status !== 'failed') continue;
        const message = (test.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300);
        failedTests.push(`vitest ${path.relative(root, file.name)} › ${test.fullName}${message ? `\n      ${message}` : ''}`);
      }
      if ((file.assertionResults ?? []).length === 0 && file.status === 'failed') {
        failedTests.push(
          `vitest ${path.relative(root, file.name)} (the file failed to run)\n      ${(file.message ?? '').split('\n')[0].slice(0, 300)}`,
        );
      }
    }
  }
  console.log(
    `Integration drivers: PGlite${process.env.DATABASE_URL ? ' + PostgreSQL' : ' only (set DATABASE_URL to add PostgreSQL)'}; bus: memory${process.env.REDIS_URL ? ' + Redis' : ' only (set REDIS_URL to add Redis)'}.`,
  );
}

if (!args.has('--skip-e2e')) {
  const chromium = findChromium();
  const specs = existsSync(path.join(root, 'e2e')) ? readdirSync(path.join(root, 'e2e')).filter((f) => f.endsWith('.spec.ts')) : [];
  if (!chromium) {
    const banner = '!'.repeat(78);
    console.error(
      `\n${banner}\nEND-TO-END TESTS NOT RUN: no Chromium found (looked at $CHROME_PATH, /usr/bin/chromium).\nThese browser tests did not run and are NOT counted as passed:\n${specs.map((s) => `  - e2e/${s}`).join('\n')}\nGet Chromium:  sudo apt-get install -y chromium   (or set CHROME_PATH to a Chromium binary)\n${banner}\n`,
    );
    totals.skipped += specs.length;
    if (process.env.CI) failures.push('e2e (no Chromium under CI)');
  } else {
    step('build web', 'npm', ['run', '--silent', 'build']);
    const e2eReport = path.join(reportDir, 'playwright.json');
    step('end-to-end (playwright, chromium)', bin('playwright'), ['test'], {
      CHROME_PATH: chromium,
      PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport,
    });
    if (existsSync(e2eReport)) {
      const stats = JSON.parse(readFileSync(e2eReport, 'utf8')).stats ?? {};
      totals.passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
      totals.failed += stats.unexpected ?? 0;
      totals.skipped += stats.skipped ?? 0;
      collectPlaywrightFailures(JSON.parse(readFileSync(e2eReport, 'utf8')).suites ?? [], []);
    }
  }
}

function collectPlaywrightFailures(suites, titles) {
  for (const suite of suites) {
    const here = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message ?? '';
        failedTests.push(`e2e ${[...here, spec.title].join(' › ')}${error ? `\n      ${error.split('\n')[0].slice(0, 300)}` : ''}`);
      }
    }
    collectPlaywrightFailures(suite.suites ?? [], here);
  }
}

if (failedTests.length) console.log(`\nFailed tests:\n${failedTests.map((line) => `  - ${line}`).join('\n')}`);
console.log(`\n${failures.length ? `FAILED steps: ${failures.join(', ')}` : 'All steps passed.'}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length ? 1 : 0);
