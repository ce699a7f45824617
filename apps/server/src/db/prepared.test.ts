import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREPARED, PreparingClient } from './prepared';

describe('PreparingClient.nameFor', () => {
  it('names each text once per connection, up to the cap, and never a text longer than the limit', () => {
    const client = new PreparingClient({});
    const first = client.nameFor('SELECT $1::int');
    expect(first).toBeDefined();
    expect(client.nameFor('SELECT $1::int')).toBe(first);
    expect(client.nameFor('SELECT $1::text')).not.toBe(first);
    expect(client.nameFor(`SELECT ${'1,'.repeat(PREPARED.MAX_TEXT)}$1`)).toBeUndefined();
    for (let i = 0; i < PREPARED.MAX_NAMED; i++) client.nameFor(`SELECT ${i} + $1`);
    expect(client.nameFor('SELECT $1::bigint')).toBeUndefined();
    // Texts named before the cap keep their names.
    expect(client.nameFor('SELECT $1::int')).toBe(first);
  });
});

// PostgreSQL's own behaviour: where there is one (CI always sets DATABASE_URL; the embedded database has no pool).
const POSTGRES = process.env.DATABASE_URL ? [process.env.DATABASE_URL] : [];
describe.each(POSTGRES)('PreparingClient on PostgreSQL (%s)', (url) => {
  let pool: pg.Pool;
  const prepared = async () =>
    (await pool.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements ORDER BY statement')).rows.map(
      (r) => r.statement,
    );
  beforeAll(() => {
    // One connection, so every call below shares its prepared statements.
    pool = new pg.Pool({ connectionString: url, max: 1, Client: PreparingClient });
  });
  afterAll(async () => {
    await pool.end();
  });

  it('prepares a parameterised statement once and runs it by name after; unparameterised ones stay unnamed', async () => {
    for (let i = 0; i < 3; i++) expect((await pool.query<{ x: number }>('SELECT $1::int + 1 AS x', [i])).rows[0]!.x).toBe(i + 1);
    expect((await pool.query({ text: 'SELECT $1::text AS y', values: ['a'] })).rows[0]).toEqual({ y: 'a' });
    await pool.query('SELECT 42');
    expect(await prepared()).toEqual(['SELECT $1::int + 1 AS x', 'SELECT $1::text AS y']);
  });

  it('keeps working after a statement fails to parse or fails when it runs', async () => {
    await expect(pool.query('SELEC $1::int', [1])).rejects.toThrow(/syntax error/);
    await expect(pool.query('SELECT 1 / $1::int AS z', [0])).rejects.toThrow(/division by zero/);
    expect((await pool.query('SELECT 1 / $1::int AS z', [1])).rows[0]).toEqual({ z: 1 });
    expect((await pool.query('SELECT $1::int + 1 AS x', [41])).rows[0]).toEqual({ x: 42 });
    const names = await prepared();
    expect(names).toContain('SELECT 1 / $1::int AS z');
    expect(names).not.toContain('SELEC $1::int');
  });

  it('describes a named statement once per connection, then parses its rows from the kept description', async () => {
    const client = await pool.connect();
    try {
      const connection = (client as unknown as { connection: { describe: (m: unknown) => void } }).connection;
      const describePortal = connection.describe.bind(connection);
      let described = 0;
      connection.describe = (message) => {
        described++;
        describePortal(message);
      };
      const text = 'SELECT $1::int AS n, $2::timestamptz AS at, $3::text AS t, NULL::int AS none';
      const at = new Date('2026-11-29T05:30:00Z');
      for (let i = 0; i < 3; i++) {
        const { rows, fields } = await client.query(text, [i, at, `x${i}`]);
        expect(rows).toEqual([{ n: i, at, t: `x${i}`, none: null }]);
        expect(fields.map((f) => f.name)).toEqual(['n', 'at', 't', 'none']);
      }
      expect(described).toBe(1);
      // The same text with other type parsers (as Drizzle passes: timestamps as text) and as arrays: the query's own.
      const raw = {
        getTypeParser: (oid: number, format?: string) => (oid === 1184 ? (v: string) => v : pg.types.getTypeParser(oid, format as 'text')),
      };
      const asArray = await client.query({ text, values: [7, at, 'y'], rowMode: 'array', types: raw } as pg.QueryArrayConfig);
      expect(asArray.rows).toEqual([[7, '2026-11-29 05:30:00+00', 'y', null]]);
      for (let i = 0; i < 2; i++) {
        const [row] = (await client.query('SELECT $1::int AS "__proto__"', [i])).rows as Array<Record<string, unknown>>;
        expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe(i);
      }
      // A statement its author named (Drizzle's prepared queries) is described once too.
      for (let i = 0; i < 3; i++)
        expect((await client.query({ name: 'authored', text: 'SELECT $1::int * 2 AS d', values: [i] })).rows).toEqual([{ d: 2 * i }]);
      // A statement without rows, and a run that fails, keep the connection's statements working.
      await client.query('CREATE TEMP TABLE IF NOT EXISTS described_t (v int)');
      for (let i = 0; i < 2; i++) expect((await client.query('INSERT INTO described_t VALUES ($1)', [i])).rowCount).toBe(1);
      await expect(client.query('SELECT 10 / $1::int AS q', [0])).rejects.toThrow(/division by zero/);
      expect((await client.query('SELECT 10 / $1::int AS q', [5])).rows).toEqual([{ q: 2 }]);
      expect((await client.query('SELECT 10 / $1::int AS q', [2])).rows).toEqual([{ q: 5 }]);
      expect((await client.query(text, [9, at, 'z'])).rows).toEqual([{ n: 9, at, t: 'z', none: null }]);
      // Described again: the `__proto__` column's and the authored statement's first runs, the insert each time (it has no rows to describe), the failing division (it failed at Bind,
      // planning folds 10 / 0, before any description) and its next run; the first statement never again.
      expect(described).toBe(1 + 1 + 1 + 2 + 1 + 1);
    } finally {
      client.release();
    }
  });
});
