/** Server entry: load config, build the app, listen, shut down gracefully on SIGTERM/SIGINT. */
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await buildApp({ config, announceSeed: true });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // A dropped database or Redis connection must not kill the process (RELIABILITY #42).
  process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled rejection'));
  await app.listen({ port: config.port, host: config.host });
  process.stdout.write(
    `${config.productName} is running at http://localhost:${(app.server.address() as { port: number }).port} (database: ${app.deps.database.driver}, bus: ${app.deps.bus.kind})\n`,
  );
}

void main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
