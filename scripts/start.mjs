#!/usr/bin/env node
/**
 * `npm start`: builds what changed, then runs the compiled server in this process.
 * - the web app (Vite) is rebuilt only when a hash of its inputs (apps/web, the @dart packages it imports,
 *   the lockfile, the shared tsconfig) differs from the one stamped in apps/web/dist/.build-hash;
 * - the server bundle (esbuild, scripts/build-server.mjs) likewise, stamped in apps/server/dist/.build-hash;
 * - the SBOM (scripts/sbom.mjs) when the lockfile or a package.json changed.
 * Each prints whether it was rebuilt or skipped. `npm run build` rebuilds all three regardless.
 * Usage: node scripts/start.mjs [--help]
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, root } from './build-lib.mjs';

if (process.argv.includes('--help')) {
  console.log('Usage: npm start\nRebuilds the web app, the server bundle and the SBOM when their inputs changed, then starts the server.');
  process.exit(0);
}

try {
  ensureBuilt('web');
  ensureBuilt('server');
  ensureBuilt('sbom');
} catch (error) {
  console.error(`Build failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
// Stack traces point at apps/server/src, not at the bundle.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(root, 'apps/server/dist/index.js')).href);
