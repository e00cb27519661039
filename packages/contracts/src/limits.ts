import { unprocessable } from './errors.js';

/**
 * Fixed limits of the API that more than one app states: repo-service enforces them and the
 * gateway reports them (`GET /settings/api`, `GET /settings/ui`). Pagination's limits are in
 * pagination.ts.
 */

/** Blobs above this come without content (Gitea's `[api] DEFAULT_MAX_BLOB_SIZE`). */
export const MAX_BLOB_SIZE = 10 * 1024 * 1024;
/** Gitea's `[api] DEFAULT_GIT_TREES_PER_PAGE`: the default and the largest `per_page` of `git/trees`. */
export const GIT_TREES_PER_PAGE = 1000;
/** Gitea's `[api] DEFAULT_MAX_RESPONSE_SIZE`: `file-contents` stops including contents past this many bytes. */
export const MAX_FILES_RESPONSE_BYTES = 50 * 1024 * 1024;

/** Gitea's default `[ui] REACTIONS`: the only contents a reaction may have, and the only ones listed. */
export const ALLOWED_REACTIONS = ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'] as const;

/**
 * Longest text `POST /markdown`, `/markdown/raw` and `/markup` render (UTF-16 code units). Gitea
 * has no limit; here rendering runs on issue-service's event loop, and hostile markdown (a table of
 * a few hundred kilobytes) already costs seconds of it, so a larger text is a 422.
 */
export const MAX_MARKUP_TEXT_LENGTH = 256 * 1024;

/**
 * Longest search keyword (`q` of the search and list routes), in characters. Gitea has none; the
 * keyword becomes a `LIKE` pattern, which SQLite refuses past 50,000 bytes (a 500), and no name,
 * e-mail address or title a search matches is this long.
 */
export const MAX_SEARCH_KEYWORD_LENGTH = 1000;
/** Most comma-separated keywords one repository search matches (each adds conditions to one statement, whose depth SQLite caps). */
export const MAX_SEARCH_KEYWORDS = 100;

/** A search keyword as given (`''` for none), refused with 422 past {@link MAX_SEARCH_KEYWORD_LENGTH}. */
export function searchKeyword(q: unknown): string {
  const keyword = typeof q === 'string' ? q : '';
  if (keyword.length > MAX_SEARCH_KEYWORD_LENGTH) throw unprocessable(`the search keyword is longer than ${MAX_SEARCH_KEYWORD_LENGTH} characters`);
  return keyword;
}
