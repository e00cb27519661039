import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CollaboratorPatterns,
  normalizeListOptions,
  type AddCollaboratorOption,
  type Page,
  type RepoCollaboratorPermission,
  type RpcRequest,
  type User,
} from '@gitforge/contracts';
import { CollaboratorsService } from './collaborators.service.js';

type RepoParams = { owner: string; repo: string };
type UserParams = RepoParams & { collaborator: string };

@Controller()
export class CollaboratorsController {
  constructor(private readonly collaborators: CollaboratorsService) {}

  @MessagePattern(CollaboratorPatterns.list)
  list(@Payload() req: RpcRequest<RepoParams>): Promise<Page<User>> {
    return this.collaborators.list(req.actor, req.params.owner, req.params.repo, normalizeListOptions(req.query));
  }

  @MessagePattern(CollaboratorPatterns.check)
  check(@Payload() req: RpcRequest<UserParams>): Promise<void> {
    return this.collaborators.check(req.actor, req.params.owner, req.params.repo, req.params.collaborator);
  }

  @MessagePattern(CollaboratorPatterns.add)
  add(@Payload() req: RpcRequest<UserParams, AddCollaboratorOption>): Promise<void> {
    return this.collaborators.add(req.actor, req.params.owner, req.params.repo, req.params.collaborator, req.body);
  }

  @MessagePattern(CollaboratorPatterns.removeUser)
  removeUser(@Payload() req: RpcRequest<Record<string, string>, { userId: number }>): Promise<void> {
    return this.collaborators.removeUser(req.actor, req.body.userId);
  }

  @MessagePattern(CollaboratorPatterns.remove)
  remove(@Payload() req: RpcRequest<UserParams>): Promise<void> {
    return this.collaborators.remove(req.actor, req.params.owner, req.params.repo, req.params.collaborator);
  }

  @MessagePattern(CollaboratorPatterns.assignees)
  assignees(@Payload() req: RpcRequest<RepoParams>): Promise<User[]> {
    return this.collaborators.assignees(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(CollaboratorPatterns.checkAssignee)
  checkAssignee(@Payload() req: RpcRequest<RepoParams & { assignee: string }>): Promise<void> {
    return this.collaborators.checkAssignee(req.actor, req.params.owner, req.params.repo, req.params.assignee);
  }

  @MessagePattern(CollaboratorPatterns.reviewers)
  reviewers(@Payload() req: RpcRequest<RepoParams>): Promise<User[]> {
    return this.collaborators.reviewers(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(CollaboratorPatterns.permission)
  permission(@Payload() req: RpcRequest<UserParams>): Promise<RepoCollaboratorPermission> {
    return this.collaborators.permission(req.actor, req.params.owner, req.params.repo, req.params.collaborator);
  }
}
