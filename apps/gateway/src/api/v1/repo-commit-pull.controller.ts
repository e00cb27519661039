import { Controller, Get, Param } from '@nestjs/common';
import { PullPatterns, type Actor, type PullRequest } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';

/** `GET /repos/{owner}/{repo}/commits/{sha}/pull`: the pull request a commit was merged by. */
@Controller('api/v1/repos/:owner/:repo')
@Access({ scope: 'repository' })
export class RepoCommitPullController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('commits/:sha/pull')
  pull(@CurrentActor() actor: Actor | null, @Param('owner') owner: string, @Param('repo') repo: string, @Param('sha') sha: string): Promise<PullRequest> {
    return this.rpc.call<PullRequest>(PullPatterns.getByMergedCommit, { actor, params: { owner, repo, sha } });
  }
}
