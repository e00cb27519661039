import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { TeamFactPatterns, type RpcRequest, type TeamFeedScope } from '@gitforge/contracts';
import { TeamFactsService } from './team-facts.service.js';

@Controller()
export class TeamFactsController {
  constructor(private readonly facts: TeamFactsService) {}

  @MessagePattern(TeamFactPatterns.feedScope)
  feedScope(@Payload() req: RpcRequest<Record<string, string>, { teamId: number }>): Promise<TeamFeedScope> {
    return this.facts.feedScope(req.actor, Number(req.body.teamId));
  }
}
