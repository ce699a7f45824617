/**
 * Every statement's `sql` tree flattened before Drizzle turns it into text and parameters (`renderFlattened`,
 * installed on the app's database in client.ts): raw statements and the query builder's alike.
 *
 * Why: Drizzle renders each chunk of a tree by asking, one class after the other, what it is (`is()`: for an
 * object of another class it walks the object's prototype chain each time), so a chunk that is a column or a
 * parameter costs up to seven such walks. The hot statements (a ticket's write, the reporter's batch, the book's
 * parts) are trees of a few hundred chunks; in the post-trade pipeline's profile, rendering statements was about a
 * tenth of the server's CPU (modules/orders README "Speed").
 *
 * What: one walk with `instanceof` that renders text, names, tables and columns itself into string chunks (merged)
 * and leaves each value as a primitive, or, for an object value, as a parameter with no encoder — the cheap cases
 * of Drizzle's own walk, and walks into a query builder's statement (a data-modifying CTE's insert, a subquery's
 * select). It applies each parameter's encoder as Drizzle does. Anything else (views, aliased subqueries, placeholders,
 * aliases, a column named by its key, inlined parameters) is left in the tree for
 * Drizzle to render as before. When nothing is left for Drizzle (the usual case), the text and parameters are
 * written here from the walk's chunks (`renderSql`). Either way they are the same as Drizzle's from the original
 * tree: the unit test holds it to that on every kind of chunk, and under Vitest every statement the app runs is
 * rendered both ways and compared.
 */
import { isDeepStrictEqual } from 'node:util';
import { Column, Name, Param, Placeholder, SQL, StringChunk, Table } from 'drizzle-orm';
import { PgDeleteBase, PgDialect, PgInsertBase, PgSelectBase, PgUpdateBase } from 'drizzle-orm/pg-core';

const IS_ALIAS = Symbol.for('drizzle:IsAlias');
const SCHEMA = Symbol.for('drizzle:Schema');
const NAME = Symbol.for('drizzle:Name');
/** Drizzle keeps it private; `.inlineParams()` sets it. */
const inlines = (query: SQL) => (query as unknown as { shouldInlineParams: boolean }).shouldInlineParams;
/** Drizzle's own quoting of a name (it reads nothing of its dialect), so the two renderings cannot drift apart. */
const escapeName = (name: string) => PgDialect.prototype.escapeName(name);

type Out = {
  chunks: unknown[];
  text: string;
  /** Every chunk kept is merged text or a value (no chunk needs Drizzle): the statement is rendered here. */
  plain: boolean;
};
/** A value of the walk's own: a parameter with no encoder (an object value, or undefined). */
class Value {
  constructor(readonly value: unknown) {}
}

function tableName(table: Table): string {
  const t = table as unknown as Record<symbol, unknown>;
  const schema = t[SCHEMA] as string | undefined;
  const name = escapeName(t[NAME] as string);
  return schema === undefined || t[IS_ALIAS] ? name : `${escapeName(schema)}.${name}`;
}

/** Pushes pending text as one chunk (a string) before a value or a chunk Drizzle renders. */
function keep(out: Out, chunk: unknown): void {
  if (out.text !== '') {
    out.chunks.push(out.text);
    out.text = '';
  }
  out.chunks.push(chunk);
}

/** A parameter's value as it goes to the driver (an object or undefined, too: see `treeOf`). */
function param(out: Out, v: unknown): void {
  keep(out, new Value(v));
}

/** A chunk only Drizzle renders: the statement goes to Drizzle. */
function drizzles(out: Out, chunk: unknown): void {
  out.plain = false;
  keep(out, chunk);
}

function walk(out: Out, chunks: readonly unknown[]): boolean {
  for (const chunk of chunks) {
    if (chunk instanceof StringChunk) out.text += chunk.value.join('');
    else if (chunk instanceof SQL) {
      if (inlines(chunk)) return false;
      if (!walk(out, chunk.queryChunks)) return false;
    } else if (chunk instanceof Param) {
      // A placeholder is filled when a prepared query runs: Drizzle numbers it now, its value comes later.
      if (chunk.value instanceof Placeholder) {
        drizzles(out, chunk);
        continue;
      }
      const mapped: unknown = chunk.value === null ? null : chunk.encoder.mapToDriverValue(chunk.value);
      if (mapped !== null && typeof mapped === 'object' && !isPlainDriverValue(mapped)) drizzles(out, chunk);
      else param(out, mapped);
    } else if (chunk instanceof Column) {
      if (chunk.keyAsName) drizzles(out, chunk);
      else out.text += `${tableName(chunk.table)}.${escapeName(chunk.name)}`;
    } else if (chunk instanceof Table) out.text += tableName(chunk);
    else if (chunk instanceof Name) out.text += escapeName(chunk.value);
    else if (chunk === undefined) continue;
    else if (Array.isArray(chunk)) {
      // Drizzle renders a bare array as a parenthesised list of its items.
      out.text += '(';
      for (let i = 0; i < chunk.length; i++) {
        if (i > 0) out.text += ', ';
        if (!walk(out, [chunk[i]])) return false;
      }
      out.text += ')';
    } else if (chunk === null || typeof chunk !== 'object') param(out, chunk);
    else if (isQueryBuilder(chunk)) {
      // Drizzle renders a query builder inside a statement (a data-modifying CTE, a subquery) as its own statement
      // in parentheses (none of these has `shouldOmitSQLParens`); its tree is walked like any other.
      out.text += '(';
      if (!walk(out, [chunk.getSQL()])) return false;
      out.text += ')';
    } else drizzles(out, chunk);
  }
  return true;
}

/** The query builders whose statement is rendered by the walk (a select, insert, update or delete). */
const isQueryBuilder = (chunk: unknown): chunk is { getSQL(): SQL } =>
  chunk instanceof PgSelectBase || chunk instanceof PgInsertBase || chunk instanceof PgUpdateBase || chunk instanceof PgDeleteBase;

/** Values a driver takes as they are: arrays, buffers and dates (never SQL, never a query builder). */
const isPlainDriverValue = (v: object) => Array.isArray(v) || v instanceof Date || Buffer.isBuffer(v) || v instanceof Uint8Array;

/** The walk's chunks of `query`, or null when Drizzle must render the whole statement (it inlines parameters). */
function walked(query: SQL): Out | null {
  if (inlines(query)) return null;
  const out: Out = { chunks: [], text: '', plain: true };
  if (!walk(out, query.queryChunks)) return null;
  if (out.text !== '') out.chunks.push(out.text);
  return out;
}

/** The walk's chunks as a tree Drizzle renders to the same text and parameters as the original. */
function treeOf(chunks: readonly unknown[]): SQL {
  return new SQL(
    chunks.map((chunk) => {
      if (typeof chunk === 'string') return new StringChunk(chunk);
      if (!(chunk instanceof Value)) return chunk;
      const v = chunk.value;
      // A bare primitive is a parameter to Drizzle; an object or undefined must be wrapped (a list, or nothing).
      return v === null || (typeof v !== 'object' && v !== undefined) ? v : new Param(v);
    }) as SQL['queryChunks'],
  );
}

/** The statement with its cheap chunks rendered (module comment); the statement itself when it inlines parameters. */
export function flattenSql(query: SQL): SQL {
  const out = walked(query);
  return out === null ? query : treeOf(out.chunks);
}

export interface RenderedSql {
  sql: string;
  params: unknown[];
}

/**
 * The statement's text and parameters (`$1`, `$2`… as Drizzle numbers them): written here when every chunk left
 * after the walk is text or a value (the hot statements: raw SQL and the query builder's selects and writes
 * without placeholders), otherwise rendered by `render` (Drizzle) from the flattened tree. Drizzle's renderer asks
 * each remaining chunk up to seven `is()` questions and each parameter's typing another six, for typings the
 * PostgreSQL drivers never read.
 */
export function renderSql(query: SQL, render: (query: SQL) => RenderedSql): RenderedSql {
  const out = walked(query);
  if (out === null) return render(query);
  if (!out.plain) return render(treeOf(out.chunks));
  let text = '';
  const params: unknown[] = [];
  for (const chunk of out.chunks) {
    if (typeof chunk === 'string') text += chunk;
    else text += `$${params.push((chunk as Value).value)}`;
  }
  return { sql: text, params };
}

/** Under the tests, every statement's rendering is held to Drizzle's own of the original tree. */
const checkFlattening = process.env.VITEST !== undefined;

/**
 * Makes `db` render every statement this way (`renderSql`; its dialect's `sqlToQuery`, which the query builder,
 * `execute` and transactions all call). Drizzle's own renderings for schema work (`invokeSource`) are untouched.
 */
export function renderFlattened<D extends object>(db: D): D {
  const dialect = (db as unknown as { dialect: PgDialect }).dialect;
  const render = dialect.sqlToQuery.bind(dialect);
  dialect.sqlToQuery = (query, invokeSource) => {
    if (invokeSource !== undefined) return render(query, invokeSource);
    const got = renderSql(query, render);
    if (checkFlattening) {
      const want = render(query);
      if (got.sql !== want.sql || !isDeepStrictEqual(got.params, want.params))
        throw new Error(`sql-flatten: the flattened statement differs\n${want.sql}\n${got.sql}`);
    }
    return got;
  };
  return db;
}
