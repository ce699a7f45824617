/** Configuration: parsed once from the environment, failing fast with a readable list. */
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DAILY_QUOTAS, RECORDING_RETENTION_DAYS_DEFAULT, type QuotaKey } from '@dart/contracts';
import { z } from 'zod';

/**
 * The repository root: the nearest folder above this file whose package.json is the workspace root
 * (`"name": "dart"`). Found by walking up so it holds from `src/config.ts` (tests, tsx) and from the
 * bundle in `apps/server/dist/` (`npm start`) alike.
 */
export function findRepoRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'dart') return dir;
    if (path.dirname(dir) === dir) throw new Error(`No Dart repository (package.json named "dart") above ${from}`);
  }
}
const repoRoot = findRepoRoot();

/**
 * A node's PostgreSQL connections (`DB_POOL_SIZE`; apps/server/README.md "Runtime"). Few, on purpose: a backend
 * per request in flight made PostgreSQL spend more CPU on each statement, not less. In the post-trade pipeline
 * (32 deals in flight, 2 cores, 2026-11-30), alternating: PostgreSQL's CPU a deal 8.4-9.8 ms with 10 connections,
 * 7.0-7.5 with 4, 6.6 with 3, 6.1 with 2 (with 2 the deals/s fell: the node waited for connections); the
 * inventory bench's page under 10 clients was no slower with 4. PostgreSQL's own rule of thumb is twice its cores,
 * plus its disks: a floor whose database has more cores sets more.
 */
export const DEFAULT_DB_POOL_SIZE = 4;

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().optional(),
  DATA_DIR: z.string().default(path.join(repoRoot, 'data')),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  BUS_CHANNEL: z.string().min(1).max(200).optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  CREDENTIALS_KEY: z
    .string()
    .refine((value) => parseCredentialsKey(value) !== null, 'must be 32 bytes as 64 hex digits or 43-44 base64 characters')
    .optional(),
  PRODUCT_NAME: z.string().min(1).default('Dart'),
  SUPPORT_TICKET_IDS: z.string().default('3/1/4/2'),
  DEMO_SEED: z.enum(['0', '1']).optional(),
  DEV_OUTBOX: z.enum(['0', '1']).optional(),
  WEB_DIST: z.string().default(path.join(repoRoot, 'apps/web/dist')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  COOKIE_SECURE: z.enum(['0', '1']).optional(),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  DB_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  DB_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(DEFAULT_DB_POOL_SIZE),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  CREDENTIAL_RATE_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  APP_VERSION: z.string().optional(),
  BUILD_ID: z.string().optional(),
  BOND_IMPORT: z.enum(['off', 'slice', 'full']).optional(),
  BOND_DATA_DIR: z.string().default(path.join(repoRoot, 'reference-data')),
  EXCHANGE_SIM_PARTICIPANTS: z.enum(['0', '1', 'answer']).optional(),
  EXCHANGE_SIM_ANSWER_MS: z.coerce.number().int().min(0).max(600_000).default(1_500),
  EXCHANGE_SIM_LATENCY_MS: z.coerce.number().int().min(0).max(30_000).optional(),
  EXCHANGE_SIM_FAILURE_RATE: z.coerce.number().min(0).max(1).default(0),
  EXCHANGE_SIM_SETTLE_MS: z.coerce.number().int().min(0).default(60_000),
  EXCHANGE_SIM_INTERVAL_MS: z.coerce.number().int().min(1000).default(30_000),
  CLAMD_ADDRESS: z.string().min(1).optional(),
  DAILY_QUOTAS: z
    .string()
    .regex(
      /^(?:(?:quote\.create|rfq\.raise|quote\.update|chat\.broadcast)\.(?:user|client)=\d{1,9})(?:,(?:quote\.create|rfq\.raise|quote\.update|chat\.broadcast)\.(?:user|client)=\d{1,9})*$/,
      'must be a comma-separated list of action.scope=number, e.g. quote.create.user=5000',
    )
    .optional(),
  SLO_P99_MS: z.coerce.number().int().min(1).default(500),
  SLO_BREACH_MINUTES: z.coerce.number().int().min(1).max(60).default(5),
  SLO_MIN_SAMPLES: z.coerce.number().int().min(1).default(20),
  WS_IDLE_TIMEOUT_MS: z.coerce.number().int().min(300).max(600_000).default(45_000),
  TRADING_HOURS: z.enum(['enforce', 'off'], { error: 'must be enforce or off' }).optional(),
  POST_TRADE_JOBS: z.enum(['on', 'off'], { error: 'must be on or off' }).optional(),
  SURVEILLANCE_SCAN: z.enum(['on', 'off'], { error: 'must be on or off' }).optional(),
  SESSION_RECORDING: z.enum(['on', 'off'], { error: 'must be on or off' }).default('off'),
  SESSION_RECORDING_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(RECORDING_RETENTION_DAYS_DEFAULT),
});

export interface Config {
  env: 'development' | 'test' | 'production';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** ClamAV daemon for upload scanning (unix socket path or host:port); unset → the built-in EICAR-only check. */
  clamdAddress: string | undefined;
  /** Daily business quotas: the defaults of packages/contracts, with DAILY_QUOTAS's overrides. */
  dailyQuotas: Partial<Record<QuotaKey, number>>;
  /** API latency objective (p99 per minute, ms) and the run of bad minutes that raises the alert. */
  slo: { p99Ms: number; breachMinutes: number; minSamples: number };
  /** A WebSocket silent this long (no frame, no pong to the server's pings) is terminated. */
  wsIdleTimeoutMs: number;
  /** Redis pub/sub channel shared by the nodes of one deployment (default: derived from the database identity). */
  busChannel: string | undefined;
  jwtSecret: string;
  /**
   * The key-encryption key of exchange credentials (32 bytes, AES-256): it wraps each record's data key
   * (modules/credentials). Required in production; in development generated into DATA_DIR.
   */
  credentialsKey: Buffer;
  productName: string;
  supportTicketIds: string;
  demoSeed: boolean;
  webDist: string;
  logLevel: string;
  cookieSecure: boolean;
  requestTimeoutMs: number;
  bodyLimitBytes: number;
  dbQueryTimeoutMs: number;
  /** PostgreSQL connections of the node (`DB_POOL_SIZE`, default `DEFAULT_DB_POOL_SIZE`). */
  dbPoolSize: number;
  rateLimitPerMinute: number;
  /** Per-IP limit on credential endpoints (sign-in, OTP, registration, reset). */
  credentialRatePerMinute: number;
  /** GET /api/dev/outbox: outside production only (DEV_OUTBOX=0 turns it off; DEV_OUTBOX=1 in production is refused). */
  devOutboxEnabled: boolean;
  version: string;
  buildId: string;
  /**
   * Bond universe import at start, only when the finstruments table is empty: `full` (default on the
   * embedded database outside tests), `slice` (a few hundred rows, for tests) or `off`.
   */
  bondImport: 'off' | 'slice' | 'full';
  /** Folder holding `bonds/` and `trades/` (default: the repository's `reference-data/`). */
  bondDataDir: string;
  /**
   * The SimulatedExchange (NSE / BSE RFQ simulator): simulated participants raising and answering RFQs
   * (default on in development only), venue latency, injected failure rate, time to settlement, and
   * how often participants act.
   */
  exchangeSim: {
    participants: boolean;
    /** `EXCHANGE_SIM_PARTICIPANTS=answer`: participants only answer Dart firms' RFQs, they raise none (e2e). */
    participantsRaise: boolean;
    /** A Dart firm's new RFQ is answered this long after its raise (`EXCHANGE_SIM_ANSWER_MS`; 0 = on the tick only). */
    answerDelayMs: number;
    latencyMs: number;
    failureRate: number;
    settleMs: number;
    intervalMs: number;
  };
  /**
   * Trading hours (Mon–Fri NSE business days, 09:00–17:00 IST): `enforce` refuses quoting, responding,
   * negotiating and accepting outside them; default `enforce` in production, `off` in development and tests.
   */
  tradingHours: 'enforce' | 'off';
  /**
   * The post-trade reporter and settlement jobs (on the elected node): default `on` outside tests, `off` in
   * tests (integration tests call their `tick()`); the browser tests' server turns them `on`.
   */
  postTradeJobs: boolean;
  /**
   * The surveillance scanner (issue 16 §1, on the elected node): default `on` outside tests, `off` in tests
   * (integration tests call `scanner.scanOnce()`); the browser tests' server turns it `on`.
   */
  surveillanceScan: boolean;
  /**
   * Masked session recording (issue 16 §3, modules/recording): off unless `SESSION_RECORDING=on`; recordings are
   * kept `SESSION_RECORDING_RETENTION_DAYS` days (default 30).
   */
  sessionRecording: { enabled: boolean; retentionDays: number };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the JWT secret from DATA_DIR (dev) or creates it; production must set JWT_SECRET. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** CREDENTIALS_KEY as 32 bytes: 64 hex digits or base64 / base64url of 32 bytes; null when it is neither. */
export function parseCredentialsKey(value: string): Buffer | null {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(text)) {
    const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === 32) return key;
  }
  return null;
}

/**
 * Reads the development credentials key from DATA_DIR or creates it. Created whole under a temporary name
 * and linked into place, so a second process starting at the same moment reads a complete key, never half of one.
 */
function developmentCredentialsKey(dataDir: string): Buffer {
  const file = path.join(dataDir, 'credentials-key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    const scratch = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(scratch, randomBytes(32).toString('hex'), { mode: 0o600 });
    try {
      linkSync(scratch, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(scratch);
    }
  }
  const key = parseCredentialsKey(readFileSync(file, 'utf8'));
  if (!key) throw new ConfigError([`CREDENTIALS_KEY: ${file} does not hold a 32-byte key`]);
  return key;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.NODE_ENV === 'production' && !e.JWT_SECRET) problems.push('JWT_SECRET: required in production');
  if (e.NODE_ENV === 'production' && !e.CREDENTIALS_KEY) problems.push('CREDENTIALS_KEY: required in production');
  // Demo accounts with a published password never reach production (RELIABILITY #5).
  if (e.NODE_ENV === 'production' && e.DEMO_SEED === '1') problems.push('DEMO_SEED: demo accounts are not allowed in production');
  // GET /api/dev/outbox is public and shows anyone's one-time passwords (issue 11 §10).
  if (e.NODE_ENV === 'production' && e.DEV_OUTBOX === '1')
    problems.push("DEV_OUTBOX: the development outbox shows everyone's one-time passwords and cannot be enabled in production");
  if (problems.length) throw new ConfigError(problems);
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    // Development binds to loopback only: its dev outbox shows OTP codes to whoever can reach it.
    host: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    clamdAddress: e.CLAMD_ADDRESS,
    wsIdleTimeoutMs: e.WS_IDLE_TIMEOUT_MS,
    dailyQuotas: {
      ...DEFAULT_DAILY_QUOTAS,
      ...Object.fromEntries((e.DAILY_QUOTAS?.split(',') ?? []).map((pair) => [pair.split('=')[0], Number(pair.split('=')[1])])),
    },
    slo: { p99Ms: e.SLO_P99_MS, breachMinutes: e.SLO_BREACH_MINUTES, minSamples: e.SLO_MIN_SAMPLES },
    busChannel: e.BUS_CHANNEL,
    jwtSecret: e.JWT_SECRET ?? developmentSecret(path.resolve(e.DATA_DIR)),
    credentialsKey: e.CREDENTIALS_KEY ? parseCredentialsKey(e.CREDENTIALS_KEY)! : developmentCredentialsKey(path.resolve(e.DATA_DIR)),
    productName: e.PRODUCT_NAME,
    supportTicketIds: e.SUPPORT_TICKET_IDS,
    // Demo data only on the embedded default, or when asked for (issue 2 §8).
    demoSeed: e.DEMO_SEED ? e.DEMO_SEED === '1' : !e.DATABASE_URL && e.NODE_ENV !== 'production',
    webDist: e.WEB_DIST,
    logLevel: e.LOG_LEVEL,
    cookieSecure: e.COOKIE_SECURE ? e.COOKIE_SECURE === '1' : e.NODE_ENV === 'production',
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    dbQueryTimeoutMs: e.DB_QUERY_TIMEOUT_MS,
    dbPoolSize: e.DB_POOL_SIZE,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    credentialRatePerMinute: e.CREDENTIAL_RATE_PER_MINUTE,
    devOutboxEnabled: e.NODE_ENV !== 'production' && e.DEV_OUTBOX !== '0',
    version: e.APP_VERSION ?? pkg.version,
    buildId: e.BUILD_ID ?? `${pkg.version}-${process.pid}-${Date.now().toString(36)}`,
    bondImport: e.BOND_IMPORT ?? (!e.DATABASE_URL && e.NODE_ENV === 'development' ? 'full' : 'off'),
    bondDataDir: path.resolve(e.BOND_DATA_DIR),
    exchangeSim: {
      participants: e.EXCHANGE_SIM_PARTICIPANTS ? e.EXCHANGE_SIM_PARTICIPANTS !== '0' : e.NODE_ENV === 'development',
      participantsRaise: e.EXCHANGE_SIM_PARTICIPANTS !== 'answer',
      answerDelayMs: e.EXCHANGE_SIM_ANSWER_MS,
      latencyMs: e.EXCHANGE_SIM_LATENCY_MS ?? (e.NODE_ENV === 'test' ? 0 : 150),
      failureRate: e.EXCHANGE_SIM_FAILURE_RATE,
      settleMs: e.EXCHANGE_SIM_SETTLE_MS,
      intervalMs: e.EXCHANGE_SIM_INTERVAL_MS,
    },
    tradingHours: e.TRADING_HOURS ?? (e.NODE_ENV === 'production' ? 'enforce' : 'off'),
    postTradeJobs: (e.POST_TRADE_JOBS ?? (e.NODE_ENV === 'test' ? 'off' : 'on')) === 'on',
    surveillanceScan: (e.SURVEILLANCE_SCAN ?? (e.NODE_ENV === 'test' ? 'off' : 'on')) === 'on',
    sessionRecording: { enabled: e.SESSION_RECORDING === 'on', retentionDays: e.SESSION_RECORDING_RETENTION_DAYS },
  };
}
