import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RepoTransferPatterns, TransferRepoOption, type Actor, type Repository, type RepoTransferStarted } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';

/**
 * `/repos/{owner}/{repo}/transfer[/accept|/reject]`. Gitea looks the repository up (404, or the
 * redirect of an old name) before asking for a token, so sign-in is left to the service.
 */
@Controller('api/v1/repos/:owner/:repo/transfer')
@Access({ scope: 'repository' })
export class RepoTransfersController {
  constructor(private readonly rpc: RpcClient) {}

  /** 201 while the transfer waits for its recipient, 202 when it completed at once. */
  @Post()
  @Access({ repoRight: 'owner' })
  async start(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: TransferRepoOption,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Repository> {
    const started = await this.rpc.call<RepoTransferStarted, { owner: string; repo: string }, TransferRepoOption>(RepoTransferPatterns.start, { actor, params: { owner, repo }, body });
    void reply.status(started.pending ? 201 : 202);
    return started.repository;
  }

  @Post('accept')
  @HttpCode(202)
  accept(@CurrentActor() actor: Actor | null, @Param('owner') owner: string, @Param('repo') repo: string): Promise<Repository> {
    return this.rpc.call(RepoTransferPatterns.accept, { actor, params: { owner, repo } });
  }

  /** 200, as Gitea answers a rejection. */
  @Post('reject')
  @HttpCode(200)
  reject(@CurrentActor() actor: Actor | null, @Param('owner') owner: string, @Param('repo') repo: string): Promise<Repository> {
    return this.rpc.call(RepoTransferPatterns.reject, { actor, params: { owner, repo } });
  }
}
