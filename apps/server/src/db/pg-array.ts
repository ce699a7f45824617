/**
 * A PostgreSQL array literal, passed as ONE parameter and cast to an array type (`${pgArray(ids)}::uuid[]`).
 * With `unnest` a statement writes or matches thousands of rows without a parameter (and the query builder's
 * work) for each value: the notification producer's inserts and events (bench/notify: building a 2,000-row
 * multi-VALUES insert was 6 % of the producing node's CPU in a burst).
 * Every element is quoted, so any text is safe (backslash and double quote escaped); null is NULL.
 */
export function pgArray(values: readonly (string | number | null)[]): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) literal += ',';
    literal += value === null || value === undefined ? 'NULL' : quoted(String(value));
  }
  return `${literal}}`;
}

/** An element in double quotes, backslash and double quote escaped (ids and numbers, the usual case, have neither). */
function quoted(text: string): string {
  const slash = text.includes('\\');
  if (!slash && !text.includes('"')) return `"${text}"`;
  // String searches, not a regular expression: a JSON payload (every notification's) has dozens of quotes.
  return `"${(slash ? text.replaceAll('\\', '\\\\') : text).replaceAll('"', '\\"')}"`;
}
