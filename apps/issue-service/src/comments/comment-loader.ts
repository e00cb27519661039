import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor, Comment, RepoAccess, Team, TimelineComment, User } from '@gitforge/contracts';
import { DirectoryClient } from '@gitforge/platform';
import { canReadIssuesOrPulls, RepoGate } from '../access/repo-gate.js';
import { toAttachment } from '../attachments/attachment.mapper.js';
import { AttachmentsRepository } from '../attachments/attachments.repository.js';
import { IssueServiceConfig } from '../issue.config.js';
import { IssueLoader } from '../issues/issue-loader.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import { IssuesRepository } from '../issues/issues.repository.js';
import { repoLabelHome, toLabel } from '../labels/label.mapper.js';
import { LabelsRepository } from '../labels/labels.repository.js';
import { toMilestone } from '../milestones/milestone.mapper.js';
import { MilestonesRepository } from '../milestones/milestones.repository.js';
import { toTrackedTime } from '../times/time.mapper.js';
import { TimesRepository } from '../times/times.repository.js';
import type { CommentEntity } from './comment.entity.js';
import { CommentsRepository } from './comments.repository.js';
import { toComment, toTimelineComment, type CommentIssue } from './comment.mapper.js';

/** How a page is loaded: inside a transaction (`m`), with users already fetched (`known`). */
export interface CommentLoadOptions {
  m?: EntityManager;
  known?: User[];
}

/**
 * Turns comment rows into Gitea's shapes a page at a time: one directory call for every poster
 * on the page, one query for every attachment of the page's comments.
 */
@Injectable()
export class CommentLoader {
  constructor(
    private readonly issueLoader: IssueLoader,
    private readonly attachments: AttachmentsRepository,
    private readonly config: IssueServiceConfig,
    private readonly labels: LabelsRepository,
    private readonly milestones: MilestonesRepository,
    private readonly issues: IssuesRepository,
    private readonly gate: RepoGate,
    private readonly directory: DirectoryClient,
    private readonly comments: CommentsRepository,
    private readonly times: TimesRepository,
  ) {}

  /** `issues` holds the issue of every row (by issue id). */
  async load(
    rows: CommentEntity[],
    issues: Map<number, CommentIssue>,
    repo: RepoAccess,
    options: CommentLoadOptions = {},
  ): Promise<Comment[]> {
    if (rows.length === 0) return [];
    const [poster, assets] = await Promise.all([
      this.issueLoader.posters(
        rows.map((r) => r.posterId),
        options.known ?? [],
      ),
      this.attachments.ofComments(
        rows.map((r) => r.id),
        options.m,
      ),
    ]);
    const rootUrl = this.config.rootUrl;
    return rows.map((r) =>
      toComment(r, issues.get(r.issueId)!, repo, {
        poster: poster(r.posterId),
        assets: (assets.get(r.id) ?? []).map((a) => toAttachment(a, rootUrl)),
      }),
    );
  }

  async one(
    row: CommentEntity,
    issue: CommentIssue,
    repo: RepoAccess,
    options: CommentLoadOptions = {},
  ): Promise<Comment> {
    const [comment] = await this.load([row], new Map([[row.issueId, issue]]), repo, options);
    return comment!;
  }

  /**
   * The history rows of one issue. What the rows refer to is loaded once for the page: one query
   * per kind (labels, milestones and their counts, dependent issues, tracked times), and one
   * directory call for posters, assignees, tracked times' users and the dependent issues' users.
   * A dependent issue the actor cannot read shows as null.
   */
  async timeline(
    rows: CommentEntity[],
    issue: CommentIssue,
    repo: RepoAccess,
    actor: Actor | null,
  ): Promise<TimelineComment[]> {
    if (rows.length === 0) return [];
    const ids = (pick: (r: CommentEntity) => number): number[] => [
      ...new Set(rows.map(pick).filter((id) => id > 0)),
    ];
    const milestoneIds = [...new Set([...ids((r) => r.milestoneId), ...ids((r) => r.oldMilestoneId)])];
    const teamIds = ids((r) => r.assigneeTeamId);
    const issueId = rows[0]!.issueId;
    const [labels, milestones, dependents, teams, times] = await Promise.all([
      this.labels.findByIds(ids((r) => r.labelId)),
      this.milestones.findByIds(milestoneIds),
      // The issues at the other end of dependencies and of cross references, in one read.
      this.dependentIssues(
        [...new Set([...ids((r) => r.dependentIssueId), ...ids((r) => r.refIssueId)])],
        repo,
        actor,
      ),
      // Teams are asked for reviews only in organization repositories.
      teamIds.length > 0 && repo.ownerKind === 'organization' ? this.directory.teams(repo.ownerId, { ids: teamIds }) : Promise.resolve([]),
      this.times.findTimesOfIssue(issueId, ids((r) => r.timeId)),
    ]);
    // A tracked time shows its issue, this one (Gitea's ToTrackedTime), loaded with the others.
    const own = times.length > 0 ? await this.issues.findById(issueId) : null;
    const counts = await this.milestones.counts(milestones.map((m) => m.id));
    const { issues, users } = await this.issueLoader.loadWithUsers([...dependents.rows, ...(own ? [own] : [])], dependents.repos, [
      ...rows.map((r) => r.posterId),
      ...ids((r) => r.assigneeId),
      ...ids((r) => r.resolveDoerId),
      ...times.map((t) => t.userId),
    ]);
    const ownIssue = own ? issues[dependents.rows.length]! : null;
    const tracked = new Map(times.map((t) => [t.id, toTrackedTime(t, { userName: users.get(t.userId)?.login ?? '', issue: ownIssue })]));
    const team = new Map<number, Team>(teams.map((t) => [t.id, t.team]));
    const home = repoLabelHome(this.config.rootUrl, repo);
    const label = new Map(labels.map((l) => [l.id, toLabel(l, home)]));
    const milestone = new Map(milestones.map((m) => [m.id, toMilestone(m, counts.get(m.id)!)]));
    const dependent = new Map(dependents.rows.map((r, i) => [r.id, issues[i]!]));
    const refComments = await this.refComments(ids((r) => r.refCommentId), dependents);
    // Gitea's isXRefCommentAccessible, then ToTimelineComment's: a cross reference from an issue
    // (or comment) the actor may not read, or that is gone, is left out.
    const shown = rows.filter(
      (r) => r.refIssueId === 0 || (dependent.has(r.refIssueId) && (r.refCommentId === 0 || refComments.has(r.refCommentId))),
    );
    return shown.map((r) =>
      toTimelineComment(r, issue, repo, {
        poster: users.get(r.posterId)!,
        label: label.get(r.labelId),
        milestone: milestone.get(r.milestoneId),
        oldMilestone: milestone.get(r.oldMilestoneId),
        assignee: r.assigneeId > 0 ? users.get(r.assigneeId) : null,
        assigneeTeam: team.get(r.assigneeTeamId) ?? null,
        resolveDoer: r.resolveDoerId > 0 ? users.get(r.resolveDoerId) : null,
        dependentIssue: dependent.get(r.dependentIssueId),
        refIssue: dependent.get(r.refIssueId) ?? null,
        refComment: refComments.get(r.refCommentId) ?? null,
        trackedTime: tracked.get(r.timeId) ?? null,
      }),
    );
  }

  /** The comments cross references were written from, of the issues the actor may read (`readable`), each shown in its own repository. */
  private async refComments(ids: number[], readable: { rows: IssueEntity[]; repos: Map<number, RepoAccess> }): Promise<Map<number, Comment>> {
    const out = new Map<number, Comment>();
    if (ids.length === 0) return out;
    const issues = new Map(readable.rows.map((r) => [r.id, r]));
    const found = (await this.comments.findByIds(ids)).filter((c) => issues.has(c.issueId));
    for (const repoId of new Set(found.map((c) => issues.get(c.issueId)!.repoId))) {
      const mine = found.filter((c) => issues.get(c.issueId)!.repoId === repoId);
      const loaded = await this.load(mine, issues, readable.repos.get(repoId)!);
      mine.forEach((c, i) => out.set(c.id, loaded[i]!));
    }
    return out;
  }

  /** The issues at the other end of dependencies that the actor can read, with their repositories (one call for other ones). */
  private async dependentIssues(
    ids: number[],
    home: RepoAccess,
    actor: Actor | null,
  ): Promise<{ rows: IssueEntity[]; repos: Map<number, RepoAccess> }> {
    const repos = new Map<number, RepoAccess>([[home.id, home]]);
    if (ids.length === 0) return { rows: [], repos };
    const found = await this.issues.findByIds(ids);
    const others = [...new Set(found.map((r) => r.repoId))].filter((id) => id !== home.id);
    if (others.length > 0) for (const r of await this.gate.many(actor, others)) repos.set(r.id, r);
    const rows = found.filter((r) => {
      const access = repos.get(r.repoId);
      return access !== undefined && canReadIssuesOrPulls(access, r.isPull);
    });
    return { rows, repos };
  }
}
