import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  IssuePatterns,
  normalizeListOptions,
  type CreateIssueOption,
  type EditDeadlineOption,
  type EditIssueOption,
  type Issue,
  type IssueAssigneesOption,
  type IssueDeadline,
  type LockIssueOption,
  type NewIssuePinsAllowed,
  type Page,
  type RpcRequest,
} from '@gitforge/contracts';
import { IssuesService, type IssueListQuery, type IssueSearchQuery } from './issues.service.js';

type RepoParams = { owner: string; repo: string };
type IssueParams = RepoParams & { index: string };

@Controller()
export class IssuesController {
  constructor(private readonly issues: IssuesService) {}

  @MessagePattern(IssuePatterns.create)
  create(@Payload() req: RpcRequest<RepoParams, CreateIssueOption>): Promise<Issue> {
    return this.issues.create(req.actor, req.params.owner, req.params.repo, req.body);
  }

  @MessagePattern(IssuePatterns.list)
  list(@Payload() req: RpcRequest<RepoParams, undefined, IssueListQuery & { page?: string; limit?: string }>): Promise<Page<Issue>> {
    return this.issues.list(req.actor, req.params.owner, req.params.repo, req.query, normalizeListOptions(req.query));
  }

  @MessagePattern(IssuePatterns.search)
  search(@Payload() req: RpcRequest<Record<string, string>, undefined, IssueSearchQuery & { page?: string; limit?: string }>): Promise<Page<Issue>> {
    return this.issues.search(req.actor, req.query, normalizeListOptions(req.query));
  }

  @MessagePattern(IssuePatterns.get)
  get(@Payload() req: RpcRequest<IssueParams>): Promise<Issue> {
    return this.issues.get(req.actor, req.params.owner, req.params.repo, req.params.index);
  }

  @MessagePattern(IssuePatterns.edit)
  edit(@Payload() req: RpcRequest<IssueParams, EditIssueOption>): Promise<Issue> {
    return this.issues.edit(req.actor, req.params.owner, req.params.repo, req.params.index, req.body);
  }

  @MessagePattern(IssuePatterns.delete)
  delete(@Payload() req: RpcRequest<IssueParams>): Promise<void> {
    return this.issues.delete(req.actor, req.params.owner, req.params.repo, req.params.index);
  }

  @MessagePattern(IssuePatterns.editDeadline)
  editDeadline(@Payload() req: RpcRequest<IssueParams, EditDeadlineOption>): Promise<IssueDeadline> {
    return this.issues.editDeadline(req.actor, req.params.owner, req.params.repo, req.params.index, req.body);
  }

  @MessagePattern(IssuePatterns.lock)
  lock(@Payload() req: RpcRequest<IssueParams, LockIssueOption>): Promise<void> {
    return this.issues.setLocked(req.actor, req.params.owner, req.params.repo, req.params.index, true, req.body);
  }

  @MessagePattern(IssuePatterns.unlock)
  unlock(@Payload() req: RpcRequest<IssueParams>): Promise<void> {
    return this.issues.setLocked(req.actor, req.params.owner, req.params.repo, req.params.index, false);
  }

  @MessagePattern(IssuePatterns.pin)
  pin(@Payload() req: RpcRequest<IssueParams>): Promise<void> {
    return this.issues.pin(req.actor, req.params.owner, req.params.repo, req.params.index);
  }

  @MessagePattern(IssuePatterns.unpin)
  unpin(@Payload() req: RpcRequest<IssueParams>): Promise<void> {
    return this.issues.unpin(req.actor, req.params.owner, req.params.repo, req.params.index);
  }

  @MessagePattern(IssuePatterns.movePin)
  movePin(@Payload() req: RpcRequest<IssueParams & { position: string }>): Promise<void> {
    return this.issues.movePin(req.actor, req.params.owner, req.params.repo, req.params.index, req.params.position);
  }

  @MessagePattern(IssuePatterns.newPinAllowed)
  newPinAllowed(@Payload() req: RpcRequest<RepoParams>): Promise<NewIssuePinsAllowed> {
    return this.issues.newPinAllowed(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(IssuePatterns.listPinned)
  listPinned(@Payload() req: RpcRequest<RepoParams & { kind?: string }>): Promise<Issue[]> {
    return this.issues.listPinned(req.actor, req.params.owner, req.params.repo, req.params.kind === 'pulls');
  }

  @MessagePattern(IssuePatterns.addAssignees)
  addAssignees(@Payload() req: RpcRequest<IssueParams, IssueAssigneesOption>): Promise<Issue> {
    return this.issues.changeAssignees(req.actor, req.params.owner, req.params.repo, req.params.index, req.body, true);
  }

  @MessagePattern(IssuePatterns.checkAssignee)
  checkAssignee(@Payload() req: RpcRequest<IssueParams & { assignee: string }>): Promise<void> {
    return this.issues.checkAssignee(req.actor, req.params.owner, req.params.repo, req.params.index, req.params.assignee);
  }

  @MessagePattern(IssuePatterns.removeAssignees)
  removeAssignees(@Payload() req: RpcRequest<IssueParams, IssueAssigneesOption>): Promise<Issue> {
    return this.issues.changeAssignees(req.actor, req.params.owner, req.params.repo, req.params.index, req.body, false);
  }
}
