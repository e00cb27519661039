import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateRepoOption, RepoPatterns, UserPatterns, type Actor, type Page, type Repository, type User } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paged } from '../../http/paged.js';

/** `/user`: the authenticated user. */
@Controller('api/v1/user')
@Access({ signIn: true, scope: 'user' })
export class UserController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly paged: Paged,
  ) {}

  @Get()
  get(@CurrentActor() actor: Actor): Promise<User> {
    return this.rpc.call(UserPatterns.getSelf, { actor });
  }

  @Get('repos')
  @Access({ scope: 'repository' })
  async repos(
    @CurrentActor() actor: Actor,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Repository[]> {
    return this.paged.send(req, reply, await this.rpc.call<Page<Repository>>(RepoPatterns.listForActor, { actor, query }));
  }

  @Post('repos')
  @Access({ scope: 'repository' })
  createRepo(@CurrentActor() actor: Actor, @Body() body: CreateRepoOption): Promise<Repository> {
    return this.rpc.call(RepoPatterns.createForActor, { actor, body });
  }
}
