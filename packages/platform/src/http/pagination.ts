import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Page } from '@gitforge/contracts';

/**
 * Gitea's `Link` header: ROOT_URL + request path, the query re-encoded with sorted keys and
 * `page` replaced; `next`/`last` when a next page exists, `first`/`prev` past the first page.
 */
export function linkHeader(rootUrl: string, requestUrl: string, page: number, limit: number, total: number): string | undefined {
  const lastPage = Math.max(1, Math.ceil(total / Math.max(1, limit)));
  if (lastPage <= 1) return undefined;
  const current = Math.min(page, lastPage);
  const [path = '', search = ''] = requestUrl.split('?', 2);
  const params = new URLSearchParams(search);
  const base = `${rootUrl}${path.replace(/^\/+/, '')}`;
  const at = (p: number): string => {
    params.set('page', String(p));
    const sorted = [...params.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `${base}?${new URLSearchParams(sorted).toString()}`;
  };
  const links: string[] = [];
  if (current < lastPage) {
    links.push(`<${at(current + 1)}>; rel="next"`, `<${at(lastPage)}>; rel="last"`);
  }
  if (current > 1) {
    links.push(`<${at(1)}>; rel="first"`, `<${at(current - 1)}>; rel="prev"`);
  }
  return links.length > 0 ? links.join(',') : undefined;
}

export interface PageHeaderOptions {
  /** Some Gitea lists set only X-Total-Count (feeds, cron, deploy keys). */
  link?: boolean;
  /**
   * Gitea's page headers of commit and changed-file listings: `X-Page`, `X-PerPage`,
   * `X-PageCount` and `X-HasMore`, with `X-Total` too where `total` says so (a repository's commits).
   */
  pageCounts?: { total: boolean };
}

/** Gitea's SetTotalCountHeader alone, for an answer that counts its items in the body (git trees). */
export function sendTotalCount(reply: FastifyReply, total: number): void {
  reply.header('X-Total-Count', String(total));
  reply.header('Access-Control-Expose-Headers', 'X-Total-Count');
}

/** Sets `X-Total-Count` and `Link` (and the page counts when asked), exposed to browsers, and answers the page's items. */
export function sendPage<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  rootUrl: string,
  page: Page<T>,
  options: PageHeaderOptions = {},
): T[] {
  reply.header('X-Total-Count', String(page.total));
  const exposed = ['X-Total-Count', 'Link'];
  if (options.pageCounts) {
    const pageCount = Math.ceil(page.total / Math.max(1, page.limit));
    reply.header('X-Page', String(page.page));
    reply.header('X-PerPage', String(page.limit));
    if (options.pageCounts.total) reply.header('X-Total', String(page.total));
    reply.header('X-PageCount', String(pageCount));
    reply.header('X-HasMore', String(page.page < pageCount));
    exposed.push('X-Page', 'X-PerPage', ...(options.pageCounts.total ? ['X-Total'] : []), 'X-PageCount', 'X-HasMore');
  }
  reply.header('Access-Control-Expose-Headers', exposed.join(', '));
  if (options.link !== false) {
    const link = linkHeader(rootUrl, request.url, page.page, page.limit, page.total);
    if (link) reply.header('Link', link);
  }
  return page.items;
}
