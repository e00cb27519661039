import { MAX_ROW_ID } from '@gitforge/contracts';

/**
 * A row id from a path or a query, read as Go's ParseInt reads it; anything else, and any id no
 * row can have (beyond MAX_ROW_ID, which PostgreSQL would refuse to compare), is 0: no row.
 */
export function idFrom(raw: string | number | undefined): number {
  const n = typeof raw === 'number' ? raw : /^[+-]?\d{1,19}$/.test(raw ?? '') ? Number(raw) : 0;
  return Number.isInteger(n) && n > 0 && n <= MAX_ROW_ID ? n : 0;
}
