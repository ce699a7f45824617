/**
 * The baseline: a bare Fastify GET route on loopback (the framework's own limit), answering what
 * bench/api/serve-bare.ts answers (the market-API and post-trade baseline), so the figures compare across benches.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ name: 'Demo Capital', user_info: { email: 'dealer@demo.dart', roles: ['clientdealer'] } }));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`READY ${(app.server.address() as { port: number }).port}\n`);
