import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  normalizeListOptions,
  ReactionPatterns,
  type EditReactionOption,
  type Page,
  type Reaction,
  type ReactionResult,
  type RpcRequest,
} from '@gitforge/contracts';
import { ReactionsService } from './reactions.service.js';

type IssueParams = { owner: string; repo: string; index: string };
type CommentParams = { owner: string; repo: string; id: string };

@Controller()
export class ReactionsController {
  constructor(private readonly reactions: ReactionsService) {}

  @MessagePattern(ReactionPatterns.listForIssue)
  listForIssue(
    @Payload() req: RpcRequest<IssueParams, undefined, { page?: string; limit?: string }>,
  ): Promise<Page<Reaction>> {
    const { owner, repo, index } = req.params;
    return this.reactions.listForIssue(req.actor, owner, repo, index, normalizeListOptions(req.query ?? {}));
  }

  @MessagePattern(ReactionPatterns.addToIssue)
  addToIssue(@Payload() req: RpcRequest<IssueParams, EditReactionOption>): Promise<ReactionResult> {
    return this.reactions.addToIssue(
      req.actor,
      req.params.owner,
      req.params.repo,
      req.params.index,
      req.body,
    );
  }

  @MessagePattern(ReactionPatterns.removeFromIssue)
  removeFromIssue(@Payload() req: RpcRequest<IssueParams, EditReactionOption>): Promise<void> {
    return this.reactions.removeFromIssue(
      req.actor,
      req.params.owner,
      req.params.repo,
      req.params.index,
      req.body,
    );
  }

  @MessagePattern(ReactionPatterns.listForComment)
  listForComment(@Payload() req: RpcRequest<CommentParams>): Promise<Reaction[]> {
    return this.reactions.listForComment(req.actor, req.params.owner, req.params.repo, req.params.id);
  }

  @MessagePattern(ReactionPatterns.addToComment)
  addToComment(@Payload() req: RpcRequest<CommentParams, EditReactionOption>): Promise<ReactionResult> {
    return this.reactions.addToComment(req.actor, req.params.owner, req.params.repo, req.params.id, req.body);
  }

  @MessagePattern(ReactionPatterns.removeFromComment)
  removeFromComment(@Payload() req: RpcRequest<CommentParams, EditReactionOption>): Promise<void> {
    return this.reactions.removeFromComment(
      req.actor,
      req.params.owner,
      req.params.repo,
      req.params.id,
      req.body,
    );
  }
}
