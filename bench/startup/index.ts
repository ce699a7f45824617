/**
 * Start-up benchmark (issue 11): what a new user waits for. Clones HEAD into a temporary folder with no
 * `../shared` beside it, times `npm ci` there, then times `npm start` from spawn to the first 200 of
 * `GET /find` and to the Find API answering real bonds (the G-sec by ISIN, G-secs in the grid): the first
 * start (web build, server bundle, SBOM, demo seed and the full bond import on the embedded PGlite), and a
 * second start with nothing changed (builds skipped, data already there).
 * Targets: first start ≤ 60 s, second ≤ 10 s. Baseline, measured side by side on the same clone and data:
 * the former `npm start` (`npm run build && node --import tsx apps/server/src/index.ts`: every build redone,
 * TypeScript transpiled on load). The former command's first start has no baseline: without `../shared`
 * it failed (ENOENT on bond_universe.csv).
 * Usage: npm run bench -- startup   (or node --import tsx bench/startup/index.ts)
 */
import type { BenchResult } from '../types';
import { buildActions, cloneHead, IMPORT_PROGRESS, npmCi, timeStart } from './clone-start';

const FIRST_TARGET_S = 60;
const SECOND_TARGET_S = 10;
const s = (ms: number) => Math.round(ms / 100) / 10;

export async function run(): Promise<BenchResult[]> {
  const clone = cloneHead();
  try {
    console.error(`bench/startup: ${clone.commit.slice(0, 12)} cloned into ${clone.repo}; npm ci ...`);
    const ci = npmCi(clone.repo);

    console.error('bench/startup: first npm start (builds, seed, bond import) ...');
    const first = await timeStart(clone.repo);
    await first.stop();
    const progress = first.output().split(IMPORT_PROGRESS).length - 1;

    console.error('bench/startup: second npm start (nothing changed) ...');
    const second = await timeStart(clone.repo);
    await second.stop();
    const actions = buildActions(second.output());

    console.error('bench/startup: baseline, the former npm start (rebuild everything, tsx) on the same data ...');
    const baseline = await timeStart(clone.repo, ['sh', '-c', 'node scripts/build.mjs && node --import tsx apps/server/src/index.ts']);
    await baseline.stop();

    const skipped = Object.entries(actions)
      .map(([target, action]) => `${target} ${action}`)
      .join(', ');
    return [
      {
        name: 'startup: npm ci in a fresh clone',
        value: s(ci.ms),
        unit: 's',
        note: ci.badEngine.length ? `EBADENGINE: ${ci.badEngine.join(', ')}` : 'no EBADENGINE warning',
      },
      {
        name: 'startup: first npm start → /find 200',
        value: s(first.pageMs),
        unit: 's',
        target: FIRST_TARGET_S,
        note: `web + server build, seed, full import (${progress} progress lines, the first at ${s(first.progressMs ?? NaN)} s)`,
      },
      {
        name: 'startup: first npm start → Find API real bonds',
        value: s(first.apiMs),
        unit: 's',
        target: FIRST_TARGET_S,
        note: `G-sec by ISIN; ${first.gsecCount} G-secs in the grid`,
      },
      {
        name: 'startup: second npm start → /find 200',
        value: s(second.pageMs),
        unit: 's',
        target: SECOND_TARGET_S,
        baseline: s(baseline.pageMs),
        note: skipped,
      },
      {
        name: 'startup: second npm start → Find API real bonds',
        value: s(second.apiMs),
        unit: 's',
        target: SECOND_TARGET_S,
        baseline: s(baseline.apiMs),
        note: 'baseline: rebuild everything + tsx',
      },
    ];
  } finally {
    clone.remove();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('../types');
  printTable(await run());
}
