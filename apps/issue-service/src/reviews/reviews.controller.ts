import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  normalizeListOptions,
  PullReviewPatterns,
  type CreatePullReviewCommentReplyOptions,
  type CreatePullReviewOptions,
  type DismissPullReviewOptions,
  type Page,
  type PullReview,
  type PullReviewComment,
  type PullReviewRequestOptions,
  type RpcRequest,
  type SubmitPullReviewOptions,
} from '@gitforge/contracts';
import { ReviewsService } from './reviews.service.js';

type PullParams = { owner: string; repo: string; index: string };
type ReviewParams = PullParams & { id: string };

@Controller()
export class ReviewsController {
  constructor(private readonly reviews: ReviewsService) {}

  @MessagePattern(PullReviewPatterns.list)
  list(@Payload() req: RpcRequest<PullParams, undefined, { page?: string; limit?: string }>): Promise<Page<PullReview>> {
    const p = req.params;
    return this.reviews.list(req.actor, p.owner, p.repo, p.index, normalizeListOptions(req.query));
  }

  @MessagePattern(PullReviewPatterns.get)
  get(@Payload() req: RpcRequest<ReviewParams>): Promise<PullReview> {
    const p = req.params;
    return this.reviews.get(req.actor, p.owner, p.repo, p.index, p.id);
  }

  @MessagePattern(PullReviewPatterns.create)
  create(@Payload() req: RpcRequest<PullParams, CreatePullReviewOptions>): Promise<PullReview> {
    const p = req.params;
    return this.reviews.create(req.actor, p.owner, p.repo, p.index, req.body);
  }

  @MessagePattern(PullReviewPatterns.submit)
  submit(@Payload() req: RpcRequest<ReviewParams, SubmitPullReviewOptions>): Promise<PullReview> {
    const p = req.params;
    return this.reviews.submit(req.actor, p.owner, p.repo, p.index, p.id, req.body);
  }

  @MessagePattern(PullReviewPatterns.delete)
  delete(@Payload() req: RpcRequest<ReviewParams>): Promise<void> {
    const p = req.params;
    return this.reviews.delete(req.actor, p.owner, p.repo, p.index, p.id);
  }

  @MessagePattern(PullReviewPatterns.listComments)
  listComments(@Payload() req: RpcRequest<ReviewParams>): Promise<PullReviewComment[]> {
    const p = req.params;
    return this.reviews.listComments(req.actor, p.owner, p.repo, p.index, p.id);
  }

  @MessagePattern(PullReviewPatterns.dismiss)
  dismiss(@Payload() req: RpcRequest<ReviewParams, DismissPullReviewOptions>): Promise<PullReview> {
    const p = req.params;
    return this.reviews.dismiss(req.actor, p.owner, p.repo, p.index, p.id, true, req.body);
  }

  @MessagePattern(PullReviewPatterns.undismiss)
  undismiss(@Payload() req: RpcRequest<ReviewParams>): Promise<PullReview> {
    const p = req.params;
    return this.reviews.dismiss(req.actor, p.owner, p.repo, p.index, p.id, false);
  }

  @MessagePattern(PullReviewPatterns.requestReviewers)
  requestReviewers(@Payload() req: RpcRequest<PullParams, PullReviewRequestOptions>): Promise<PullReview[]> {
    const p = req.params;
    return this.reviews.changeRequests(req.actor, p.owner, p.repo, p.index, req.body, true);
  }

  @MessagePattern(PullReviewPatterns.removeReviewRequests)
  async removeReviewRequests(@Payload() req: RpcRequest<PullParams, PullReviewRequestOptions>): Promise<void> {
    const p = req.params;
    await this.reviews.changeRequests(req.actor, p.owner, p.repo, p.index, req.body, false);
  }

  @MessagePattern(PullReviewPatterns.replyToComment)
  reply(@Payload() req: RpcRequest<ReviewParams, CreatePullReviewCommentReplyOptions>): Promise<PullReviewComment> {
    const p = req.params;
    return this.reviews.reply(req.actor, p.owner, p.repo, p.index, p.id, req.body);
  }

  @MessagePattern(PullReviewPatterns.resolveComment)
  resolve(@Payload() req: RpcRequest<{ owner: string; repo: string; id: string }>): Promise<void> {
    return this.reviews.resolve(req.actor, req.params.owner, req.params.repo, req.params.id, true);
  }

  @MessagePattern(PullReviewPatterns.unresolveComment)
  unresolve(@Payload() req: RpcRequest<{ owner: string; repo: string; id: string }>): Promise<void> {
    return this.reviews.resolve(req.actor, req.params.owner, req.params.repo, req.params.id, false);
  }
}
