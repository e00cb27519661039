import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CommentPatterns,
  CreateIssueCommentOption,
  EditIssueCommentOption,
  EditReactionOption,
  IssueSubscriptionPatterns,
  ReactionPatterns,
  type Actor,
  type Comment,
  type Page,
  type Reaction,
  type ReactionResult,
  type SubscriptionChange,
  type TimelineComment,
  type User,
  type WatchInfo,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paged } from '../../http/paged.js';
import { Paginated } from '../../http/paginated.js';

type QueryParams = Record<string, string>;
type RepoParams = { owner: string; repo: string };
type IssueParams = RepoParams & { index: string };
type CommentParams = RepoParams & { id: string };

/**
 * Comments, the timeline, reactions and subscriptions of `/repos/{owner}/{repo}/issues…`
 * (token scope `issue`). Gitea's lists here send X-Total-Count without Link.
 */
@Controller('api/v1/repos/:owner/:repo/issues')
@Access({ scope: 'issue' })
export class RepoIssueCommentsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly paged: Paged,
  ) {}

  @Get('comments')
  @Paginated({ link: false })
  listForRepo(
    @CurrentActor() actor: Actor | null,
    @Param() params: RepoParams,
    @Query() query: QueryParams,
  ): Promise<Page<Comment>> {
    return this.rpc.call(CommentPatterns.listForRepo, { actor, params, query });
  }

  /** 204 for a timeline row that is not a comment, as Gitea. */
  @Get('comments/:id')
  async get(
    @CurrentActor() actor: Actor | null,
    @Param() params: CommentParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Comment | undefined> {
    const comment = await this.rpc.call<Comment | null>(CommentPatterns.get, { actor, params });
    if (comment) return comment;
    void reply.status(204);
    return undefined;
  }

  @Patch('comments/:id')
  edit(
    @CurrentActor() actor: Actor | null,
    @Param() params: CommentParams,
    @Body() body: EditIssueCommentOption,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Comment | undefined> {
    return this.editComment(actor, params, body, reply);
  }

  @Delete('comments/:id')
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor | null, @Param() params: CommentParams): Promise<void> {
    await this.rpc.call(CommentPatterns.delete, { actor, params });
  }

  @Get('comments/:id/reactions')
  async listCommentReactions(
    @CurrentActor() actor: Actor | null,
    @Param() params: CommentParams,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await sendReactions(
      reply,
      await this.rpc.call<Reaction[], CommentParams>(ReactionPatterns.listForComment, { actor, params }),
    );
  }

  @Post('comments/:id/reactions')
  async addCommentReaction(
    @CurrentActor() actor: Actor | null,
    @Param() params: CommentParams,
    @Body() body: EditReactionOption,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Reaction> {
    return this.reacted(
      await this.rpc.call<ReactionResult, CommentParams, EditReactionOption>(ReactionPatterns.addToComment, {
        actor,
        params,
        body,
      }),
      reply,
    );
  }

  /** Gitea answers 204 (changeIssueCommentReaction). */
  @Delete('comments/:id/reactions')
  @HttpCode(204)
  async removeCommentReaction(
    @CurrentActor() actor: Actor | null,
    @Param() params: CommentParams,
    @Body() body: EditReactionOption,
  ): Promise<void> {
    await this.rpc.call(ReactionPatterns.removeFromComment, { actor, params, body });
  }

  @Get(':index/comments')
  @Paginated({ link: false })
  listForIssue(
    @CurrentActor() actor: Actor | null,
    @Param() params: IssueParams,
    @Query() query: QueryParams,
  ): Promise<Page<Comment>> {
    return this.rpc.call(CommentPatterns.listForIssue, { actor, params, query });
  }

  @Post(':index/comments')
  @HttpCode(201)
  create(
    @CurrentActor() actor: Actor | null,
    @Param() params: IssueParams,
    @Body() body: CreateIssueCommentOption,
  ): Promise<Comment> {
    return this.rpc.call(CommentPatterns.create, { actor, params, body });
  }

  /** Deprecated: the issue number in the path is ignored. */
  @Patch(':index/comments/:id')
  editDeprecated(
    @CurrentActor() actor: Actor | null,
    @Param() params: IssueParams & { id: string },
    @Body() body: EditIssueCommentOption,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Comment | undefined> {
    return this.editComment(actor, { owner: params.owner, repo: params.repo, id: params.id }, body, reply);
  }

  /** Deprecated: the issue number in the path is ignored. */
  @Delete(':index/comments/:id')
  @HttpCode(204)
  async deleteDeprecated(
    @CurrentActor() actor: Actor | null,
    @Param() params: IssueParams & { id: string },
  ): Promise<void> {
    await this.rpc.call(CommentPatterns.delete, {
      actor,
      params: { owner: params.owner, repo: params.repo, id: params.id },
    });
  }

  /** Gitea's ListIssueCommentsAndTimeline: X-Total-Count only, and `null` for an issue with no history yet. */
  @Get(':index/timeline')
  @Paginated({ link: false, emptyAsNull: true })
  timeline(
    @CurrentActor() actor: Actor | null,
    @Param() params: IssueParams,
    @Query() query: QueryParams,
  ): Promise<Page<TimelineComment>> {
    return this.rpc.call(CommentPatterns.timeline, { actor, params, query });
  }

  /** X-Total-Count without Link, as Gitea. */
  @Get(':index/reactions')
  async listIssueReactions(
    @CurrentActor() actor: Actor | null,
    @Param() params: IssueParams,
    @Query() query: QueryParams,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const page = await this.rpc.call<Page<Reaction>, IssueParams, undefined, QueryParams>(
      ReactionPatterns.listForIssue,
      {
        actor,
        params,
        query,
      },
    );
    await sendReactions(reply, this.paged.send(request, reply, page, { link: false }));
  }

  @Post(':index/reactions')
  async addIssueReaction(
    @CurrentActor() actor: Actor | null,
    @Param() params: IssueParams,
    @Body() body: EditReactionOption,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Reaction> {
    return this.reacted(
      await this.rpc.call<ReactionResult, IssueParams, EditReactionOption>(ReactionPatterns.addToIssue, {
        actor,
        params,
        body,
      }),
      reply,
    );
  }

  /** Gitea answers 204 (changeIssueReaction). */
  @Delete(':index/reactions')
  @HttpCode(204)
  async removeIssueReaction(
    @CurrentActor() actor: Actor | null,
    @Param() params: IssueParams,
    @Body() body: EditReactionOption,
  ): Promise<void> {
    await this.rpc.call(ReactionPatterns.removeFromIssue, { actor, params, body });
  }

  @Get(':index/subscriptions')
  @Paginated({ link: false })
  subscribers(
    @CurrentActor() actor: Actor | null,
    @Param() params: IssueParams,
    @Query() query: QueryParams,
  ): Promise<Page<User>> {
    return this.rpc.call(IssueSubscriptionPatterns.list, { actor, params, query });
  }

  @Get(':index/subscriptions/check')
  checkSubscription(@CurrentActor() actor: Actor | null, @Param() params: IssueParams): Promise<WatchInfo> {
    return this.rpc.call(IssueSubscriptionPatterns.check, { actor, params });
  }

  /** 201 when the user is newly subscribed, 200 when already. */
  @Put(':index/subscriptions/:user')
  async subscribe(
    @CurrentActor() actor: Actor | null,
    @Param() params: IssueParams & { user: string },
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const change = await this.rpc.call<SubscriptionChange>(IssueSubscriptionPatterns.add, { actor, params });
    void reply.status(change.changed ? 201 : 200);
  }

  /** 201 when the user is newly unsubscribed, 200 when already. */
  @Delete(':index/subscriptions/:user')
  async unsubscribe(
    @CurrentActor() actor: Actor | null,
    @Param() params: IssueParams & { user: string },
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const change = await this.rpc.call<SubscriptionChange>(IssueSubscriptionPatterns.remove, {
      actor,
      params,
    });
    void reply.status(change.changed ? 201 : 200);
  }

  /** 200 with the comment, or Gitea's 204 for a timeline row without content. */
  private async editComment(
    actor: Actor | null,
    params: CommentParams,
    body: EditIssueCommentOption,
    reply: FastifyReply,
  ): Promise<Comment | undefined> {
    const comment = await this.rpc.call<Comment | null, CommentParams, EditIssueCommentOption>(
      CommentPatterns.edit,
      { actor, params, body },
    );
    if (comment) return comment;
    void reply.status(204);
    return undefined;
  }

  /** 201 with a new reaction, 200 with one the user had already given. */
  private reacted(result: ReactionResult, reply: FastifyReply): Reaction {
    void reply.status(result.created ? 201 : 200);
    return result.reaction;
  }
}

/** Gitea builds reaction lists as nil slices: no reaction is `null`, not `[]`. */
async function sendReactions(reply: FastifyReply, reactions: Reaction[]): Promise<void> {
  await reply
    .type('application/json; charset=utf-8')
    .send(reactions.length > 0 ? JSON.stringify(reactions) : 'null');
}
