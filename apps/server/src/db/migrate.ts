/**
 * Applies the numbered migrations in apps/server/migrations in journal order, each in its own transaction
 * on one connection, under a PostgreSQL advisory lock so several nodes starting together do not
 * collide (the second waits, then sees the migration recorded and skips it).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client';

const here = path.dirname(fileURLToPath(import.meta.url));
/** apps/server/migrations: two levels up from src/db/ (tests, tsx), one up from the bundle in dist/ (`npm start`). */
const MIGRATIONS_DIR =
  [path.resolve(here, '../../migrations'), path.resolve(here, '../migrations')].find((dir) =>
    existsSync(path.join(dir, 'meta/_journal.json')),
  ) ?? path.resolve(here, '../../migrations');
/** Arbitrary constant key for the migration advisory lock. */
const MIGRATION_LOCK_KEY = 727_001;

interface Journal {
  entries: Array<{ idx: number; tag: string }>;
}

export async function migrate(database: Database): Promise<string[]> {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as Journal;
  const applied: string[] = [];
  await database.withConnection(async (run) => {
    await run('CREATE TABLE IF NOT EXISTS schema_migrations (tag text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())').catch(
      // Two nodes racing on CREATE TABLE IF NOT EXISTS can collide on the catalog; the table exists then.
      () => undefined,
    );
    for (const entry of [...journal.entries].sort((a, b) => a.idx - b.idx)) {
      const body = readFileSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), 'utf8')
        .split('--> statement-breakpoint')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => (s.endsWith(';') ? s : `${s};`))
        .join('\n');
      await run('BEGIN');
      try {
        await run('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
        const done = await run('SELECT 1 FROM schema_migrations WHERE tag = $1', [entry.tag]);
        if (done.length === 0) {
          await run(body);
          await run('INSERT INTO schema_migrations (tag) VALUES ($1)', [entry.tag]);
          applied.push(entry.tag);
        }
        await run('COMMIT');
      } catch (error) {
        await run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    }
  });
  return applied;
}
