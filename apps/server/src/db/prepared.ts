/**
 * Named prepared statements for the pool's connections (PostgreSQL only; issue 13's throughput).
 *
 * node-postgres sends a parameterised statement as Parse + Bind + Execute, and without a name PostgreSQL parses,
 * analyses and plans it again on every call. `PreparingClient` names each parameterised statement text the first
 * time its connection sees it, so later calls on that connection send only Bind + Execute and reuse the parsed
 * statement and, once PostgreSQL judges its generic plan as good as the custom ones (`plan_cache_mode = auto`,
 * after five calls, as for any prepared statement), the plan too. Measured on this machine (apps/server/README.md
 * "Runtime"): a 20-column select by key went from ~110 to ~48 µs of the backend's CPU a call.
 *
 * Bounded: at most `MAX_NAMED` statements a connection (their parse trees and plans live in its backend until
 * the connection closes; the pool ends idle connections after 30 s), and texts longer than `MAX_TEXT` (bulk
 * inserts whose text grows with their rows) are never named. Past the cap a statement runs unnamed, as before.
 * Statements without parameters (BEGIN, COMMIT, DDL) take the simple protocol as before. A statement whose Parse
 * fails is not recorded as parsed by node-postgres, so it is parsed again next time.
 */
import pg from 'pg';

export const PREPARED = {
  /** Named statements a connection keeps at most. */
  MAX_NAMED: 300,
  /** Longer texts are never named (their text varies with the number of rows they write). */
  MAX_TEXT: 6_000,
} as const;

type QueryConfig = { text: string; name?: string; values?: unknown[]; submit?: unknown };

export class PreparingClient extends pg.Client {
  /** Statement text → its name on this connection. */
  private readonly named = new Map<string, string>();

  /** The name for `text` on this connection (a new one while under the cap), or undefined: run it unnamed. */
  nameFor(text: string): string | undefined {
    let name = this.named.get(text);
    if (name === undefined && this.named.size < PREPARED.MAX_NAMED && text.length <= PREPARED.MAX_TEXT) {
      name = `dart_${this.named.size}`;
      this.named.set(text, name);
    }
    return name;
  }

  // The overloads of pg's `query` are many; every call goes through here unchanged except the name.
  override query(...args: unknown[]): never {
    const [first, second] = args;
    const values = Array.isArray(second) ? second : undefined;
    if (typeof first === 'string' && values && values.length > 0) {
      const name = this.nameFor(first);
      if (name) args[0] = { text: first, name };
    } else if (first !== null && typeof first === 'object' && typeof (first as QueryConfig).submit !== 'function') {
      const config = first as QueryConfig;
      const params = values ?? config.values;
      if (config.name === undefined && typeof config.text === 'string' && Array.isArray(params) && params.length > 0) {
        const name = this.nameFor(config.text);
        // A copy: Drizzle reuses its query config objects across connections.
        if (name) args[0] = { ...config, name };
      }
    }
    return (pg.Client.prototype.query as (...a: unknown[]) => never).apply(this, args);
  }
}
