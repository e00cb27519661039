import { Body, Controller, Param, Post } from '@nestjs/common';
import { CreateRepoOption, RepoPatterns, type Actor, type Repository } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';

/**
 * Gitea's deprecated `POST /org/{org}/repos`, which old clients still call: the same as
 * `POST /orgs/{org}/repos`, but its token needs the repository scope as well.
 */
@Controller('api/v1/org')
@Access({ scope: ['organization', 'repository'], signIn: true })
export class OrgReposDeprecatedController {
  constructor(private readonly rpc: RpcClient) {}

  @Post(':org/repos')
  createRepo(@CurrentActor() actor: Actor, @Param('org') org: string, @Body() body: CreateRepoOption): Promise<Repository> {
    return this.rpc.call(RepoPatterns.createForOrg, { actor, params: { org }, body });
  }
}
