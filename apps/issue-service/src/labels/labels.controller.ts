import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  LabelPatterns,
  normalizeListOptions,
  type CreateLabelOption,
  type EditLabelOption,
  type IssueLabelsOption,
  type Label,
  type Page,
  type RpcRequest,
} from '@gitforge/contracts';
import { IssueLabelsService } from './issue-labels.service.js';
import { LabelsService } from './labels.service.js';

type RepoParams = { owner: string; repo: string };
type OrgParams = { org: string };
type IssueParams = RepoParams & { index: string };
type PageQuery = { page?: string; limit?: string; sort?: string };

@Controller()
export class LabelsController {
  constructor(
    private readonly labels: LabelsService,
    private readonly issueLabels: IssueLabelsService,
  ) {}

  @MessagePattern(LabelPatterns.listForRepo)
  listForRepo(@Payload() req: RpcRequest<RepoParams, undefined, PageQuery>): Promise<Page<Label>> {
    return this.labels.listForRepo(req.actor, req.params.owner, req.params.repo, normalizeListOptions(req.query), req.query?.sort);
  }

  @MessagePattern(LabelPatterns.getForRepo)
  getForRepo(@Payload() req: RpcRequest<RepoParams & { id: string }>): Promise<Label> {
    return this.labels.getForRepo(req.actor, req.params.owner, req.params.repo, req.params.id);
  }

  @MessagePattern(LabelPatterns.createForRepo)
  createForRepo(@Payload() req: RpcRequest<RepoParams, CreateLabelOption>): Promise<Label> {
    return this.labels.createForRepo(req.actor, req.params.owner, req.params.repo, req.body);
  }

  @MessagePattern(LabelPatterns.editForRepo)
  editForRepo(@Payload() req: RpcRequest<RepoParams & { id: string }, EditLabelOption>): Promise<Label> {
    return this.labels.editForRepo(req.actor, req.params.owner, req.params.repo, req.params.id, req.body);
  }

  @MessagePattern(LabelPatterns.deleteForRepo)
  deleteForRepo(@Payload() req: RpcRequest<RepoParams & { id: string }>): Promise<void> {
    return this.labels.deleteForRepo(req.actor, req.params.owner, req.params.repo, req.params.id);
  }

  @MessagePattern(LabelPatterns.initializeForRepo)
  initializeForRepo(@Payload() req: RpcRequest<Record<string, string>, { repoId: number; template: string }>): Promise<number> {
    return this.labels.initializeForRepo(req.body.repoId, req.body.template);
  }

  @MessagePattern(LabelPatterns.listForOrg)
  listForOrg(@Payload() req: RpcRequest<OrgParams, undefined, PageQuery>): Promise<Page<Label>> {
    return this.labels.listForOrg(req.actor, req.params.org, normalizeListOptions(req.query), req.query?.sort);
  }

  @MessagePattern(LabelPatterns.getForOrg)
  getForOrg(@Payload() req: RpcRequest<OrgParams & { id: string }>): Promise<Label> {
    return this.labels.getForOrg(req.actor, req.params.org, req.params.id);
  }

  @MessagePattern(LabelPatterns.createForOrg)
  createForOrg(@Payload() req: RpcRequest<OrgParams, CreateLabelOption>): Promise<Label> {
    return this.labels.createForOrg(req.actor, req.params.org, req.body);
  }

  @MessagePattern(LabelPatterns.editForOrg)
  editForOrg(@Payload() req: RpcRequest<OrgParams & { id: string }, EditLabelOption>): Promise<Label> {
    return this.labels.editForOrg(req.actor, req.params.org, req.params.id, req.body);
  }

  @MessagePattern(LabelPatterns.deleteForOrg)
  deleteForOrg(@Payload() req: RpcRequest<OrgParams & { id: string }>): Promise<void> {
    return this.labels.deleteForOrg(req.actor, req.params.org, req.params.id);
  }

  @MessagePattern(LabelPatterns.listForIssue)
  listForIssue(@Payload() req: RpcRequest<IssueParams>): Promise<Label[]> {
    return this.issueLabels.list(req.actor, req.params.owner, req.params.repo, req.params.index);
  }

  @MessagePattern(LabelPatterns.addToIssue)
  addToIssue(@Payload() req: RpcRequest<IssueParams, IssueLabelsOption>): Promise<Label[]> {
    return this.issueLabels.add(req.actor, req.params.owner, req.params.repo, req.params.index, req.body ?? {});
  }

  @MessagePattern(LabelPatterns.replaceOnIssue)
  replaceOnIssue(@Payload() req: RpcRequest<IssueParams, IssueLabelsOption>): Promise<Label[]> {
    return this.issueLabels.replace(req.actor, req.params.owner, req.params.repo, req.params.index, req.body ?? {});
  }

  @MessagePattern(LabelPatterns.removeFromIssue)
  removeFromIssue(@Payload() req: RpcRequest<IssueParams & { id: string }>): Promise<void> {
    return this.issueLabels.remove(req.actor, req.params.owner, req.params.repo, req.params.index, req.params.id);
  }

  @MessagePattern(LabelPatterns.clearOnIssue)
  clearOnIssue(@Payload() req: RpcRequest<IssueParams>): Promise<void> {
    return this.issueLabels.clear(req.actor, req.params.owner, req.params.repo, req.params.index);
  }
}
