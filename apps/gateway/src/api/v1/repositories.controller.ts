import { Controller, Get, Param } from '@nestjs/common';
import { RepoPatterns, type Actor, type Repository } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';

/** `/repositories/{id}`: Gitea asks for a token before anything else here. */
@Controller('api/v1/repositories')
@Access({ signIn: true, scope: 'repository' })
export class RepositoriesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<Repository> {
    return this.rpc.call(RepoPatterns.getById, { actor, params: { id } });
  }
}
