/**
 * A new user's first minutes, reproduced: clone the repository's HEAD into a temporary folder with nothing
 * beside it (no `../shared`), `npm ci` there, then `npm start` and wait until the Find page and the API
 * behind Find answer with real bonds. Used by the startup benchmark (index.ts) and by CI (check-clone.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
/** A G-sec every universe holds: the Find API must return it by ISIN. */
export const GSEC_ISIN = 'IN0020220151';
export const GSEC_NAME = '7.26% GS 2033';
/** The start-up import's progress lines say this (importer.ts, logImportProgress). */
export const IMPORT_PROGRESS = 'importing the bond universe (first start only)';

export interface Clone {
  /** The temporary folder; `repo` is its only entry. */
  folder: string;
  repo: string;
  commit: string;
  remove: () => void;
}

/** Clones the committed HEAD (not the working tree) into `<tmp>/dart-clone-*\/dart`. */
export function cloneHead(): Clone {
  const commit = git(REPO_ROOT, ['rev-parse', 'HEAD']).trim();
  const folder = mkdtempSync(path.join(tmpdir(), 'dart-clone-'));
  const repo = path.join(folder, 'dart');
  git(REPO_ROOT, ['clone', '--quiet', '--no-checkout', REPO_ROOT, repo]);
  git(repo, ['checkout', '--quiet', '--detach', commit]);
  const beside = readdirSync(folder);
  if (beside.length !== 1 || existsSync(path.join(folder, 'shared')))
    throw new Error(`the clone's folder holds more than the clone: ${beside.join(', ')}`);
  return { folder, repo, commit, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

function git(cwd: string, args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

export interface NpmCi {
  ms: number;
  /** `npm warn EBADENGINE` blocks printed (each package whose engines exclude this Node). */
  badEngine: string[];
}

/** `npm ci` in the clone, as the README says (from the registry or npm's cache, like any user's machine). */
export function npmCi(repo: string): NpmCi {
  const started = performance.now();
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: repo, encoding: 'utf8', env: cleanEnv({}) });
  const ms = performance.now() - started;
  const output = `${result.stdout}\n${result.stderr}`;
  if (result.status !== 0) throw new Error(`npm ci failed (exit ${result.status}):\n${output.slice(-4000)}`);
  const badEngine = [...output.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1]!);
  return { ms, badEngine };
}

/**
 * The environment a new user has: none of the CI or test settings that would change what `npm start`
 * does (database, Redis, data folders, NODE_ENV), nor npm's own variables from a parent `npm run`.
 */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const drop = new Set([
    'DATABASE_URL',
    'REDIS_URL',
    'BUS_CHANNEL',
    'NODE_ENV',
    'DATA_DIR',
    'BOND_DATA_DIR',
    'BOND_IMPORT',
    'DEMO_SEED',
    'PORT',
    'HOST',
    'WEB_DIST',
    'LOG_LEVEL',
    'INIT_CWD',
  ]);
  for (const [key, value] of Object.entries(process.env)) if (!drop.has(key) && !key.startsWith('npm_')) env[key] = value;
  return { ...env, ...extra };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface StartRun {
  /** Spawn → first 200 of `GET /find` with the app's HTML. */
  pageMs: number;
  /** Spawn → the Find API answering real bonds: the G-sec by ISIN (search) and G-secs in the Find grid. */
  apiMs: number;
  /** G-secs the Find grid counted. */
  gsecCount: number;
  /** Spawn → the first import progress line on the process's output (undefined when there was no import). */
  progressMs: number | undefined;
  /** Everything the process printed (stdout and stderr). */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Runs `command` in the clone (default `npm start`) on a free port and polls every 100 ms until the Find
 * page and the Find API both answer with real bonds, or the process exits, or `timeoutMs` passes.
 */
export async function timeStart(repo: string, command: string[] = ['npm', 'start'], timeoutMs = 240_000): Promise<StartRun> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  // Its own process group, so stopping it stops npm and the server under it.
  const child = spawn(command[0]!, command.slice(1), {
    cwd: repo,
    env: cleanEnv({ PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  let progressMs: number | undefined;
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (progressMs === undefined && output.includes(IMPORT_PROGRESS)) progressMs = performance.now() - started;
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) => child.once('exit', (code, signal) => ((exited = code ?? (signal ? -1 : null)), resolve())));
  const stop = async () => {
    if (exited !== undefined) return;
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, 15_000);
    await exit;
    clearTimeout(timer);
  };

  let pageMs: number | undefined;
  let apiMs: number | undefined;
  let gsecCount = 0;
  try {
    while (pageMs === undefined || apiMs === undefined) {
      if (exited !== undefined) throw new Error(`${command.join(' ')} exited (${exited}) before serving Find`);
      if (performance.now() - started > timeoutMs) throw new Error(`${command.join(' ')}: Find not served within ${timeoutMs / 1000} s`);
      if (pageMs === undefined && (await findPageServed(base))) pageMs = performance.now() - started;
      if (apiMs === undefined) {
        const count = await findApiAnswers(base);
        if (count > 0) {
          apiMs = performance.now() - started;
          gsecCount = count;
        }
      }
      if (pageMs === undefined || apiMs === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await stop();
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n--- output (last 4,000 characters) ---\n${output.slice(-4000)}`,
      { cause: error },
    );
  }
  return { pageMs, apiMs, gsecCount, progressMs, output: () => output, stop };
}

async function get(url: string, init: RequestInit = {}): Promise<Response | null> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(5000) });
  } catch {
    return null; // Not listening yet.
  }
}

/** `GET /find` is the SPA's HTML (the route the README's first page, Find, lives at). */
async function findPageServed(base: string): Promise<boolean> {
  const response = await get(`${base}/find`);
  if (!response || response.status !== 200) return false;
  const body = await response.text();
  return (
    (response.headers.get('content-type') ?? '').includes('text/html') &&
    body.includes('<div id="root">') &&
    /<script[^>]+src="\/assets\//.test(body)
  );
}

/**
 * The API behind Find answers real bonds: the search returns the G-sec by ISIN with its name and type,
 * and the Find grid counts G-secs. Returns the grid's G-sec count, or 0 while it does not answer.
 */
async function findApiAnswers(base: string): Promise<number> {
  const search = await get(`${base}/api/finstruments/search/?searchKey=${GSEC_ISIN}`);
  if (!search || search.status !== 200) return 0;
  const found = (
    (await search.json()) as { finstruments: Array<{ identifiers: { ISIN: string }; display_name: string; security_type: string }> }
  ).finstruments;
  if (!found.some((f) => f.identifiers.ISIN === GSEC_ISIN && f.display_name === GSEC_NAME && f.security_type === 'G-Sec')) return 0;
  const grid = await get(`${base}/api/finstruments/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ security_types: ['G-Sec'] }),
  });
  if (!grid || grid.status !== 200) return 0;
  const list = (await grid.json()) as { count: number; results: Array<{ security_type: string }> };
  return list.count >= 100 && list.results.length > 0 && list.results.every((r) => r.security_type === 'G-Sec') ? list.count : 0;
}

/** What `npm start` said it did with each build ("built in" or "build skipped"), by target label. */
export function buildActions(output: string): Record<string, 'built' | 'skipped'> {
  const actions: Record<string, 'built' | 'skipped'> = {};
  for (const match of output.matchAll(/^(web app|server bundle|SBOM) \([^)]*\): (?:built in|unchanged)/gm))
    actions[match[1]!] = match[0].includes('built in') ? 'built' : 'skipped';
  return actions;
}
