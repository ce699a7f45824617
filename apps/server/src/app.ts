/**
 * The application as a Fastify plugin tree, in three tiers: external plugins (security headers,
 * cookies, rate limits, docs), app plugins (errors, access control), then the domain modules.
 * Tests build it with `buildApp` and call it with `inject`; server.ts only listens.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import { WS } from '@dart/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { openPglite, openPostgres, type Database } from './db/client';
import { migrate } from './db/migrate';
import { startAuditSealer } from './lib/audit';
import { createMemoryBus, createRedisBus, type EventBus } from './lib/bus';
import { createFileScanner, scanningFileStore } from './lib/file-scanner';
import { createFileStore } from './lib/file-store';
import { electLeader } from './lib/leader';
import { createQuotas } from './lib/quotas';
import { createRedisRateLimit } from './lib/rate-limit-store';
import { createSloMonitor } from './lib/slo';
import { handleWebSocketError, registerWsHeartbeat } from './plugins/ws-heartbeat';
import { createLogger, errorFields } from './lib/logger';
import { createOutboxMailer, createOutboxSmsSender } from './lib/notify';
import { registerAccessControl } from './plugins/access';
import { registerErrorHandling } from './plugins/errors';
import { documentAbsentBodies, registerInputGuard, validatorCompilerWithAbsentBodies } from './plugins/input-guard';
import { registerIdempotency } from './plugins/idempotency';
import { createPrincipalLoader } from './modules/auth/principal';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { createTokenSigner } from './modules/auth/tokens';
import { registerLiveGateway } from './modules/live/live.gateway';
import { registerChat } from './modules/chat';
import { prepareFinstruments, registerFindCalls, registerFinstrumentsRoutes } from './modules/finstruments';
import { createMarketService, registerMarketRoutes } from './modules/market';
import { registerTickets } from './modules/tickets';
import { registerCredentials } from './modules/credentials';
import { createExchangeService, createSimulatedParticipants, SimulatedExchange } from './modules/exchange';
import { registerOrders } from './modules/orders';
import { registerInventory, storeHeldOnStart, warmUpInventory } from './modules/inventory';
import { createAuditService, registerAuditRoutes } from './modules/audit';
import { registerSystemRoutes } from './modules/system/system.routes';
import { registerUsersRoutes } from './modules/users/users.routes';
import { registerTeam } from './modules/team';
import { registerWorkspace } from './modules/workspace';
import { registerSupport } from './modules/support';
import { registerNotifications } from './modules/notifications';
import { registerSurveillance } from './modules/surveillance';
import { registerRecording } from './modules/recording';
import { registerWhatsApp } from './modules/whatsapp';
import { createUsersService } from './modules/users/users.service';
import { seedDemoData } from './seed/demo';
import type { AppDeps } from './types';

export interface BuildOptions {
  config: Config;
  /** Injected in tests (e.g. an in-memory PGlite); otherwise opened from config. */
  database?: Database;
  bus?: EventBus;
  now?: () => Date;
  /** Where logs go (tests capture them to scan for secrets); stdout by default. */
  logStream?: import('pino').DestinationStream;
  /** Print demo sign-ins after seeding (npm start). */
  announceSeed?: boolean;
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const logger = createLogger(config.logLevel, options.logStream);
  const database =
    options.database ??
    (config.databaseUrl
      ? await openPostgres(config.databaseUrl, logger, config.dbQueryTimeoutMs, config.dbPoolSize)
      : await openPglite(path.join(config.dataDir, 'db')));
  const busChannel =
    config.busChannel ??
    `dart:events:${createHash('sha256')
      .update(config.databaseUrl ?? config.dataDir)
      .digest('hex')
      .slice(0, 16)}`;
  const bus = options.bus ?? (config.redisUrl ? await createRedisBus(config.redisUrl, logger, busChannel) : createMemoryBus());
  await migrate(database);
  if (config.demoSeed)
    await seedDemoData(database, {
      announce: options.announceSeed ?? false,
      productName: config.productName,
      credentialsKey: config.credentialsKey,
    });

  const app = Fastify({
    loggerInstance: logger,
    genReqId: () => randomUUID(),
    requestIdHeader: 'x-request-id',
    // Explicit limits (RELIABILITY #32): Fastify sets none by default.
    connectionTimeout: config.requestTimeoutMs + 5_000,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: 72_000,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: false,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // Prototype-pollution keys are refused here and, with duplicate JSON keys, by the strict JSON
    // body parser the input guard installs (plugins/input-guard.ts; RELIABILITY #21, #25).
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  }) as unknown as FastifyInstance;
  app.setValidatorCompiler(validatorCompilerWithAbsentBodies);
  app.setSerializerCompiler(serializerCompiler);

  const now = options.now ?? (() => new Date());
  const scanner = createFileScanner(config.clamdAddress);
  if (config.env === 'production' && scanner.engine === 'builtin')
    app.log.warn('uploads are checked against the EICAR test signature only: set CLAMD_ADDRESS to scan with ClamAV');
  const deps: AppDeps = {
    config,
    database,
    bus,
    mailer: createOutboxMailer(database.db),
    sms: createOutboxSmsSender(database.db),
    tokens: createTokenSigner(config.jwtSecret),
    principals: createPrincipalLoader(database, () => now().getTime()),
    quotas: createQuotas(config.dailyQuotas, now),
    slo: createSloMonitor({ ...config.slo, logger, now: () => now().getTime() }),
    // PostgreSQL: the file_blobs table, so every node serves every file; the embedded database: DATA_DIR/files.
    files: scanningFileStore(createFileStore(database, path.join(config.dataDir, 'files')), scanner, (signature) =>
      app.log.warn({ signature, engine: scanner.engine }, 'upload refused by the virus scan'),
    ),
    now,
  };
  app.decorate('deps', deps);
  // Every API response's duration feeds the latency SLO (sockets and static files are not API calls).
  app.addHook('onResponse', async (request, reply) => {
    if (!request.ws && request.url.startsWith('/api/')) deps.slo.record(reply.elapsedTime);
  });

  // Other nodes' sign-outs and role changes clear this node's principal cache at once.
  const unsubscribe = bus.subscribe((message) => {
    const payload = message.payload as { sessionId?: string; userId?: string };
    if (message.topic === 'auth.session_revoked' && payload.sessionId) deps.principals.forgetSession(payload.sessionId);
    if (message.topic === 'auth.user_changed' && payload.userId) deps.principals.forgetUser(payload.userId);
  });
  // Those messages have no replay: after a Redis reconnect the whole cache goes (sign-outs may be missed).
  const unsubscribeResync = bus.onResync(() => deps.principals.forgetAll());

  // Tier 1: external plugins.
  // Security headers: helmet's middleware, built once. (@fastify/helmet built it, parsing the CSP, on every request:
  // 1.6 % of the server's CPU in the post-trade pipeline.) The docs page's own CSP (below) replaces this one there.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.env === 'production',
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)));
  await app.register(cookie);
  // Counters in Redis when there is one, so every limit holds per cluster rather than per node.
  const sharedRateLimit = config.redisUrl ? await createRedisRateLimit(config.redisUrl, busChannel, logger) : null;
  // The web build's hashed files (immutable, cached a year) are not counted: one page load fetches dozens of them,
  // and everyone behind one office NAT shares an IP's budget before signing in. Everything else is.
  const builtAssets = listBuiltAssets(config.webDist);
  await app.register(rateLimit, {
    ...(sharedRateLimit ? { store: sharedRateLimit.store } : {}),
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: '1 minute',
    hook: 'preHandler',
    keyGenerator: (request) => request.principal?.userId ?? request.ip,
    allowList: (request) => (request.method === 'GET' || request.method === 'HEAD') && builtAssets.has(request.url.split('?')[0] ?? ''),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `Too many requests. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
    }),
  });
  await app.register(websocket, { options: { maxPayload: WS.maxPayloadBytes }, errorHandler: handleWebSocketError });
  // Pinged three times per timeout: one lost pong never drops a live client.
  registerWsHeartbeat(app, { intervalMs: Math.floor(config.wsIdleTimeoutMs / 3), idleTimeoutMs: config.wsIdleTimeoutMs });
  await app.register(swagger, {
    openapi: {
      info: { title: `${config.productName} API`, version: config.version, description: 'Generated from packages/contracts.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    ...documentAbsentBodies(jsonSchemaTransform),
  });
  // The docs page has its own CSP, set by the plugin on its routes only. The plugin's stock one
  // (staticCSP: true) allows no inline style, yet Swagger UI writes style attributes, so every
  // docs load logged violations: styles may be inline here; scripts stay 'self' only, never inline.
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: {
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'script-src-attr': ["'none'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:'],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
    },
  });

  // Tier 2: app plugins.
  registerErrorHandling(app);
  // Strict JSON bodies, and no NUL or lone surrogate in any parameter, query, body or header.
  registerInputGuard(app);
  const routeInventory = registerAccessControl(app);
  app.decorate('routeInventory', routeInventory);
  // Submit routes (`config.idempotent`) honour Idempotency-Key; a claim outlives the longest request.
  registerIdempotency(app, { leaseMs: config.requestTimeoutMs + 5_000, waitMs: 2_000, pollMs: 50 });

  // Tier 3: modules.
  const auth = createAuthService(deps);
  const users = createUsersService(deps, (tx, verification, identity, types) => auth.useVerification(tx, verification, identity, types));
  registerSystemRoutes(app);
  registerAuditRoutes(app, createAuditService(deps));
  registerAuthRoutes(app, auth, users);
  registerUsersRoutes(app, users);
  // Network and team (issue 15 §1): organisation profile, members' roles, offline counterparties, directories.
  registerTeam(app, { validateInvite: (code) => auth.validateInvite(code) });
  registerWorkspace(app);
  // The support desk (issue 15 §2): the spec's ext/ ticket calls on Dart's own desk.
  await registerSupport(app);
  const finstruments = await prepareFinstruments(deps, logger);
  registerFinstrumentsRoutes(app, finstruments);
  registerFindCalls(app, deps, finstruments);
  // The exchange RFQ venue: the SimulatedExchange (NSE / BSE RFQ simulator) until a real gateway plugs in.
  const venue = new SimulatedExchange(config.exchangeSim, database.db);
  const market = createMarketService(deps, finstruments, { exchange: venue });
  registerMarketRoutes(app, market);
  registerTickets(app, { finstruments, market });
  // Exchange credentials (NSCCL / ICCL logins, sealed): raising an exchange RFQ needs the exchange's (issue 14).
  registerCredentials(app);
  const exchange = createExchangeService(deps, market, venue);
  const participants = createSimulatedParticipants(deps, market);
  app.decorate('exchange', { venue, service: exchange, participants });
  // Orders of confirmed tickets: reported to the simulated NSE / BSE reporting platform, settled at NSCCL / ICCL.
  const orders = registerOrders(app, { gateway: venue, finstruments });
  // The firm's bond book (issue 14): uploads, external trades, valuation, offers into the market.
  const inventory = registerInventory(app, { market, orders });
  // Quote expiry is safe on every node (SKIP LOCKED); the exchange job and the simulated participants
  // run on one elected node (a PostgreSQL advisory lock; the embedded database is one node).
  const jobLeader = electLeader(database, 'dart:exchange-jobs', { logger });
  if (config.env !== 'test') {
    market.startJobs();
    exchange.startJobs(jobLeader.isLeader);
  }
  if (config.postTradeJobs) orders.startJobs(jobLeader.isLeader);
  // New reference prices re-value the holding firms' books and wake their pages (inventory README "Speed").
  if (config.env !== 'test') inventory.startRevaluationNotices(jobLeader.isLeader);
  // Before it listens (the tests' many apps skip both): what starting left behind collected and the valuing code
  // (bond-math, the book's read and sums, the answer) compiled hot, ~0.4 s of CPU (inventory README "Speed"); then
  // the held bonds' figures stored for its valuing code and today, so no first read prices the book.
  if (config.env !== 'test') {
    await warmUpInventory();
    await storeHeldOnStart(inventory.service, logger);
  }
  // The notification centre (issue 15 §3): its producer tails the events table on the elected node, tests included.
  const notifications = registerNotifications(app, jobLeader.isLeader);
  // Surveillance alerts (issue 16 §1): the scanner runs on the elected node; tests tick `app.surveillance.scanner.scanOnce()`.
  registerSurveillance(app, jobLeader.isLeader, config.surveillanceScan);
  // Masked session recording (issue 16 §3): off unless SESSION_RECORDING=on (its calls answer 404 then).
  await registerRecording(app);
  // The audit trail's seals (lib/audit.ts): on the elected node; tests seal when they verify.
  const stopAuditSealer =
    config.env !== 'test'
      ? startAuditSealer(database.db, jobLeader.isLeader, (error) => logger.warn(errorFields(error), 'audit seal failed'))
      : async () => undefined;
  if (config.exchangeSim.participants)
    participants.start(config.exchangeSim.intervalMs, jobLeader.isLeader, {
      raise: config.exchangeSim.participantsRaise,
      answerDelayMs: config.exchangeSim.answerDelayMs,
    });
  await registerLiveGateway(app, { namespace: busChannel, audiences: [notifications.liveAudience] });
  const chat = await registerChat(app, { namespace: busChannel });
  // The WhatsApp link (issue 16 §2): quote alerts and linked chat channels through the simulated WhatsApp endpoint.
  registerWhatsApp(app, { chat, isLeader: jobLeader.isLeader });

  // The SPA: hashed assets cached for a year, index.html never, history fallback for app routes.
  const indexHtml = path.join(config.webDist, 'index.html');
  const hasWeb = existsSync(indexHtml);
  if (hasWeb) {
    // serve: false — files go out only through the not-found handler below, so no route escapes the policy check.
    // cacheControl: false — the handler sets it (a year for hashed assets); the plugin's default max-age=0 overwrote it.
    await app.register(fastifyStatic, { root: config.webDist, serve: false, index: false, cacheControl: false });
  }
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsApi = pathname.startsWith('/api/') || pathname.startsWith('/ext/') || pathname.startsWith('/ws/');
    if (!wantsApi && (request.method === 'GET' || request.method === 'HEAD')) {
      if (hasWeb) {
        const asset = pathname.replace(/^\/+/, '');
        if (asset && !asset.includes('..') && existsSync(path.join(config.webDist, asset)) && !asset.endsWith('/'))
          return reply
            .header('cache-control', asset.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache')
            .sendFile(asset);
        return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
      }
      return reply.status(404).type('text/plain').send('The web app is not built. Run `npm run build`.');
    }
    return reply.status(404).send({ code: 'NOT_FOUND', message: `Not found: ${request.method} ${pathname}` });
  });

  app.addHook('onClose', async () => {
    finstruments.stop();
    participants.stop();
    await jobLeader.stop();
    await stopAuditSealer();
    await exchange.stop();
    await orders.stop();
    market.stop();
    unsubscribe();
    unsubscribeResync();
    await sharedRateLimit?.close();
    await bus.close();
    await database.close();
  });
  return app;
}

/** `/assets/<name>` of every file the web build wrote (content-hashed names), read once at start-up. */
function listBuiltAssets(webDist: string): Set<string> {
  try {
    return new Set(readdirSync(path.join(webDist, 'assets')).map((name) => `/assets/${name}`));
  } catch {
    return new Set();
  }
}
