import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  CreatePullReviewCommentReplyOptions,
  CreatePullReviewOptions,
  DismissPullReviewOptions,
  PullReviewPatterns,
  PullReviewRequestOptions,
  SubmitPullReviewOptions,
  type Actor,
  type Page,
  type PullReview,
  type PullReviewComment,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

type QueryParams = Record<string, string>;
type PullParams = { owner: string; repo: string; index: string };
type ReviewParams = PullParams & { id: string };

/**
 * Reviews and review requests of `/repos/{owner}/{repo}/pulls…` (Gitea's pull routes: token
 * scope `repository`). Gitea's review list sends X-Total-Count without Link.
 */
@Controller('api/v1/repos/:owner/:repo/pulls')
@Access({ scope: 'repository' })
export class RepoPullReviewsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(':index/reviews')
  @Paginated({ link: false })
  list(@CurrentActor() actor: Actor | null, @Param() params: PullParams, @Query() query: QueryParams): Promise<Page<PullReview>> {
    return this.rpc.call(PullReviewPatterns.list, { actor, params, query });
  }

  /** Gitea answers 200 (not 201) with the review. */
  @Post(':index/reviews')
  @HttpCode(200)
  create(@CurrentActor() actor: Actor | null, @Param() params: PullParams, @Body() body: CreatePullReviewOptions): Promise<PullReview> {
    return this.rpc.call(PullReviewPatterns.create, { actor, params, body });
  }

  @Get(':index/reviews/:id')
  get(@CurrentActor() actor: Actor | null, @Param() params: ReviewParams): Promise<PullReview> {
    return this.rpc.call(PullReviewPatterns.get, { actor, params });
  }

  @Post(':index/reviews/:id')
  @HttpCode(200)
  submit(@CurrentActor() actor: Actor | null, @Param() params: ReviewParams, @Body() body: SubmitPullReviewOptions): Promise<PullReview> {
    return this.rpc.call(PullReviewPatterns.submit, { actor, params, body });
  }

  @Delete(':index/reviews/:id')
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor | null, @Param() params: ReviewParams): Promise<void> {
    await this.rpc.call(PullReviewPatterns.delete, { actor, params });
  }

  @Get(':index/reviews/:id/comments')
  listComments(@CurrentActor() actor: Actor | null, @Param() params: ReviewParams): Promise<PullReviewComment[]> {
    return this.rpc.call(PullReviewPatterns.listComments, { actor, params });
  }

  @Post(':index/reviews/:id/dismissals')
  @HttpCode(200)
  dismiss(@CurrentActor() actor: Actor | null, @Param() params: ReviewParams, @Body() body: DismissPullReviewOptions): Promise<PullReview> {
    return this.rpc.call(PullReviewPatterns.dismiss, { actor, params, body });
  }

  @Post(':index/reviews/:id/undismissals')
  @HttpCode(200)
  undismiss(@CurrentActor() actor: Actor | null, @Param() params: ReviewParams): Promise<PullReview> {
    return this.rpc.call(PullReviewPatterns.undismiss, { actor, params });
  }

  @Post(':index/requested_reviewers')
  @HttpCode(201)
  requestReviewers(@CurrentActor() actor: Actor | null, @Param() params: PullParams, @Body() body: PullReviewRequestOptions): Promise<PullReview[]> {
    return this.rpc.call(PullReviewPatterns.requestReviewers, { actor, params, body });
  }

  @Delete(':index/requested_reviewers')
  @HttpCode(204)
  async removeReviewRequests(@CurrentActor() actor: Actor | null, @Param() params: PullParams, @Body() body: PullReviewRequestOptions): Promise<void> {
    await this.rpc.call(PullReviewPatterns.removeReviewRequests, { actor, params, body });
  }

  @Post(':index/comments/:id/replies')
  reply(@CurrentActor() actor: Actor | null, @Param() params: ReviewParams, @Body() body: CreatePullReviewCommentReplyOptions): Promise<PullReviewComment> {
    return this.rpc.call(PullReviewPatterns.replyToComment, { actor, params, body });
  }

  @Post('comments/:id/resolve')
  @HttpCode(204)
  async resolve(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; id: string }): Promise<void> {
    await this.rpc.call(PullReviewPatterns.resolveComment, { actor, params });
  }

  @Post('comments/:id/unresolve')
  @HttpCode(204)
  async unresolve(@CurrentActor() actor: Actor | null, @Param() params: { owner: string; repo: string; id: string }): Promise<void> {
    await this.rpc.call(PullReviewPatterns.unresolveComment, { actor, params });
  }
}
