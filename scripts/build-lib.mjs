/**
 * Build steps shared by `npm start` (scripts/start.mjs) and `npm run build` (scripts/build.mjs): the web
 * app (Vite), the server bundle (esbuild) and the SBOM, each stamped with a hash of its inputs so an
 * unchanged one is skipped.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
const SKIP_DIRS = new Set(['node_modules', 'dist', '.vite', 'coverage']);

function walk(dir, out) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) walk(full, out);
    } else if (entry.isFile()) out.push(full);
  }
  return out;
}

/** The workspace packages (`@dart/*`) a workspace depends on, transitively, as folders. */
function dartPackages(workspaceDir, seen = new Set()) {
  const manifest = JSON.parse(readFileSync(path.join(workspaceDir, 'package.json'), 'utf8'));
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
    if (!name.startsWith('@dart/')) continue;
    const dir = path.join(root, 'packages', name.slice('@dart/'.length));
    if (!seen.has(dir) && existsSync(dir)) {
      seen.add(dir);
      dartPackages(dir, seen);
    }
  }
  return seen;
}

/** sha256 over the relative path and bytes of every input file (tests excluded: they do not ship). */
function hashInputs(paths) {
  const hash = createHash('sha256');
  const files = paths.flatMap((p) => (existsSync(p) && statSync(p).isDirectory() ? walk(p, []) : [p]));
  for (const file of files) {
    if (/\.test\.[jt]sx?$/.test(file) || !existsSync(file)) continue;
    hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

const stampOf = (file) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : null);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** One build target: its inputs, where its stamp lives, the file it must have produced, and how to build it. */
export const targets = {
  web: {
    label: 'web app (apps/web/dist)',
    stamp: path.join(root, 'apps/web/dist/.build-hash'),
    output: path.join(root, 'apps/web/dist/index.html'),
    inputs: () => [
      path.join(root, 'apps/web'),
      ...dartPackages(path.join(root, 'apps/web')),
      path.join(root, 'package-lock.json'),
      path.join(root, 'tsconfig.base.json'),
    ],
    build: () => {
      const vite = path.join(
        path.dirname(createRequire(path.join(root, 'apps/web/package.json')).resolve('vite/package.json')),
        'bin/vite.js',
      );
      run(process.execPath, [vite, 'build', '--logLevel', 'warn'], path.join(root, 'apps/web'));
    },
  },
  server: {
    label: 'server bundle (apps/server/dist)',
    stamp: path.join(root, 'apps/server/dist/.build-hash'),
    output: path.join(root, 'apps/server/dist/index.js'),
    inputs: () => [
      path.join(root, 'apps/server/src'),
      path.join(root, 'apps/server/package.json'),
      ...dartPackages(path.join(root, 'apps/server')),
      path.join(root, 'package-lock.json'),
      path.join(root, 'scripts/build-server.mjs'),
    ],
    build: () => run(process.execPath, [path.join(root, 'scripts/build-server.mjs')], root),
  },
  sbom: {
    label: 'SBOM (dist/sbom.cdx.json)',
    stamp: path.join(root, 'dist/.sbom-hash'),
    output: path.join(root, 'dist/sbom.cdx.json'),
    inputs: () => [
      path.join(root, 'package-lock.json'),
      path.join(root, 'package.json'),
      ...['apps', 'packages'].flatMap((d) => readdirSync(path.join(root, d)).map((name) => path.join(root, d, name, 'package.json'))),
      path.join(root, 'scripts/sbom.mjs'),
    ],
    build: () => run(process.execPath, [path.join(root, 'scripts/sbom.mjs')], root),
  },
};

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${path.basename(args[0] ?? command)} failed (exit ${result.status ?? result.signal})`);
}

/**
 * Builds `name` unless its stamp matches the hash of its inputs and its output is there (or `force`);
 * prints what it did. The stamp is written only after a successful build, so a failed or interrupted one
 * is redone.
 */
export function ensureBuilt(name, { force = false } = {}) {
  const target = targets[name];
  const started = Date.now();
  const hash = hashInputs(target.inputs());
  if (!force && stampOf(target.stamp) === hash && existsSync(target.output)) {
    console.log(`${target.label}: unchanged (inputs ${hash}), build skipped [${seconds(Date.now() - started)}]`);
    return false;
  }
  const stamped = stampOf(target.stamp);
  const reason = force
    ? 'building'
    : !stamped
      ? 'no build yet, building'
      : stamped === hash
        ? 'output missing, rebuilding'
        : 'inputs changed, rebuilding';
  console.log(`${target.label}: ${reason} ...`);
  target.build();
  mkdirSync(path.dirname(target.stamp), { recursive: true });
  writeFileSync(target.stamp, `${hash}\n`);
  console.log(`${target.label}: built in ${seconds(Date.now() - started)} (inputs ${hash})`);
  return true;
}
