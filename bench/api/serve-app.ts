/** The real app (embedded PGlite or DATABASE_URL, seeded) on loopback, for the API benchmark. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { createPostgresDatabase } from '../../apps/server/test/helpers';

// On PostgreSQL the benchmark seeds a throwaway database of its own, dropped on exit.
const scratch = process.env.DATABASE_URL ? await createPostgresDatabase() : undefined;

const config = loadConfig({
  ...process.env,
  ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  NODE_ENV: 'test',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  DEMO_SEED: '1',
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dart-bench-')),
  RATE_LIMIT_PER_MINUTE: '100000000',
});
const app = await buildApp({ config });
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`READY ${(app.server.address() as { port: number }).port}\n`);

process.on('SIGTERM', () => {
  void app.close().then(async () => {
    await scratch?.drop();
    process.exit(0);
  });
});
