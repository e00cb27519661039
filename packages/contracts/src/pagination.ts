/** Gitea's `[api] DEFAULT_PAGING_NUM` and `MAX_RESPONSE_ITEMS`. */
export const DEFAULT_PAGE_LIMIT = 30;
export const MAX_PAGE_LIMIT = 50;
/** Highest page number read; any higher one answers the same empty page. */
const MAX_PAGE = 1_000_000_000;

export interface ListOptions {
  page: number;
  limit: number;
}

/** One page of a list and the total across all pages (for `X-Total-Count` and `Link`). */
export interface Page<T> {
  items: T[];
  total: number;
  /** The options that produced this page (after clamping). */
  page: number;
  limit: number;
}

/** Normalises raw query values the way Gitea does: page ≤ 0 → 1, limit ≤ 0 → default, limit > max → max. */
export function normalizeListOptions(
  raw: { page?: unknown; limit?: unknown },
  defaults: { limit?: number; max?: number } = {},
): ListOptions {
  // Go's strconv.Atoi fails on a number beyond int64, and Gitea then reads 0: page 1. Pages past
  // MAX_PAGE are empty anyway, and keep offsets inside what every database takes.
  const toInt = (v: unknown): number => {
    const n = typeof v === 'number' ? v : Number.parseInt(String(v ?? ''), 10);
    return Number.isSafeInteger(n) ? n : 0;
  };
  const max = defaults.max ?? MAX_PAGE_LIMIT;
  const page = Math.min(MAX_PAGE, Math.max(1, toInt(raw.page)));
  let limit = toInt(raw.limit);
  if (limit <= 0) limit = Math.min(defaults.limit ?? DEFAULT_PAGE_LIMIT, max);
  if (limit > max) limit = max;
  return { page, limit };
}

export function pageOf<T>(items: T[], total: number, options: ListOptions): Page<T> {
  return { items, total, page: options.page, limit: options.limit };
}

/**
 * A listing Gitea answers whole (every row, `X-Total-Count` and no next page), or one page of it
 * when `options` ask for one.
 */
export function wholeOrPageOf<T>(items: T[], total: number, options: ListOptions | null = null): Page<T> {
  return pageOf(items, total, options ?? { page: 1, limit: Math.max(items.length, 1) });
}
