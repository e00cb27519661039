/**
 * Splits a list for `IN (...)` lists and multi-row statements: SQLite caps bound parameters per
 * statement (32766 in better-sqlite3's build) and PostgreSQL at 65535, so long lists (a popular
 * repository's watchers) go in slices of this size.
 */
export const SQL_LIST_CHUNK = 1000;

export function chunksOf<T>(items: readonly T[], size = SQL_LIST_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
