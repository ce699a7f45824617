#!/usr/bin/env node
/** Type-checks every workspace with its own tsconfig (TypeScript 7, strict). Usage: node scripts/typecheck.mjs */
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const projects = ['packages/bond-math', 'packages/contracts', 'packages/client', 'apps/server', 'apps/web', '.'].filter((p) =>
  existsSync(path.join(root, p, 'tsconfig.json')),
);
let failed = false;
for (const project of projects) {
  const started = Date.now();
  const result = spawnSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', project], { cwd: root, stdio: 'inherit' });
  console.log(`typecheck ${project}: ${result.status === 0 ? 'ok' : 'FAILED'} (${Date.now() - started} ms)`);
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
