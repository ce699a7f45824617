/**
 * The baseline: bare Fastify routes on loopback (the framework's own limit). `GET /bare` answers what
 * bench/api/serve-bare.ts answers (the market-API baseline); `PATCH /bare/:id` stands for a ticket call (a JSON
 * body in, the next version out) so the post-trade pipeline's three calls per deal can be replayed against it.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ name: 'Demo Capital', user_info: { email: 'dealer@demo.dart', roles: ['clientdealer'] } }));
app.patch<{ Params: { id: string }; Body: { version?: number } }>('/bare/:id', async (request) => ({
  id: request.params.id,
  version: (request.body?.version ?? 0) + 1,
  state: 'priced',
}));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`READY ${(app.server.address() as { port: number }).port}\n`);
