import { and, eq, Param, sql, type SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { alias, PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { pgArray } from './pg-array';
import { clients, inventoryPositions, tickets } from './schema';
import { flattenSql, renderSql } from './sql-flatten';

const dialect = new PgDialect();
const render = (query: SQL) => dialect.sqlToQuery(query);

describe('flattenSql', () => {
  const cases: Array<[string, SQL]> = [
    ['text and primitive values', sql`SELECT ${1}::int, ${'a"b'}, ${true}, ${null}, ${12345678901234567890n}`],
    ['tables and columns, quoted as Drizzle does', sql`SELECT ${tickets.number}, ${clients.name} FROM ${tickets} JOIN ${clients} ON true`],
    [
      'an aliased table and its columns',
      (() => {
        const seller = alias(clients, 'seller');
        return sql`SELECT ${seller.name} FROM ${seller}`;
      })(),
    ],
    ['identifiers', sql`SELECT 1 AS ${sql.identifier('we"ird')}`],
    [
      'nested statements with values at every level',
      sql`WITH t AS (${sql`SELECT ${2} AS x, ${sql`${'deep'}`}`}) SELECT * FROM t WHERE x = ${3}`,
    ],
    [
      'the query builder’s conditions (encoded parameters)',
      sql`SELECT 1 WHERE ${and(eq(tickets.id, '00000000-0000-4000-8000-000000000000'), eq(tickets.version, 4))}`,
    ],
    ['a date parameter encoded by its column', sql`SELECT 1 WHERE ${eq(tickets.updatedAt, new Date('2026-11-29T05:00:00Z'))}`],
    [
      'object values (array, date, buffer) as parameters, not lists',
      sql`SELECT ${pgArray([1, 2, 3])}::int[], ${new Date(0)}, ${Buffer.from('x')}`,
    ],
    ['a bare array as Drizzle’s parenthesised list', sql`SELECT 1 WHERE 2 IN ${[1, 2, sql`${3}`]}`],
    ['undefined chunks render nothing', sql`SELECT 1${undefined}`],
    ['raw text', sql`SELECT ${sql.raw('42')} FROM ${inventoryPositions}`],
    [
      'placeholders of a prepared query, left to Drizzle',
      sql`SELECT 1 WHERE ${eq(tickets.updatedAt, sql.placeholder('at'))} AND ${eq(tickets.id, sql.placeholder('id'))}`,
    ],
    [
      'query builders inside a statement: an insert as a CTE, a select as a subquery, an update and a delete',
      (() => {
        const db = drizzle.mock();
        const at = new Date('2026-11-29T05:00:00Z');
        const inserted = db
          .insert(clients)
          .values([
            { id: '00000000-0000-4000-8000-000000000001', name: 'Demo "Capital"', clientType: 'CORPORATE', allowedExchanges: ['NSE'] },
          ])
          .returning({ id: clients.id });
        const picked = db.select({ id: tickets.id }).from(tickets).where(eq(tickets.version, 7)).limit(1);
        const updated = db
          .update(tickets)
          .set({ version: 8, updatedAt: at })
          .where(eq(tickets.id, sql`${'t1'}`))
          .returning();
        const deleted = db.delete(inventoryPositions).where(eq(inventoryPositions.faceValue, 0));
        return sql`WITH a AS ${inserted}, b AS ${updated}, c AS ${deleted} SELECT * FROM a WHERE a.id IN ${picked}`;
      })(),
    ],
    [
      'a query builder with a placeholder, left to Drizzle',
      sql`SELECT 1 WHERE 2 IN ${drizzle
        .mock()
        .select({ id: tickets.id })
        .from(tickets)
        .where(eq(tickets.id, sql.placeholder('id')))}`,
    ],
    ['inlined parameters are left to Drizzle', sql`SELECT ${'x'}`.inlineParams()],
    ['a nested statement that inlines parameters', sql`SELECT ${1}, ${sql`${'y'}`.inlineParams()}`],
  ];
  it.each(cases)('%s: the same text and parameters as the original tree', (_, query) => {
    const want = render(query);
    const got = render(flattenSql(query));
    expect(got.sql).toBe(want.sql);
    expect(got.params).toStrictEqual(want.params);
    const direct = renderSql(query, render);
    expect(direct.sql).toBe(want.sql);
    expect(direct.params).toStrictEqual(want.params);
  });

  it('writes a statement of text and values itself, and hands one with a placeholder to Drizzle', () => {
    let drizzleRenders = 0;
    const counting = (query: SQL) => {
      drizzleRenders++;
      return render(query);
    };
    const plain = renderSql(
      sql`SELECT ${tickets.number} FROM ${tickets} WHERE ${eq(tickets.version, 4)} AND ${undefined}${'a'} = ${null}`,
      counting,
    );
    expect(plain).toEqual({
      sql: 'SELECT "tickets"."number" FROM "tickets" WHERE "tickets"."version" = $1 AND $2 = $3',
      params: [4, 'a', null],
    });
    expect(drizzleRenders).toBe(0);
    const insert = drizzle.mock().insert(clients).values({ name: 'Second Bank', clientType: 'BANK' }).returning({ id: clients.id });
    const cte = renderSql(sql`WITH b AS ${insert} SELECT id FROM b`, counting);
    expect(cte.sql).toMatch(/^WITH b AS \(insert into "clients" \("id", "name", "client_type", .* returning "id"\) SELECT id FROM b$/);
    expect(cte.params).toContain('Second Bank');
    expect(drizzleRenders).toBe(0);
    renderSql(sql`SELECT 1 WHERE ${eq(tickets.id, sql.placeholder('id'))}`, counting);
    expect(drizzleRenders).toBe(1);
  });

  it('a parameter whose value is undefined stays a parameter, as in Drizzle', () => {
    const query = sql`SELECT ${new Param(undefined)}`;
    expect(renderSql(query, render)).toEqual({ sql: 'SELECT $1', params: [undefined] });
    expect(render(query).params).toEqual([undefined]);
  });

  it('leaves few chunks for Drizzle: merged text and bare values', () => {
    const flat = flattenSql(sql`SELECT ${tickets.number} FROM ${tickets} WHERE ${eq(tickets.version, 4)} AND ${tickets.id} = ${'a'}`);
    expect(flat.queryChunks).toHaveLength(4);
    expect(flat.queryChunks.filter((c) => typeof c !== 'object')).toEqual([4, 'a']);
  });
});
