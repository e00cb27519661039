import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RepoTeamPatterns, type RpcRequest, type Team } from '@gitforge/contracts';
import { RepoTeamsService } from './repo-teams.service.js';

type RepoParams = { owner: string; repo: string };
type TeamParams = RepoParams & { team: string };

@Controller()
export class RepoTeamsController {
  constructor(private readonly teams: RepoTeamsService) {}

  @MessagePattern(RepoTeamPatterns.list)
  list(@Payload() req: RpcRequest<RepoParams>): Promise<Team[]> {
    return this.teams.list(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(RepoTeamPatterns.get)
  get(@Payload() req: RpcRequest<TeamParams>): Promise<Team> {
    return this.teams.get(req.actor, req.params.owner, req.params.repo, req.params.team);
  }

  @MessagePattern(RepoTeamPatterns.add)
  add(@Payload() req: RpcRequest<TeamParams>): Promise<void> {
    return this.teams.change(req.actor, req.params.owner, req.params.repo, req.params.team, true);
  }

  @MessagePattern(RepoTeamPatterns.remove)
  remove(@Payload() req: RpcRequest<TeamParams>): Promise<void> {
    return this.teams.change(req.actor, req.params.owner, req.params.repo, req.params.team, false);
  }
}
