import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Issue, RepoAccess, User } from '@gitforge/contracts';
import { DirectoryClient, PlatformConfig } from '@gitforge/platform';
import { toAttachment } from '../attachments/attachment.mapper.js';
import { AttachmentsRepository } from '../attachments/attachments.repository.js';
import { toLabel } from '../labels/label.mapper.js';
import { LabelsRepository } from '../labels/labels.repository.js';
import { toMilestone } from '../milestones/milestone.mapper.js';
import { MilestonesRepository } from '../milestones/milestones.repository.js';
import type { IssueEntity } from './issue.entity.js';
import { toIssue } from './issue.mapper.js';
import { IssuesRepository } from './issues.repository.js';

/** Gitea's ghost user: the poster of content whose account is gone (org-service answers it). */
const GHOST_ID = -1;

/**
 * Turns issue rows into Gitea's Issue shape, a page at a time: one query per kind of part
 * (assignees, labels, milestones, assets) and one directory call for every user on the page.
 */
@Injectable()
export class IssueLoader {
  constructor(
    private readonly issues: IssuesRepository,
    private readonly labels: LabelsRepository,
    private readonly milestones: MilestonesRepository,
    private readonly attachments: AttachmentsRepository,
    private readonly directory: DirectoryClient,
    private readonly config: PlatformConfig,
  ) {}

  /**
   * `repos` holds the repository of every row. `known` are users already fetched (inside a
   * transaction, so no call is made while it holds its locks); `m` reads uncommitted rows.
   */
  async load(rows: IssueEntity[], repos: Map<number, RepoAccess>, options: { m?: EntityManager; known?: User[] } = {}): Promise<Issue[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [assignees, labels, milestones, assets] = await Promise.all([
      this.issues.assigneesOf(ids, options.m),
      this.labels.labelsOfIssues(ids, options.m),
      this.milestones.findByIds(rows.map((r) => r.milestoneId).filter((id) => id > 0), options.m),
      this.attachments.ofIssues(ids, options.m),
    ]);
    const counts = await this.milestones.counts(milestones.map((m) => m.id), options.m);
    const users = await this.users([...rows.map((r) => r.posterId), ...[...assignees.values()].flat()], options.known ?? []);
    // A deleted poster shows as Gitea's ghost user.
    if (rows.some((r) => !users.has(r.posterId))) for (const u of await this.directory.usersByIds(null, [GHOST_ID])) users.set(u.id, u);
    return rows.map((r) => {
      const repo = repos.get(r.repoId)!;
      const milestone = milestones.find((m) => m.id === r.milestoneId);
      return toIssue(r, repo, {
        poster: users.get(r.posterId) ?? users.get(GHOST_ID)!,
        assignees: (assignees.get(r.id) ?? []).map((id) => users.get(id)).filter((u): u is User => u !== undefined),
        labels: (labels.get(r.id) ?? []).map((l) => toLabel(l, { rootUrl: this.config.rootUrl, repoApiUrl: repo.repository.url, orgLogin: repo.ownerLogin })),
        milestone: milestone ? toMilestone(milestone, counts.get(milestone.id)!) : null,
        assets: (assets.get(r.id) ?? []).map((a) => toAttachment(a, this.config.rootUrl)),
        projects: [],
        pullRequest: null,
      });
    });
  }

  /** One issue of one repository. */
  async one(row: IssueEntity, repo: RepoAccess, options: { m?: EntityManager; known?: User[] } = {}): Promise<Issue> {
    const [issue] = await this.load([row], new Map([[repo.id, repo]]), options);
    return issue!;
  }

  /** Users as anyone sees them (Gitea's ToUser without a viewer), one call for those not known yet. */
  async users(ids: number[], known: User[] = []): Promise<Map<number, User>> {
    const map = new Map(known.map((u) => [u.id, u]));
    const missing = [...new Set(ids)].filter((id) => id > 0 && !map.has(id));
    for (const u of await this.directory.usersByIds(null, missing)) map.set(u.id, u);
    return map;
  }
}
