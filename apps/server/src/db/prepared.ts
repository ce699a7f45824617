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

type QueryConfig = { text: string; name?: string; values?: unknown[]; submit?: unknown; types?: unknown; rowMode?: string };
/** The config fields a `DescribedQuery` sets itself (anything else goes through pg's own constructor). */
const SET_HERE = new Set(['text', 'name', 'values', 'types', 'rowMode']);

/** What a named statement's rows look like (its RowDescription), kept per connection: the shape never changes. */
interface Described {
  fields: pg.FieldDef[];
  /** pg's empty row object for these fields (object-mode rows start as a copy of it). */
  emptyRow: Record<string, null>;
}

type TypeSource = { getTypeParser(oid: number, format: string): (value: string) => unknown };
/**
 * The node-postgres internals this module fills from a kept description, by their names in pg 8.23 (pinned; the
 * unit test fails if they move): a query's result, and the result's parsers, type source and empty row.
 */
const PG = {
  result: '_result',
  accumulateRows: '_accumulateRows',
  parsers: '_parsers',
  types: '_types',
  emptyRow: '_prebuiltEmptyResultObject',
  /** A query's row mode and its second handle on its result (set with the result by pg's constructor). */
  rowMode: '_rowMode',
  results: '_results',
} as const;
type ResultInternals = { fields: pg.FieldDef[]; [PG.parsers]: unknown[]; [PG.types]?: TypeSource; [PG.emptyRow]: object };
type QueryInternals = {
  name?: string;
  types?: unknown;
  [PG.rowMode]?: string;
  [PG.results]: ResultInternals;
  callback?: unknown;
  [PG.result]: ResultInternals;
  [PG.accumulateRows]: boolean;
  hasBeenParsed(connection: unknown): boolean;
  listeners(event: string): unknown[];
};
type Connection = { describe(message: unknown): void };

/**
 * A named statement run without asking PostgreSQL to describe its rows again. node-postgres sends Describe with
 * every Bind and Execute, so each call's answer starts with the row description (a message per call; a 60-column
 * ticket row's is ~2 KB), which the node parses and turns into parsers and an empty row again (pg's `addFields`:
 * ~3 % of the server's CPU in the post-trade pipeline). The first run of a statement on a connection describes it
 * as before and the description is kept; later runs send Bind and Execute only and take their parsers from the
 * kept fields, through the query's own type parsers (Drizzle's differ from pg's defaults, for the same text).
 * PostgreSQL refuses to run a prepared statement whose result shape changed ("cached plan must not change result
 * type"), so a kept description cannot be stale.
 */
class DescribedQuery extends pg.Query {
  /**
   * pg's constructor copies an object config by its property descriptors (`normalizeQueryConfig`: 1.6 % of the
   * server's CPU in bench/post-trade's pipeline) and not a text, so it is given the text and the values, and the
   * statement's name, type parsers and row mode are set here as it sets them from a config. A config with any other
   * field goes to pg's constructor whole.
   */
  constructor(
    private readonly described: Map<string, Described>,
    config: QueryConfig,
    name: string,
    values?: unknown,
    callback?: unknown,
  ) {
    const whole = Object.keys(config).some((key) => !SET_HERE.has(key));
    super((whole ? { ...config, name } : config.text) as pg.QueryConfig, (values ?? config.values) as unknown[], callback as never);
    if (whole) return;
    const self = this as unknown as QueryInternals;
    self.name = name;
    if (config.types === undefined && config.rowMode === undefined) return;
    self.types = config.types;
    self[PG.rowMode] = config.rowMode;
    const Result = self[PG.result].constructor as new (rowMode: unknown, types: unknown) => ResultInternals;
    self[PG.result] = self[PG.results] = new Result(config.rowMode, config.types);
  }

  prepare(connection: Connection): void {
    const self = this as unknown as QueryInternals;
    const known = self.name === undefined ? undefined : this.described.get(self.name);
    const prepare = (pg.Query.prototype as unknown as { prepare(c: Connection): void }).prepare;
    if (known === undefined || !self.hasBeenParsed(connection)) {
      prepare.call(this, connection);
      return;
    }
    // What pg's handleRowDescription and addFields would have set from the description.
    const result = self[PG.result];
    const types = result[PG.types] ?? (pg.types as unknown as TypeSource);
    result.fields = known.fields;
    result[PG.parsers] = known.fields.map((field) => types.getTypeParser(field.dataTypeID, field.format || 'text'));
    result[PG.emptyRow] = known.emptyRow;
    self[PG.accumulateRows] = Boolean(self.callback) || self.listeners('row').length === 0;
    // pg's own prepare (Bind, Execute, Sync), without its Describe.
    const describePortal = connection.describe;
    connection.describe = () => {};
    try {
      prepare.call(this, connection);
    } finally {
      connection.describe = describePortal;
    }
  }

  handleRowDescription(message: { fields: pg.FieldDef[] }): void {
    (pg.Query.prototype as unknown as { handleRowDescription(m: unknown): void }).handleRowDescription.call(this, message);
    const self = this as unknown as QueryInternals;
    if (self.name !== undefined && !this.described.has(self.name)) {
      // Built as pg builds it (a column may be named `__proto__`).
      const row = Object.create(null) as Record<string, null>;
      for (const field of message.fields) row[field.name] = null;
      this.described.set(self.name, { fields: message.fields, emptyRow: { ...row } });
    }
  }
}

export class PreparingClient extends pg.Client {
  /** Statement text → its name on this connection. */
  private readonly named = new Map<string, string>();
  /** Statement name → its rows' description, once PostgreSQL has described them on this connection. */
  private readonly described = new Map<string, Described>();

  /** The name for `text` on this connection (a new one while under the cap), or undefined: run it unnamed. */
  nameFor(text: string): string | undefined {
    let name = this.named.get(text);
    if (name === undefined && this.named.size < PREPARED.MAX_NAMED && text.length <= PREPARED.MAX_TEXT) {
      name = `dart_${this.named.size}`;
      this.named.set(text, name);
    }
    return name;
  }

  // The overloads of pg's `query` are many; every call goes through here unchanged except the name, and a named
  // statement runs as a `DescribedQuery`.
  override query(...args: unknown[]): never {
    const [first, second, third] = args;
    const values = Array.isArray(second) ? second : undefined;
    let config: QueryConfig | undefined;
    let name: string | undefined;
    if (typeof first === 'string' && values && values.length > 0) {
      name = this.nameFor(first);
      config = { text: first };
    } else if (first !== null && typeof first === 'object' && typeof (first as QueryConfig).submit !== 'function') {
      const given = first as QueryConfig;
      const params = values ?? given.values;
      if (typeof given.text === 'string' && Array.isArray(params) && params.length > 0) {
        // Named by its author (Drizzle's prepared queries): one text per name, so its description is kept too.
        // (The config is never changed: Drizzle reuses its query config objects across connections.)
        name = given.name ?? this.nameFor(given.text);
        config = given;
      }
    }
    const run = pg.Client.prototype.query as (...a: unknown[]) => never;
    if (config === undefined || name === undefined) return run.apply(this, args);
    const callback = typeof second === 'function' ? second : typeof third === 'function' ? third : undefined;
    const query = new DescribedQuery(this.described, config, name, values, callback);
    if (callback !== undefined) return run.call(this, query);
    // As pg answers a query without a callback: a promise, its error's stack the caller's.
    const answer = new Promise((resolve, reject) => {
      (query as unknown as QueryInternals).callback = (error: Error | null, result: unknown) => (error ? reject(error) : resolve(result));
    }).catch((error: unknown) => {
      if (error instanceof Error) Error.captureStackTrace(error);
      throw error;
    });
    run.call(this, query);
    return answer as never;
  }
}
