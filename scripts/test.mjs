#!/usr/bin/env node
/**
 * `npm test`: lint, format check, type-check, unit + integration (Vitest), then the browser
 * end-to-end tests (Playwright + Debian's Chromium). Integration suites also run on PostgreSQL and
 * Redis when DATABASE_URL / REDIS_URL are set. Without Chromium the e2e tests are reported loudly
 * as NOT RUN (never as passed); under CI that is a failure.
 * Usage: node scripts/test.mjs [--skip-e2e] [--only-e2e] [--help]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
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
// What happened that did not fail the run but must not pass unseen (a step run again), printed at the end.
const notes = [];

/** A step's closing line: its name, whether it passed and how long it took. */
const stepEnd = (name, started, ok) =>
  console.log(`=== ${name}: ${ok ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s) ===`);

function step(name, command, commandArgs, env = {}) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = result.status === 0;
  stepEnd(name, started, ok);
  if (!ok) failures.push(name);
  return ok;
}

/**
 * Runs a command like `step` (the caller records a failure), passing its output through while keeping it, so that
 * what failed outside any test (a suite's hook, an unhandled error: Vitest then exits 1 with every test passed) can
 * be printed again at the end.
 */
async function keptStep(name, command, commandArgs) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  const chunks = [];
  const child = spawn(command, commandArgs, { cwd: root, stdio: ['inherit', 'pipe', 'pipe'], env: process.env });
  const keep = (sink) => (chunk) => {
    sink.write(chunk);
    chunks.push(chunk);
  };
  child.stdout.on('data', keep(process.stdout));
  child.stderr.on('data', keep(process.stderr));
  const status = await new Promise((resolve) => child.on('close', (code) => resolve(code)));
  const ok = status === 0;
  stepEnd(name, started, ok);
  return { ok, output: Buffer.concat(chunks).toString('utf8') };
}

/** Vitest's sections about failures that are not a test's own (failed suites, unhandled errors), cut short. */
function vitestErrorSections(output) {
  // eslint-disable-next-line no-control-regex
  const lines = output.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  const sections = [];
  let current = null;
  for (const line of lines) {
    const header = /^⎯{2,} (.+?) ⎯{2,}$/.exec(line.trim());
    if (header || /^\s*Test Files\s/.test(line)) {
      if (current) sections.push(current.join('\n').slice(0, 4000));
      current = header && /^(Failed Suites|Unhandled)/.test(header[1]) ? [line.trim()] : null;
    } else if (current) current.push(line);
  }
  if (current) sections.push(current.join('\n').slice(0, 4000));
  return sections;
}

/** An error section naming only Vitest's worker pool (its forks' start, answers or exit), not the project's code. */
function isVitestPoolError(section) {
  return /\[vitest-(pool|worker|pool-runner)\]|Worker exited unexpectedly|Timeout terminating forks worker/.test(section);
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
  const vitestStep = 'unit and integration (vitest)';
  const vitestArgs = ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`];
  const readVitestReport = () => (existsSync(vitestReport) ? JSON.parse(readFileSync(vitestReport, 'utf8')) : undefined);
  // An earlier run's report must not stand for this one's.
  rmSync(vitestReport, { force: true });
  let vitest = await keptStep(vitestStep, bin('vitest'), vitestArgs);
  let sections = vitest.ok ? [] : vitestErrorSections(vitest.output);
  // Vitest's own pool failing (a fork that did not answer or exit in time on a loaded machine) while every test and
  // hook passed: the whole run once more, said loudly here and at the end. An error of the project's code outside a
  // test, such as an unhandled rejection or a failed hook, is never retried.
  if (!vitest.ok && readVitestReport()?.success === true && sections.length > 0 && sections.every(isVitestPoolError)) {
    const note = `vitest exited non-zero with every test passed, on its pool's error only; run again once:\n${sections.join('\n')}`;
    console.log(`\n${note}`);
    notes.push(note);
    rmSync(vitestReport, { force: true });
    vitest = await keptStep(`${vitestStep}, again`, bin('vitest'), vitestArgs);
    sections = vitest.ok ? [] : vitestErrorSections(vitest.output);
  }
  if (!vitest.ok) failures.push(vitestStep);
  for (const section of sections) failedTests.push(`vitest, outside a test:\n${section}`);
  const report = readVitestReport();
  if (report) {
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
      const testFailed = (file.assertionResults ?? []).some((test) => test.status === 'failed');
      if (file.status === 'failed' && !testFailed) {
        failedTests.push(
          `vitest ${path.relative(root, file.name)} (the file or one of its hooks failed)\n      ${(file.message ?? '').split('\n')[0].slice(0, 300)}`,
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

if (notes.length) console.log(`\nNotes:\n${notes.map((line) => `  - ${line}`).join('\n')}`);
if (failedTests.length) console.log(`\nFailed tests:\n${failedTests.map((line) => `  - ${line}`).join('\n')}`);
console.log(`\n${failures.length ? `FAILED steps: ${failures.join(', ')}` : 'All steps passed.'}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length ? 1 : 0);
