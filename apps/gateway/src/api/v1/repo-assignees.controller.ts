import { Controller, Get, HttpCode, Param } from '@nestjs/common';
import { CollaboratorPatterns, type Actor, type User } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';

/** `/repos/{owner}/{repo}/assignees` and `/reviewers` (Gitea: reqToken, reqAnyRepoReader); whole lists, unpaged. */
@Controller('api/v1/repos/:owner/:repo')
@Access({ scope: 'repository', signIn: true })
export class RepoAssigneesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('assignees')
  assignees(@CurrentActor() actor: Actor, @Param('owner') owner: string, @Param('repo') repo: string): Promise<User[]> {
    return this.rpc.call<User[]>(CollaboratorPatterns.assignees, { actor, params: { owner, repo } });
  }

  @Get('assignees/:assignee')
  @HttpCode(204)
  async checkAssignee(@CurrentActor() actor: Actor, @Param() params: { owner: string; repo: string; assignee: string }): Promise<void> {
    await this.rpc.call(CollaboratorPatterns.checkAssignee, { actor, params });
  }

  @Get('reviewers')
  reviewers(@CurrentActor() actor: Actor, @Param('owner') owner: string, @Param('repo') repo: string): Promise<User[]> {
    return this.rpc.call<User[]>(CollaboratorPatterns.reviewers, { actor, params: { owner, repo } });
  }
}
