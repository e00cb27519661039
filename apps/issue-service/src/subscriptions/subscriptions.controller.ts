import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  IssueSubscriptionPatterns,
  normalizeListOptions,
  type IssueParticipants,
  type Page,
  type RpcRequest,
  type SubscriptionChange,
  type User,
  type WatchInfo,
} from '@gitforge/contracts';
import { SubscriptionsService } from './subscriptions.service.js';

type IssueParams = { owner: string; repo: string; index: string };

@Controller()
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @MessagePattern(IssueSubscriptionPatterns.list)
  list(
    @Payload() req: RpcRequest<IssueParams, undefined, { page?: string; limit?: string }>,
  ): Promise<Page<User>> {
    return this.subscriptions.list(
      req.actor,
      req.params.owner,
      req.params.repo,
      req.params.index,
      normalizeListOptions(req.query ?? {}),
    );
  }

  @MessagePattern(IssueSubscriptionPatterns.participants)
  participants(@Payload() req: RpcRequest<Record<string, string>, { issueId: number }>): Promise<IssueParticipants> {
    return this.subscriptions.participants(req.body.issueId);
  }

  @MessagePattern(IssueSubscriptionPatterns.check)
  check(@Payload() req: RpcRequest<IssueParams>): Promise<WatchInfo> {
    return this.subscriptions.check(req.actor, req.params.owner, req.params.repo, req.params.index);
  }

  @MessagePattern(IssueSubscriptionPatterns.add)
  add(@Payload() req: RpcRequest<IssueParams & { user: string }>): Promise<SubscriptionChange> {
    return this.subscriptions.set(
      req.actor,
      req.params.owner,
      req.params.repo,
      req.params.index,
      req.params.user,
      true,
    );
  }

  @MessagePattern(IssueSubscriptionPatterns.remove)
  remove(@Payload() req: RpcRequest<IssueParams & { user: string }>): Promise<SubscriptionChange> {
    return this.subscriptions.set(
      req.actor,
      req.params.owner,
      req.params.repo,
      req.params.index,
      req.params.user,
      false,
    );
  }
}
