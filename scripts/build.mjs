#!/usr/bin/env node
/**
 * `npm run build`: builds everything whatever the stamps say: the web app (Vite, apps/web/dist), the
 * server bundle (esbuild, apps/server/dist) and the SBOM (dist/sbom.cdx.json), and stamps each with the
 * hash of its inputs so the next `npm start` skips them.
 * Usage: node scripts/build.mjs [--help]
 */
import { ensureBuilt } from './build-lib.mjs';

if (process.argv.includes('--help')) {
  console.log('Usage: npm run build\nBuilds the web app, the server bundle and the SBOM.');
  process.exit(0);
}
try {
  for (const target of ['web', 'server', 'sbom']) ensureBuilt(target, { force: true });
} catch (error) {
  console.error(`Build failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
