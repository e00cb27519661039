import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CommentPatterns,
  normalizeListOptions,
  type Comment,
  type CreateIssueCommentOption,
  type EditIssueCommentOption,
  type Page,
  type RpcRequest,
  type TimelineComment,
} from '@gitforge/contracts';
import { CommentsService, type CommentListQuery } from './comments.service.js';

type RepoParams = { owner: string; repo: string };
type IssueParams = RepoParams & { index: string };
type CommentParams = RepoParams & { id: string };
type ListQuery = CommentListQuery & { page?: string; limit?: string };

@Controller()
export class CommentsController {
  constructor(private readonly comments: CommentsService) {}

  @MessagePattern(CommentPatterns.listForIssue)
  listForIssue(@Payload() req: RpcRequest<IssueParams, undefined, CommentListQuery>): Promise<Page<Comment>> {
    return this.comments.listForIssue(
      req.actor,
      req.params.owner,
      req.params.repo,
      req.params.index,
      req.query ?? {},
    );
  }

  @MessagePattern(CommentPatterns.listForRepo)
  listForRepo(@Payload() req: RpcRequest<RepoParams, undefined, ListQuery>): Promise<Page<Comment>> {
    const query = req.query ?? {};
    return this.comments.listForRepo(
      req.actor,
      req.params.owner,
      req.params.repo,
      query,
      normalizeListOptions(query),
    );
  }

  @MessagePattern(CommentPatterns.get)
  get(@Payload() req: RpcRequest<CommentParams>): Promise<Comment | null> {
    return this.comments.get(req.actor, req.params.owner, req.params.repo, req.params.id);
  }

  @MessagePattern(CommentPatterns.create)
  create(@Payload() req: RpcRequest<IssueParams, CreateIssueCommentOption>): Promise<Comment> {
    return this.comments.create(req.actor, req.params.owner, req.params.repo, req.params.index, req.body);
  }

  @MessagePattern(CommentPatterns.edit)
  edit(@Payload() req: RpcRequest<CommentParams, EditIssueCommentOption>): Promise<Comment | null> {
    return this.comments.edit(req.actor, req.params.owner, req.params.repo, req.params.id, req.body);
  }

  @MessagePattern(CommentPatterns.delete)
  delete(@Payload() req: RpcRequest<CommentParams>): Promise<void> {
    return this.comments.delete(req.actor, req.params.owner, req.params.repo, req.params.id);
  }

  @MessagePattern(CommentPatterns.timeline)
  timeline(@Payload() req: RpcRequest<IssueParams, undefined, ListQuery>): Promise<Page<TimelineComment>> {
    const query = req.query ?? {};
    return this.comments.timeline(
      req.actor,
      req.params.owner,
      req.params.repo,
      req.params.index,
      query,
      normalizeListOptions(query),
    );
  }
}
