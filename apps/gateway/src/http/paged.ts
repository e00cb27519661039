import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Page } from '@gitforge/contracts';
import { PlatformConfig, sendPage, type PageHeaderOptions } from '@gitforge/platform';

/** Writes a Page as Gitea does: the items as the body, X-Total-Count and Link as headers. */
@Injectable()
export class Paged {
  constructor(private readonly config: PlatformConfig) {}

  send<T>(request: FastifyRequest, reply: FastifyReply, page: Page<T>, options?: PageHeaderOptions): T[] {
    return sendPage(request, reply, this.config.rootUrl, page, options);
  }
}
