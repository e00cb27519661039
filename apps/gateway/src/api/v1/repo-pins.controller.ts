import { Controller, Get, Param } from '@nestjs/common';
import { IssuePatterns, type Actor, type NewIssuePinsAllowed } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';

/** `GET /repos/{owner}/{repo}/new_pin_allowed` (Gitea: no check beyond seeing the repository). */
@Controller('api/v1/repos/:owner/:repo')
@Access({ scope: 'repository' })
export class RepoPinsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('new_pin_allowed')
  newPinAllowed(@CurrentActor() actor: Actor | null, @Param('owner') owner: string, @Param('repo') repo: string): Promise<NewIssuePinsAllowed> {
    return this.rpc.call<NewIssuePinsAllowed>(IssuePatterns.newPinAllowed, { actor, params: { owner, repo } });
  }
}
