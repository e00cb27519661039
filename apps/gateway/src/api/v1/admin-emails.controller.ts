import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UserPatterns, type Actor, type Email, type Page } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paged } from '../../http/paged.js';

/** `/admin/emails`: every individual's e-mail addresses, for site administrators. */
@Controller('api/v1/admin/emails')
@Access({ admin: true, scope: 'admin' })
export class AdminEmailsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly paged: Paged,
  ) {}

  @Get()
  async list(
    @CurrentActor() actor: Actor,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Email[]> {
    const paging = { page: query.page, limit: query.limit };
    return this.paged.send(req, reply, await this.rpc.call<Page<Email>>(UserPatterns.searchEmails, { actor, query: paging }));
  }

  /** `q` matches the address, the login and the full name. */
  @Get('search')
  async search(
    @CurrentActor() actor: Actor,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Email[]> {
    return this.paged.send(req, reply, await this.rpc.call<Page<Email>>(UserPatterns.searchEmails, { actor, query }));
  }
}
