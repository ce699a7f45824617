#!/usr/bin/env node
/**
 * Dependency-boundary check (ARCHITECTURE "Dependencies point one way"): fails on a wrong import.
 *   apps/* → packages/*; packages/client → packages/contracts; packages/contracts → bond-math (types);
 *   packages/bond-math imports nothing of ours; apps never import each other; no relative import
 *   may leave its own workspace.
 * Usage: node scripts/check-boundaries.mjs [--help]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

if (process.argv.includes('--help')) {
  console.log('Checks that imports respect the workspace dependency rules of ARCHITECTURE.md. Exit 1 on a violation.');
  process.exit(0);
}

const root = path.resolve(import.meta.dirname, '..');
/** Which @dart/* packages each workspace may import. */
const ALLOWED = {
  'packages/bond-math': [],
  'packages/contracts': ['@dart/bond-math'],
  'packages/client': ['@dart/contracts', '@dart/bond-math'],
  'apps/server': ['@dart/contracts', '@dart/bond-math'],
  'apps/web': ['@dart/contracts', '@dart/client', '@dart/bond-math'],
  e2e: ['@dart/contracts', '@dart/client'],
  bench: ['@dart/contracts', '@dart/client', '@dart/bond-math'],
  scripts: ['@dart/contracts', '@dart/bond-math'],
};
/** Deep imports into another workspace's internals are never allowed, except the server entry points bench and scripts start. */
const DEEP_ALLOWED = { bench: ['apps/server/src/', 'apps/server/test/'], scripts: ['apps/server/src/'] };

function* files(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (/\.(ts|tsx|mjs|js)$/.test(name)) yield full;
  }
}

const importPattern = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
const violations = [];
for (const [workspace, allowed] of Object.entries(ALLOWED)) {
  const dir = path.join(root, workspace);
  try {
    statSync(dir);
  } catch {
    continue;
  }
  for (const file of files(dir)) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(importPattern)) {
      const spec = match[1] ?? match[2] ?? match[3];
      const where = `${path.relative(root, file)}: '${spec}'`;
      if (spec.startsWith('@dart/')) {
        const pkg = spec.split('/').slice(0, 2).join('/');
        if (!allowed.includes(pkg)) violations.push(`${where} (${workspace} may not import ${pkg})`);
        if (spec !== pkg) violations.push(`${where} (import the package root, not its internals)`);
      } else if (spec.startsWith('.')) {
        const target = path.relative(root, path.resolve(path.dirname(file), spec));
        const inside = target === workspace || target.startsWith(`${workspace}/`);
        const deepOk = (DEEP_ALLOWED[workspace] ?? []).some((prefix) => target.startsWith(prefix));
        if (!inside && !deepOk) violations.push(`${where} (relative import leaves ${workspace})`);
      }
    }
  }
}

if (violations.length) {
  console.error(`Boundary check failed (${violations.length}):\n${violations.map((v) => `  - ${v}`).join('\n')}`);
  process.exit(1);
}
console.log('Boundary check passed.');
