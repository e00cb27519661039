import { Injectable } from '@nestjs/common';
import {
  forbidden,
  notFound,
  pageOf,
  type Actor,
  type IssueParticipants,
  type ListOptions,
  type Page,
  type SubscriptionChange,
  type User,
  type WatchInfo,
  WatchPatterns,
} from '@gitforge/contracts';
import { Database, DirectoryClient, RpcClient } from '@gitforge/platform';
import { RepoGate } from '../access/repo-gate.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import { IssuesRepository } from '../issues/issues.repository.js';
import { IssuesService } from '../issues/issues.service.js';
import { ReviewsRepository } from '../reviews/reviews.repository.js';
import { followersOf } from './followers.js';
import { IssueWatchesRepository } from './issue-watches.repository.js';
import { toWatchInfo } from './watch-info.mapper.js';

/**
 * Who follows an issue (the notifications read it through {@link isSubscribed}): an explicit
 * choice wins; without one, its poster and its commenters follow it, as Gitea's CheckIssueWatch.
 */
@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly db: Database,
    private readonly issuesService: IssuesService,
    private readonly watches: IssueWatchesRepository,
    private readonly comments: CommentsRepository,
    private readonly directory: DirectoryClient,
    private readonly issues: IssuesRepository,
    private readonly reviews: ReviewsRepository,
    private readonly rpc: RpcClient,
    private readonly gate: RepoGate,
  ) {}

  /** `GET …/subscriptions`: the users who chose to follow the issue, a page at a time. */
  async list(
    actor: Actor | null,
    owner: string,
    repoName: string,
    index: string,
    options: ListOptions,
  ): Promise<Page<User>> {
    const { issue } = await this.issuesService.issueFor(actor, owner, repoName, index);
    const [rows, total] = await this.watches.watching(issue.id, options);
    const users = await this.directory.usersByIds(
      null,
      rows.map((r) => r.userId),
    );
    const items = rows
      .map((r) => users.find((u) => u.id === r.userId))
      .filter((u): u is User => u !== undefined);
    return pageOf(items, total, options);
  }

  /** `GET …/subscriptions/check`: the caller's own state. */
  async check(actor: Actor | null, owner: string, repoName: string, index: string): Promise<WatchInfo> {
    const a = await this.gate.signedIn(actor, owner, repoName);
    const { repo, issue } = await this.issuesService.issueFor(a, owner, repoName, index);
    return toWatchInfo(issue, repo, await this.isSubscribed(issue, a.id));
  }

  /** `PUT`/`DELETE …/subscriptions/{user}`: users change their own; site administrators anyone's. */
  async set(
    actor: Actor | null,
    owner: string,
    repoName: string,
    index: string,
    login: string,
    watch: boolean,
  ): Promise<SubscriptionChange> {
    const a = await this.gate.signedIn(actor, owner, repoName);
    const { issue } = await this.issuesService.issueFor(a, owner, repoName, index);
    const [account] = (await this.directory.accountsByNames(null, [login])).filter(
      (acc) => acc.login.toLowerCase() === login.toLowerCase(),
    );
    if (!account) throw notFound();
    if (account.id !== a.id && !a.isAdmin)
      throw forbidden(`${a.login} is not permitted to change subscriptions for ${account.login}`);
    if ((await this.isSubscribed(issue, account.id)) === watch) return { changed: false };
    await this.db.transaction((m) => this.watches.set(m, issue.id, account.id, watch, new Date()));
    return { changed: true };
  }

  /**
   * Who takes part in an issue, for the notification projector: its followers by the rule below,
   * those who unsubscribed, its assignees and requested reviewers, and its latest comment. An
   * issue that is gone has nobody.
   */
  async participants(issueId: number): Promise<IssueParticipants> {
    const issue = await this.issues.findById(issueId);
    if (!issue) return { followers: [], unsubscribed: [], assignees: [], reviewers: [], latestCommentId: 0, gone: true };
    const [commenters, choices, assignees, reviewers, latestCommentId] = await Promise.all([
      this.comments.commenterIds(issue.id),
      this.watches.choices(issue.id),
      this.issues.assigneesOf([issue.id]),
      issue.isPull ? this.reviews.requestedReviewers([issue.id]) : Promise.resolve(null),
      this.comments.latestCommentId(issue.id),
    ]);
    return {
      followers: followersOf(issue.posterId, commenters, choices),
      unsubscribed: choices.filter((c) => !c.isWatching).map((c) => c.userId),
      assignees: assignees.get(issue.id) ?? [],
      reviewers: reviewers?.get(issue.id)?.userIds ?? [],
      latestCommentId,
    };
  }

  /**
   * Whether the user follows the issue (Gitea's CheckIssueWatch): an explicit choice wins; without
   * one, taking part ({@link followersOf}) or watching the repository. The notifications decide by
   * the same rule (repo-service adds the watchers).
   */
  async isSubscribed(issue: IssueEntity, userId: number): Promise<boolean> {
    const [commenters, choices] = await Promise.all([
      this.comments.commenterIds(issue.id),
      this.watches.choices(issue.id),
    ]);
    const choice = choices.find((c) => c.userId === userId);
    if (choice) return choice.isWatching;
    if (followersOf(issue.posterId, commenters, choices).includes(userId)) return true;
    return this.rpc.call<boolean, Record<string, string>, { repoId: number; userId: number }>(WatchPatterns.isWatching, {
      actor: null,
      body: { repoId: issue.repoId, userId },
    });
  }
}
