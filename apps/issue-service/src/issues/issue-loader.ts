import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isActingUserId, type Actor, type Issue, type RepoAccess, type User } from '@gitforge/contracts';
import { DirectoryClient, PlatformConfig } from '@gitforge/platform';
import { toAttachment } from '../attachments/attachment.mapper.js';
import { AttachmentsRepository } from '../attachments/attachments.repository.js';
import { repoLabelHome, toLabel } from '../labels/label.mapper.js';
import { LabelsRepository } from '../labels/labels.repository.js';
import { toMilestone } from '../milestones/milestone.mapper.js';
import { MilestonesRepository } from '../milestones/milestones.repository.js';
import { projectHome, toProject } from '../projects/project.mapper.js';
import { ProjectsRepository } from '../projects/projects.repository.js';
import { toPullRequestMeta } from '../pulls/pull.mapper.js';
import type { PullRequestEntity } from '../pulls/pull-request.entity.js';
import { PullsRepository } from '../pulls/pulls.repository.js';
import type { IssueEntity } from './issue.entity.js';
import { issueHtmlUrl, toIssue } from './issue.mapper.js';
import { IssuesRepository } from './issues.repository.js';

/** Gitea's ghost user: the poster of content whose account is gone (org-service answers it). */
const GHOST_ID = -1;

export interface IssueLoadOptions {
  /** Reads uncommitted rows (no directory call is made for the viewer inside a transaction: leave `viewer` out). */
  m?: EntityManager;
  /** Users already fetched as anyone sees them (inside a transaction, so no call is made while it holds its locks). */
  known?: User[];
  /**
   * Who the issues are shown to: their posters are shown as this caller sees them (Gitea's
   * ToAPIIssue passes the doer for the poster: a signed-in caller sees the real e-mail, the poster
   * and site admins the private fields); assignees and the rest as anyone sees them.
   */
  viewer?: Actor | null;
}

/** What {@link IssueLoader.prepare}'s shape takes as it is later than the prepared reads. */
export interface LaterFacts {
  /** Pull rows as they are now. */
  pulls?: Map<number, PullRequestEntity>;
  /** The transaction that changed the rows: their milestones are counted again in it (a closed issue moves its milestone's counts). */
  m?: EntityManager;
}

/**
 * Turns issue rows into Gitea's Issue shape, a page at a time: one query per kind of part
 * (assignees, labels, milestones, projects, assets) and one directory call for every user on the page.
 */
@Injectable()
export class IssueLoader {
  constructor(
    private readonly issues: IssuesRepository,
    private readonly labels: LabelsRepository,
    private readonly milestones: MilestonesRepository,
    private readonly projects: ProjectsRepository,
    private readonly attachments: AttachmentsRepository,
    private readonly pulls: PullsRepository,
    private readonly directory: DirectoryClient,
    private readonly config: PlatformConfig,
  ) {}

  /** `repos` holds the repository of every row. */
  async load(rows: IssueEntity[], repos: Map<number, RepoAccess>, options: IssueLoadOptions = {}): Promise<Issue[]> {
    return (await this.loadWithUsers(rows, repos, [], options)).issues;
  }

  /**
   * As {@link load}, also fetching the users `userIds` in the same directory call (the owners of
   * rows that show issues, such as tracked times); a missing one maps to Gitea's ghost user.
   */
  async loadWithUsers(
    rows: IssueEntity[],
    repos: Map<number, RepoAccess>,
    userIds: number[],
    options: IssueLoadOptions = {},
  ): Promise<{ issues: Issue[]; users: Map<number, User> }> {
    const { shape, users } = await this.prepare(rows, repos, userIds, options);
    return { issues: await shape(rows), users };
  }

  /**
   * Fetches what the rows show beside themselves (their assignees, labels, milestone, projects,
   * assets, pull row and users) and answers how to shape them: `shape` takes the same issues'
   * rows as they are later (an event built under a transaction's locks from rows it changed),
   * and `later` replaces pull rows fetched here and counts milestones again in its transaction.
   */
  async prepare(
    rows: IssueEntity[],
    repos: Map<number, RepoAccess>,
    userIds: number[],
    options: IssueLoadOptions = {},
  ): Promise<{ shape: (rows: IssueEntity[], later?: LaterFacts) => Promise<Issue[]>; users: Map<number, User> }> {
    const ids = rows.map((r) => r.id);
    const [assignees, labels, milestones, projects, assets, pulls] = await Promise.all([
      this.issues.assigneesOf(ids, options.m),
      this.labels.labelsOfIssues(ids, options.m),
      this.milestones.findByIds(rows.map((r) => r.milestoneId).filter((id) => id > 0), options.m),
      this.projects.projectsOfIssues(ids, options.m),
      this.attachments.ofIssues(ids, options.m),
      this.pulls.byIssueIds(rows.filter((r) => r.isPull).map((r) => r.id), options.m),
    ]);
    const counts = await this.milestones.counts(milestones.map((m) => m.id), options.m);
    const posterIds = rows.map((r) => r.posterId);
    const viewer = options.viewer ?? null;
    const wanted = [...posterIds, ...userIds];
    const [users, seen] = await Promise.all([
      this.users([...(viewer ? userIds : wanted), ...[...assignees.values()].flat()], options.known ?? []),
      this.usersSeenBy(viewer, posterIds),
    ]);
    // A deleted poster (or owner of a row, such as a tracked time) shows as Gitea's ghost user.
    const anyone = await this.withGhost(users, wanted.filter((id) => !seen.has(id)));
    for (const id of userIds) if (!users.has(id)) users.set(id, anyone(id));
    const poster = (id: number): User => seen.get(id) ?? anyone(id);
    const rootUrl = this.config.rootUrl;
    const shape = async (rowsLater: IssueEntity[], later: LaterFacts = {}): Promise<Issue[]> => {
      const counted = later.m ? await this.milestones.counts(milestones.map((m) => m.id), later.m) : counts;
      return rowsLater.map((r) => {
        const repo = repos.get(r.repoId)!;
        const milestone = milestones.find((m) => m.id === r.milestoneId);
        const pull = later.pulls?.get(r.id) ?? pulls.get(r.id);
        return toIssue(r, repo, {
          poster: poster(r.posterId),
          assignees: (assignees.get(r.id) ?? []).map((id) => users.get(id)).filter((u): u is User => u !== undefined),
          labels: (labels.get(r.id) ?? []).map((l) => toLabel(l, repoLabelHome(this.config.rootUrl, repo))),
          milestone: milestone ? toMilestone(milestone, counted.get(milestone.id)!) : null,
          assets: (assets.get(r.id) ?? []).map((a) => toAttachment(a, rootUrl)),
          // An issue's projects are its repository's or its owner's (organization projects take only theirs).
          projects: (projects.get(r.id) ?? []).map((p) =>
            toProject(p, rootUrl, projectHome(rootUrl, p.repoId > 0 ? { repoHtmlUrl: repo.repository.html_url } : { ownerLogin: repo.ownerLogin })),
          ),
          pullRequest: pull ? toPullRequestMeta(pull, r.title, issueHtmlUrl(repo.repository, r)) : null,
        });
      });
    };
    return { shape, users };
  }

  /** One issue of one repository. */
  async one(row: IssueEntity, repo: RepoAccess, options: IssueLoadOptions = {}): Promise<Issue> {
    const [issue] = await this.load([row], new Map([[repo.id, repo]]), options);
    return issue!;
  }

  /**
   * Posters (of issues, comments, …) as anyone sees them, or with `viewer` as that caller does
   * (Gitea shows reviewers that way); a deleted one is Gitea's ghost user.
   */
  async posters(ids: number[], known: User[] = [], viewer: Actor | null = null): Promise<(id: number) => User> {
    return this.withGhost(viewer ? await this.usersSeenBy(viewer, ids) : await this.users(ids, known), ids);
  }

  private async withGhost(users: Map<number, User>, posterIds: number[]): Promise<(id: number) => User> {
    if (posterIds.some((id) => !users.has(id))) for (const u of await this.directory.usersByIds(null, [GHOST_ID])) users.set(u.id, u);
    return (id) => users.get(id) ?? users.get(GHOST_ID)!;
  }

  /**
   * Every user an event about the issue shows (its poster and assignees, and `others`), fetched in
   * one call before the event's transaction so that none is fetched inside it.
   */
  async eventUsers(issue: Pick<IssueEntity, 'id' | 'posterId'>, others: number[]): Promise<User[]> {
    const assignees = (await this.issues.assigneesOf([issue.id])).get(issue.id) ?? [];
    return [...(await this.users([...others, issue.posterId, ...assignees])).values()];
  }

  /** Users as `viewer` sees them (none: an empty map, they are shown as anyone sees them), one call. */
  async usersSeenBy(viewer: Actor | null, ids: number[]): Promise<Map<number, User>> {
    const wanted = [...new Set(ids)].filter(isActingUserId);
    if (!viewer || wanted.length === 0) return new Map();
    return new Map((await this.directory.usersByIds(viewer, wanted)).map((u) => [u.id, u]));
  }

  /** Users as anyone sees them (Gitea's ToUser without a viewer), one call for those not known yet. */
  async users(ids: number[], known: User[] = []): Promise<Map<number, User>> {
    const map = new Map(known.map((u) => [u.id, u]));
    const missing = [...new Set(ids)].filter((id) => isActingUserId(id) && !map.has(id));
    for (const u of await this.directory.usersByIds(null, missing)) map.set(u.id, u);
    return map;
  }
}
