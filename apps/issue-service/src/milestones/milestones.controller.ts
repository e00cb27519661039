import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  MilestonePatterns,
  normalizeListOptions,
  type CreateMilestoneOption,
  type EditMilestoneOption,
  type Milestone,
  type Page,
  type RpcRequest,
} from '@gitforge/contracts';
import { MilestonesService, type MilestoneListQuery } from './milestones.service.js';

type RepoParams = { owner: string; repo: string };
type MilestoneParams = RepoParams & { id: string };

@Controller()
export class MilestonesController {
  constructor(private readonly milestones: MilestonesService) {}

  @MessagePattern(MilestonePatterns.list)
  list(@Payload() req: RpcRequest<RepoParams, undefined, MilestoneListQuery & { page?: string; limit?: string }>): Promise<Page<Milestone>> {
    return this.milestones.list(req.actor, req.params.owner, req.params.repo, req.query, normalizeListOptions(req.query));
  }

  @MessagePattern(MilestonePatterns.get)
  get(@Payload() req: RpcRequest<MilestoneParams>): Promise<Milestone> {
    return this.milestones.get(req.actor, req.params.owner, req.params.repo, req.params.id);
  }

  @MessagePattern(MilestonePatterns.create)
  create(@Payload() req: RpcRequest<RepoParams, CreateMilestoneOption>): Promise<Milestone> {
    return this.milestones.create(req.actor, req.params.owner, req.params.repo, req.body);
  }

  @MessagePattern(MilestonePatterns.edit)
  edit(@Payload() req: RpcRequest<MilestoneParams, EditMilestoneOption>): Promise<Milestone> {
    return this.milestones.edit(req.actor, req.params.owner, req.params.repo, req.params.id, req.body);
  }

  @MessagePattern(MilestonePatterns.delete)
  delete(@Payload() req: RpcRequest<MilestoneParams>): Promise<void> {
    return this.milestones.delete(req.actor, req.params.owner, req.params.repo, req.params.id);
  }
}
