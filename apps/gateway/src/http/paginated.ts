import {
  applyDecorators,
  Injectable,
  SetMetadata,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';
import type { Page, SearchResults } from '@gitforge/contracts';
import { PlatformConfig, sendPage, type PageHeaderOptions } from '@gitforge/platform';

export interface PaginatedOptions {
  /** Gitea sets only X-Total-Count on some lists (members, feeds, collaborators, …). */
  link?: boolean;
  /** Gitea's page counts (`X-Page`, `X-PageCount`, `X-HasMore`, …) as commit and changed-file listings send them. */
  pageCounts?: PageHeaderOptions['pageCounts'];
  /** Search endpoints answer `{ok, data}` instead of a bare array. */
  search?: boolean;
  /** The actions listings answer `{<envelope>: [...], total_count}` (`workflow_runs`, `jobs`). */
  envelope?: string;
  /** An empty page is JSON `null`, as Gitea answers a list it never allocated (the issue timeline). */
  emptyAsNull?: boolean;
}

const PAGINATED = 'gitforge:paginated';

/**
 * A list route: the handler returns the service's Page<T>; the answer is its items (or Gitea's
 * search envelope) with `X-Total-Count` and, unless told otherwise, `Link`.
 */
export const Paginated = (options: PaginatedOptions = {}): MethodDecorator =>
  applyDecorators(SetMetadata(PAGINATED, options), UseInterceptors(PageInterceptor));

@Injectable()
export class PageInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly config: PlatformConfig,
  ) {}

  intercept(
    context: ExecutionContext,
    next: CallHandler<Page<unknown>>,
  ): Observable<unknown[] | SearchResults<unknown> | Record<string, unknown> | null> {
    const options = this.reflector.get<PaginatedOptions>(PAGINATED, context.getHandler()) ?? {};
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    return next.handle().pipe(
      map((page) => {
        const items = sendPage(request, reply, this.config.rootUrl, page, { link: options.link, pageCounts: options.pageCounts });
        if (options.envelope) return { [options.envelope]: items, total_count: page.total };
        if (options.emptyAsNull && items.length === 0) return null;
        return options.search ? { ok: true, data: items } : items;
      }),
    );
  }
}
