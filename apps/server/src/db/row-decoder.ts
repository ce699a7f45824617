/**
 * Rows of a raw SQL statement decoded as the query builder would decode them: each column's own decoder
 * (`mapFromDriverValue`), looked up once per statement shape, not per field and row. For reads of thousands
 * of rows, where the query builder's per-field mapping costs more than the query (inventory README "Speed").
 */
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

export interface RowDecoder<T> {
  /** `<alias>."column" AS "<prefix>column", …` for a SELECT list. */
  select(tableAlias: string): SQL;
  /** One raw row (driver values under the prefixed names) as the typed row. */
  decode(raw: Record<string, unknown>): T;
  /** The raw name of a field's column in the row (`<prefix>column`). */
  nameOf(key: keyof T & string): string;
}

/**
 * @param columns - the fields to read, by key (e.g. `getTableColumns(table)` or a pick of it).
 * @param prefix - put before each column's name in the row, so two tables' columns cannot collide.
 */
export function rowDecoder<T>(columns: Record<string, PgColumn>, prefix = ''): RowDecoder<T> {
  const fields = Object.entries(columns).map(([key, column]) => ({ key, alias: `${prefix}${column.name}`, column }));
  const byKey = new Map(fields.map((f) => [f.key, f.alias]));
  return {
    select: (tableAlias) => sql.raw(fields.map((f) => `"${tableAlias}"."${f.column.name}" AS "${f.alias}"`).join(', ')),
    decode(raw) {
      const row: Record<string, unknown> = {};
      for (const { key, alias, column } of fields) {
        const value = raw[alias];
        row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
      }
      return row as T;
    },
    nameOf: (key) => byKey.get(key)!,
  };
}
