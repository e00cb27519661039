import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RepoTopicOptions, TopicPatterns, type Actor, type Page, type TopicName } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paged } from '../../http/paged.js';

/** `/repos/{owner}/{repo}/topics` (Gitea: any reader lists; repository admins change). */
@Controller('api/v1/repos/:owner/:repo/topics')
@Access({ scope: 'repository' })
export class RepoTopicsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly paged: Paged,
  ) {}

  /** Gitea answers `{topics: [...]}` with X-Total-Count and no Link. */
  @Get()
  async list(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: Record<string, string>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TopicName> {
    const page = await this.rpc.call<Page<string>>(TopicPatterns.list, {
      actor,
      params: { owner, repo },
      query,
    });
    return { topics: this.paged.send(req, reply, page, { link: false }) };
  }

  @Put()
  @Access({ repoRight: 'admin' })
  @HttpCode(204)
  async replace(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: RepoTopicOptions,
  ): Promise<void> {
    await this.rpc.call(TopicPatterns.replace, { actor, params: { owner, repo }, body });
  }

  @Put(':topic')
  @HttpCode(204)
  async add(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('topic') topic: string,
  ): Promise<void> {
    await this.rpc.call(TopicPatterns.add, { actor, params: { owner, repo, topic } });
  }

  @Delete(':topic')
  @HttpCode(204)
  async delete(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('topic') topic: string,
  ): Promise<void> {
    await this.rpc.call(TopicPatterns.delete, { actor, params: { owner, repo, topic } });
  }
}
