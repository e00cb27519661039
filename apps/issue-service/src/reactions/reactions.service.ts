import { Injectable } from '@nestjs/common';
import {
  ALLOWED_REACTIONS,
  forbidden,
  notFound,
  pageOf,
  type Actor,
  type EditReactionOption,
  type ListOptions,
  type Page,
  type Reaction,
  type ReactionResult,
  type RepoAccess,
} from '@gitforge/contracts';
import { Database } from '@gitforge/platform';
import {
  canReadIssuesOrPulls,
  canWriteIssuesOrPulls,
  requireIssuesOrPulls,
  requireNotArchived,
  RepoGate,
} from '../access/repo-gate.js';
import { CommentsService } from '../comments/comments.service.js';
import { IssueLoader } from '../issues/issue-loader.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import { IssuesRepository } from '../issues/issues.repository.js';
import { parseIndex } from '../issues/issues.service.js';
import { requireAllowedReaction } from './allowed-reactions.js';
import type { ReactionEntity } from './reaction.entity.js';
import { toReaction } from './reaction.mapper.js';
import { ReactionsRepository, type ReactionTarget } from './reactions.repository.js';

/** What a reaction is given to, after the access checks of the reaction routes. */
interface Target {
  repo: RepoAccess;
  issue: IssueEntity;
  target: ReactionTarget;
}

@Injectable()
export class ReactionsService {
  constructor(
    private readonly db: Database,
    private readonly gate: RepoGate,
    private readonly issues: IssuesRepository,
    private readonly reactions: ReactionsRepository,
    private readonly comments: CommentsService,
    private readonly loader: IssueLoader,
  ) {}

  /** `GET …/issues/{index}/reactions`: a page, oldest first. */
  async listForIssue(
    actor: Actor | null,
    owner: string,
    repoName: string,
    index: string,
    options: ListOptions,
  ): Promise<Page<Reaction>> {
    const { repo, issue } = await this.issueTarget(actor, owner, repoName, index);
    if (!canReadIssuesOrPulls(repo, issue.isPull)) throw forbidden('no permission to get reactions');
    const [rows, total] = await this.reactions.list(
      { issueId: issue.id, commentId: 0 },
      ALLOWED_REACTIONS,
      options,
    );
    return pageOf(await this.toApi(rows), total, options);
  }

  /** `GET …/issues/comments/{id}/reactions`: all of them, oldest first. */
  async listForComment(
    actor: Actor | null,
    owner: string,
    repoName: string,
    id: string,
  ): Promise<Reaction[]> {
    const { target } = await this.commentTarget(actor, owner, repoName, id);
    const [rows] = await this.reactions.list(target, ALLOWED_REACTIONS);
    return this.toApi(rows);
  }

  async addToIssue(
    actor: Actor | null,
    owner: string,
    repoName: string,
    index: string,
    body: EditReactionOption,
  ): Promise<ReactionResult> {
    const a = await this.gate.signedIn(actor, owner, repoName);
    return this.add(a, await this.issueTarget(a, owner, repoName, index), body);
  }

  async removeFromIssue(
    actor: Actor | null,
    owner: string,
    repoName: string,
    index: string,
    body: EditReactionOption,
  ): Promise<void> {
    const a = await this.gate.signedIn(actor, owner, repoName);
    await this.remove(a, await this.issueTarget(a, owner, repoName, index), body);
  }

  async addToComment(
    actor: Actor | null,
    owner: string,
    repoName: string,
    id: string,
    body: EditReactionOption,
  ): Promise<ReactionResult> {
    const a = await this.gate.signedIn(actor, owner, repoName);
    return this.add(a, await this.commentTarget(a, owner, repoName, id), body);
  }

  async removeFromComment(
    actor: Actor | null,
    owner: string,
    repoName: string,
    id: string,
    body: EditReactionOption,
  ): Promise<void> {
    const a = await this.gate.signedIn(actor, owner, repoName);
    await this.remove(a, await this.commentTarget(a, owner, repoName, id), body);
  }

  /** 201 with the new reaction, or 200 with the one the user had already given. */
  private async add(actor: Actor, t: Target, body: EditReactionOption): Promise<ReactionResult> {
    this.requireMayReact(t);
    const content = requireAllowedReaction(body.content);
    // Transactions answer plain values (a retried request gets its first answer back as JSON).
    const created = await this.db.transaction(async (m) => (await this.reactions.add(m, t.target, actor.id, content, new Date())).created);
    const row = await this.reactions.find(t.target, actor.id, content);
    if (!row) throw notFound();
    const [reaction] = await this.toApi([row]);
    return { created, reaction: reaction! };
  }

  /** 200 whether or not the user had given that reaction, as Gitea. */
  private async remove(actor: Actor, t: Target, body: EditReactionOption): Promise<void> {
    this.requireMayReact(t);
    await this.db.transaction((m) => this.reactions.remove(m, t.target, actor.id, body.content ?? ''));
  }

  /** Archived repositories take no reactions; a locked issue only its writers'. */
  private requireMayReact(t: Target): void {
    if (!canReadIssuesOrPulls(t.repo, t.issue.isPull)) throw notFound();
    requireNotArchived(t.repo);
    if (t.issue.isLocked && !canWriteIssuesOrPulls(t.repo, t.issue.isPull))
      throw forbidden('no permission to change reaction');
  }

  /** The issue itself; an unreadable unit is checked by the caller (Gitea's list answers it with 403). */
  private async issueTarget(
    actor: Actor | null,
    owner: string,
    repoName: string,
    index: string,
  ): Promise<Target> {
    const repo = await this.gate.assign(actor, owner, repoName);
    requireIssuesOrPulls(repo);
    const issue = await this.issues.findByIndex(repo.id, parseIndex(index));
    if (!issue) throw notFound();
    return { repo, issue, target: { issueId: issue.id, commentId: 0 } };
  }

  private async commentTarget(
    actor: Actor | null,
    owner: string,
    repoName: string,
    id: string,
  ): Promise<Target> {
    const repo = await this.gate.assign(actor, owner, repoName);
    requireIssuesOrPulls(repo);
    const { comment, issue } = await this.comments.commentIn(repo, id);
    return { repo, issue, target: { issueId: issue.id, commentId: comment.id } };
  }

  private async toApi(rows: ReactionEntity[]): Promise<Reaction[]> {
    const user = await this.loader.posters(rows.map((r) => r.userId));
    return rows.map((r) => toReaction(r, user(r.userId)));
  }
}
