import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  normalizeListOptions,
  TrackedTimePatterns,
  type AddTimeOption,
  type ListOptions,
  type Page,
  type RpcRequest,
  type StopWatch,
  type TrackedTime,
} from '@gitforge/contracts';
import { TimesService, type TimeListQuery } from './times.service.js';

type RepoParams = { owner: string; repo: string };
type IssueParams = RepoParams & { index: string };
type PageQuery = { page?: string; limit?: string };

/** Gitea pages these listings always (its GetListOptions makes the page at least 1), 30 to a page by default. */
function pageOf(query: PageQuery | undefined): ListOptions {
  return normalizeListOptions(query ?? {});
}

@Controller()
export class TimesController {
  constructor(private readonly times: TimesService) {}

  @MessagePattern(TrackedTimePatterns.listForIssue)
  listForIssue(@Payload() req: RpcRequest<IssueParams, undefined, TimeListQuery & PageQuery>): Promise<Page<TrackedTime>> {
    return this.times.listForIssue(req.actor, req.params.owner, req.params.repo, req.params.index, req.query ?? {}, pageOf(req.query));
  }

  @MessagePattern(TrackedTimePatterns.add)
  add(@Payload() req: RpcRequest<IssueParams, AddTimeOption>): Promise<TrackedTime> {
    return this.times.add(req.actor, req.params.owner, req.params.repo, req.params.index, req.body);
  }

  @MessagePattern(TrackedTimePatterns.reset)
  reset(@Payload() req: RpcRequest<IssueParams>): Promise<void> {
    return this.times.reset(req.actor, req.params.owner, req.params.repo, req.params.index);
  }

  @MessagePattern(TrackedTimePatterns.delete)
  delete(@Payload() req: RpcRequest<IssueParams & { id: string }>): Promise<void> {
    return this.times.delete(req.actor, req.params.owner, req.params.repo, req.params.index, req.params.id);
  }

  @MessagePattern(TrackedTimePatterns.listForRepoUser)
  listForRepoUser(@Payload() req: RpcRequest<RepoParams & { user: string }>): Promise<TrackedTime[]> {
    return this.times.listForRepoUser(req.actor, req.params.owner, req.params.repo, req.params.user);
  }

  @MessagePattern(TrackedTimePatterns.listForRepo)
  listForRepo(@Payload() req: RpcRequest<RepoParams, undefined, TimeListQuery & PageQuery>): Promise<Page<TrackedTime>> {
    return this.times.listForRepo(req.actor, req.params.owner, req.params.repo, req.query ?? {}, pageOf(req.query));
  }

  @MessagePattern(TrackedTimePatterns.listForActor)
  listForActor(@Payload() req: RpcRequest<Record<string, string>, undefined, TimeListQuery & PageQuery>): Promise<Page<TrackedTime>> {
    return this.times.listForActor(req.actor, req.query ?? {}, pageOf(req.query));
  }

  @MessagePattern(TrackedTimePatterns.startStopwatch)
  startStopwatch(@Payload() req: RpcRequest<IssueParams>): Promise<void> {
    return this.times.startStopwatch(req.actor, req.params.owner, req.params.repo, req.params.index);
  }

  @MessagePattern(TrackedTimePatterns.stopStopwatch)
  stopStopwatch(@Payload() req: RpcRequest<IssueParams>): Promise<void> {
    return this.times.stopStopwatch(req.actor, req.params.owner, req.params.repo, req.params.index);
  }

  @MessagePattern(TrackedTimePatterns.deleteStopwatch)
  deleteStopwatch(@Payload() req: RpcRequest<IssueParams>): Promise<void> {
    return this.times.deleteStopwatch(req.actor, req.params.owner, req.params.repo, req.params.index);
  }

  @MessagePattern(TrackedTimePatterns.listStopwatches)
  listStopwatches(@Payload() req: RpcRequest<Record<string, string>, undefined, PageQuery>): Promise<Page<StopWatch>> {
    return this.times.listStopwatches(req.actor, pageOf(req.query));
  }
}
