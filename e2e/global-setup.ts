import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Data directories of earlier runs older than this are removed (a concurrent run keeps its own). */
const STALE_AFTER_MS = 60 * 60 * 1000;

export default function globalSetup(): void {
  // The server serves apps/web/dist; without a build every page would be the "not built" notice.
  // WEB_DIST (the server's own setting) points a run at another build directory.
  const index = path.join(process.env.WEB_DIST ?? path.resolve(import.meta.dirname, '..', 'apps/web/dist'), 'index.html');
  if (!existsSync(index)) throw new Error(`The web app is not built (${index} missing). Run \`npm run build\` first.`);

  const current = process.env.DART_E2E_DATA_DIR;
  for (const name of readdirSync(os.tmpdir())) {
    if (!name.startsWith('dart-e2e-')) continue;
    const dir = path.join(os.tmpdir(), name);
    if (dir === current) continue;
    try {
      if (Date.now() - statSync(dir).mtimeMs > STALE_AFTER_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Another run removed it first.
    }
  }
}
