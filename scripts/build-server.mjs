#!/usr/bin/env node
/**
 * Bundles the server (apps/server/src/index.ts and the workspace packages it imports) with esbuild into
 * apps/server/dist/index.js, so `npm start` runs compiled JavaScript instead of transpiling TypeScript
 * on load. Every npm package stays external and is loaded from node_modules as installed (PGlite finds
 * its wasm and data files beside its own code; pdfkit its fonts). Only `@dart/*` workspace packages,
 * whose entry points are TypeScript, are bundled in.
 * Usage: node scripts/build-server.mjs [--help]
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

if (process.argv.includes('--help')) {
  console.log(
    'Usage: node scripts/build-server.mjs\nBundles apps/server/src/index.ts into apps/server/dist/index.js (npm packages external).',
  );
  process.exit(0);
}

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'apps/server/dist');
rmSync(outdir, { recursive: true, force: true });

/** Bare imports (npm packages, node: built-ins) stay external; relative paths and `@dart/*` are bundled. */
const externalPackages = {
  name: 'external-npm-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@dart/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const result = await build({
  entryPoints: [path.join(root, 'apps/server/src/index.ts')],
  outfile: path.join(outdir, 'index.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  // Server code is small: readable output keeps production stack traces useful even without source maps.
  minify: false,
  plugins: [externalPackages],
  logLevel: 'warning',
  metafile: true,
});
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(
  `server bundle: ${Object.keys(result.metafile.inputs).length} modules → apps/server/dist/index.js (${Math.round(bytes / 1024)} KiB with its map)`,
);
