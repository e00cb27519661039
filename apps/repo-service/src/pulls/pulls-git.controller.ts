import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  PullGitPatterns,
  type ChangedFile,
  type Commit,
  type Page,
  type PullBranchRequest,
  type PullGitState,
  type PullHeadDeleteRequest,
  type PullMergeRequest,
  type PullMergeResult,
  type PullPolicy,
  type PullPolicyRequest,
  type PullRangeRequest,
  type PullSides,
  type PullSyncRequest,
  type PullUpdateRequest,
  type RawText,
  type RpcRequest,
} from '@gitforge/contracts';
import { PullMergeService } from './pull-merge.service.js';
import { PullPolicyService } from './pull-policy.service.js';
import { PullRangeService } from './pull-range.service.js';
import { PullStateService } from './pull-state.service.js';

type Req<B> = RpcRequest<Record<string, string>, B>;

/** The git side of pull requests, asked by issue-service (which has checked access). */
@Controller()
export class PullsGitController {
  constructor(
    private readonly state: PullStateService,
    private readonly range: PullRangeService,
    private readonly merges: PullMergeService,
    private readonly policies: PullPolicyService,
  ) {}

  @MessagePattern(PullGitPatterns.inspect)
  inspect(@Payload() req: Req<PullSides>): Promise<PullGitState> {
    return this.state.inspect(req.body);
  }

  @MessagePattern(PullGitPatterns.sync)
  sync(@Payload() req: Req<PullSyncRequest>): Promise<Array<PullGitState | null>> {
    return this.state.sync(req.body.items);
  }

  @MessagePattern(PullGitPatterns.diff)
  diff(@Payload() req: Req<PullRangeRequest>): Promise<RawText> {
    return this.range.diff(req.body);
  }

  @MessagePattern(PullGitPatterns.files)
  files(@Payload() req: Req<PullRangeRequest>): Promise<Page<ChangedFile>> {
    return this.range.files(req.body);
  }

  @MessagePattern(PullGitPatterns.commits)
  commits(@Payload() req: Req<PullRangeRequest>): Promise<Page<Commit>> {
    return this.range.commits(req.body);
  }

  @MessagePattern(PullGitPatterns.merge)
  merge(@Payload() req: Req<PullMergeRequest>): Promise<PullMergeResult> {
    return this.merges.merge(req.body, req.actor);
  }

  @MessagePattern(PullGitPatterns.deleteHead)
  deleteHead(@Payload() req: Req<PullHeadDeleteRequest>): Promise<boolean> {
    return this.merges.deleteMergedHead(req.body);
  }

  @MessagePattern(PullGitPatterns.update)
  update(@Payload() req: Req<PullUpdateRequest>): Promise<{ headSha: string }> {
    return this.merges.update(req.body);
  }

  @MessagePattern(PullGitPatterns.policy)
  policy(@Payload() req: Req<PullPolicyRequest>): Promise<PullPolicy> {
    return this.policies.policy(req.body);
  }

  @MessagePattern(PullGitPatterns.branchHead)
  branchHead(@Payload() req: Req<PullBranchRequest>): Promise<{ sha: string | null }> {
    return this.state.branchHead(req.body);
  }
}
