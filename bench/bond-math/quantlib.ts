/**
 * Runs QuantLib's side of the benchmark (quantlib-bench.py) on the same bond sets, when a
 * Python with the QuantLib bindings is installed (Debian: `apt-get install -y quantlib-python`;
 * Debian's bindings live under /usr/bin/python3, which a pyenv `python3` on PATH does not see).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BondSets } from './bond-sets';
import { toQuantLibJson } from './bond-sets';

/** QuantLib's figures for one set. */
export interface QuantLibSetResult {
  /** Clean prices per 100 at each bond's yield, in set order (the bonds QuantLib was given). */
  readonly cleanPrices: readonly number[];
  /** Yield solves per second. */
  readonly solve: number;
  /** Prices from yield per second (not for the XIRR set). */
  readonly price?: number;
  /** Build + price per second (not for the XIRR set). */
  readonly buildAndPrice?: number;
}

/** QuantLib's figures for the three sets. */
export interface QuantLibResult {
  readonly version: string;
  readonly python: string;
  readonly mixed: QuantLibSetResult;
  readonly gsec: QuantLibSetResult;
  readonly xirr: QuantLibSetResult;
}

const PYTHON_CANDIDATES = ['python3', '/usr/bin/python3'];

/** The first Python that imports QuantLib, or null. */
export function findQuantLibPython(): string | null {
  for (const python of PYTHON_CANDIDATES) {
    const probe = spawnSync(python, ['-c', 'import QuantLib'], { stdio: 'ignore' });
    if (probe.status === 0) return python;
  }
  return null;
}

/**
 * Times the first `count` bonds of each set in QuantLib (its Python calls are slow enough that
 * all of them would take minutes). Returns null when no Python imports QuantLib.
 * @throws Error when QuantLib is installed but the script fails.
 */
export function runQuantLib(sets: BondSets, count: number): QuantLibResult | null {
  const python = findQuantLibPython();
  if (python === null) return null;
  const folder = mkdtempSync(path.join(tmpdir(), 'bond-math-bench-'));
  try {
    const file = path.join(folder, 'bond-sets.json');
    writeFileSync(file, toQuantLibJson(sets, count));
    const run = spawnSync(python, [path.join(import.meta.dirname, 'quantlib-bench.py'), file], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (run.status !== 0) throw new Error(`quantlib-bench.py failed: ${run.stderr.trim()}`);
    return { ...(JSON.parse(run.stdout) as Omit<QuantLibResult, 'python'>), python };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
