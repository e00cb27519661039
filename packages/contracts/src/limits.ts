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
