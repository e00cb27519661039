import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor, Issue, PullRequest, RepoAccess, Repository, Team, User } from '@gitforge/contracts';
import { DirectoryClient } from '@gitforge/platform';
import { RepoGate } from '../access/repo-gate.js';
import { ReviewsRepository } from '../reviews/reviews.repository.js';
import { IssueLoader } from '../issues/issue-loader.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import type { PullRequestEntity } from './pull-request.entity.js';
import { toPullRequest } from './pull.mapper.js';
import { PullsRepository } from './pulls.repository.js';

export interface PullLoadOptions {
  m?: EntityManager;
  /** A single pull's answer: with Gitea's omitempty counts (review comments, diff stats). */
  single?: boolean;
  /** Users already fetched (an event's sender, who is often the merger): not asked again. */
  known?: User[];
}

/**
 * Turns issues of pull requests into Gitea's PullRequest shape, a page at a time: one query for
 * the pull rows, one for review requests, one repo-service call for the head repositories that
 * are not the base, one directory call for mergers and requested reviewers.
 */
@Injectable()
export class PullLoader {
  constructor(
    private readonly pulls: PullsRepository,
    private readonly reviews: ReviewsRepository,
    private readonly issues: IssueLoader,
    private readonly gate: RepoGate,
    private readonly directory: DirectoryClient,
  ) {}

  /**
   * Pull rows with their issue rows, of one base repository, as the viewer sees them (their
   * posters too, as Gitea's ToAPIPullRequest shows them, but not inside a transaction: with `m`
   * they are shown as anyone sees them, as in events).
   */
  async load(viewer: Actor | null, rows: IssueEntity[], repo: RepoAccess, options: PullLoadOptions = {}): Promise<PullRequest[]> {
    const issues = await this.issues.load(rows, new Map([[repo.id, repo]]), options.m ? { m: options.m } : { viewer });
    return this.fromIssues(viewer, issues, repo, options);
  }

  async one(viewer: Actor | null, row: IssueEntity, repo: RepoAccess, options: PullLoadOptions = {}): Promise<PullRequest> {
    const [pull] = await this.load(viewer, [row], repo, { single: true, ...options });
    return pull!;
  }

  /** As {@link load}, from issues already shaped. */
  async fromIssues(viewer: Actor | null, issues: Issue[], repo: RepoAccess, options: PullLoadOptions = {}): Promise<PullRequest[]> {
    return (await this.prepare(viewer, issues.map((i) => i.id), repo, options))(issues);
  }

  /**
   * Fetches what the pulls of these issues show beside their issues (pull rows, requested
   * reviewers and teams, review comment counts, head repositories, mergers) and answers how to
   * shape them: from their issues and, in `rows`, pull rows as they are later (an event built
   * under a transaction's locks from rows it changed); a merger there must be among `known`.
   */
  async prepare(
    viewer: Actor | null,
    ids: number[],
    repo: RepoAccess,
    options: PullLoadOptions = {},
  ): Promise<(issues: Issue[], rows?: Map<number, PullRequestEntity>) => PullRequest[]> {
    const [fetched, requests, reviewComments] = await Promise.all([
      this.pulls.byIssueIds(ids, options.m),
      this.reviews.shownReviewers(ids, { comments: options.single === true, m: options.m }),
      this.reviews.reviewCommentCounts(ids, options.m),
    ]);
    const headIds = [...new Set([...fetched.values()].map((p) => p.headRepoId).filter((id) => id > 0 && id !== repo.id))];
    const heads = new Map<number, Repository>([[repo.id, repo.repository]]);
    for (const r of await this.gate.many(viewer, headIds)) heads.set(r.id, r.repository);
    const userIds = [...fetched.values()].flatMap((p) => (p.hasMerged ? [p.mergerId] : [])).concat([...requests.values()].flatMap((r) => r.userIds));
    const users = await this.issues.users(userIds, options.known);
    const teamIds = [...new Set([...requests.values()].flatMap((r) => r.teamIds))];
    const teams = new Map<number, Team>();
    // Gitea's ToAPIPullRequest shows requested teams with their organization (ToTeam with loadOrg).
    if (teamIds.length > 0 && repo.ownerKind === 'organization') {
      for (const t of await this.directory.teams(repo.ownerId, { ids: teamIds, withOrganization: true })) teams.set(t.id, t.team);
    }
    return (issues, rows) =>
      issues.flatMap((issue) => {
        const pull = rows?.get(issue.id) ?? fetched.get(issue.id);
        if (!pull) return [];
        const asked = requests.get(issue.id) ?? { userIds: [], teamIds: [] };
        return [
          toPullRequest(issue, pull, repo, {
            headRepo: heads.get(pull.headRepoId) ?? null,
            mergedBy: users.get(pull.mergerId) ?? null,
            requestedReviewers: asked.userIds.map((id) => users.get(id)).filter((u) => u !== undefined),
            requestedTeams: asked.teamIds.map((id) => teams.get(id)).filter((t) => t !== undefined),
            reviewComments: reviewComments.get(issue.id) ?? 0,
            single: options.single === true,
          }),
        ];
      });
  }
}

