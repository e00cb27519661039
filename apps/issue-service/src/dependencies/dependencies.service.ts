import { Injectable } from '@nestjs/common';
import { conflict, notFound, unprocessable, type Actor, type Issue, type IssueMeta, type ListOptions, type RepoAccess } from '@gitforge/contracts';
import { Database, isUniqueViolation } from '@gitforge/platform';
import type { EntityManager } from 'typeorm';
import { canReadIssuesOrPulls, canWriteIssuesOrPulls, RepoGate } from '../access/repo-gate.js';
import { CommentType } from '../comments/comment-type.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import { IssueLoader } from '../issues/issue-loader.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import { IssuesRepository } from '../issues/issues.repository.js';
import { IssuesService } from '../issues/issues.service.js';
import { DependenciesRepository } from './dependencies.repository.js';

/** Which end of a link the issue of the route is: `dependencies` lists its blockers, `blocks` what it blocks. */
export type DependencySide = 'dependencies' | 'blocks';

/** Issue dependencies as Gitea's issue_dependency API: an issue cannot close while an issue it depends on is open. */
@Injectable()
export class DependenciesService {
  constructor(
    private readonly db: Database,
    private readonly issuesService: IssuesService,
    private readonly issues: IssuesRepository,
    private readonly deps: DependenciesRepository,
    private readonly gate: RepoGate,
    private readonly loader: IssueLoader,
    private readonly comments: CommentsRepository,
  ) {}

  /** The blockers (`dependencies`) or the blocked (`blocks`) the actor may read; Gitea hides the others and sends no paging headers. */
  async list(actor: Actor | null, owner: string, repo: string, index: string, side: DependencySide, options: ListOptions): Promise<Issue[]> {
    const ctx = await this.issuesService.issueFor(actor, owner, repo, index);
    // Dependencies are listed only where the tracker keeps them; what an issue blocks is listed anywhere.
    if (side === 'dependencies' && !ctx.repo.settings.enable_issue_dependencies) throw notFound();
    const rows = await this.deps.list(ctx.issue.id, side === 'dependencies' ? 'blockers' : 'blocked', options);
    const repos = await this.reposOf(actor, ctx.repo, rows);
    const visible = rows.filter((r) => {
      const access = repos.get(r.repoId);
      return access !== undefined && canReadIssuesOrPulls(access, r.isPull);
    });
    return this.loader.load(visible, repos, { viewer: actor });
  }

  /**
   * Links the route's issue with the one in the body: on `dependencies` the route's issue comes to
   * depend on it, on `blocks` it comes to block it. Answers the route's issue (201, as Gitea).
   */
  async link(actor: Actor | null, owner: string, repo: string, index: string, meta: IssueMeta, side: DependencySide, add: boolean): Promise<Issue> {
    const here = await this.issuesService.issueForWrite(actor, owner, repo, index);
    const sameRepo = (!meta.owner || meta.owner.toLowerCase() === here.repo.ownerLogin.toLowerCase()) && (!meta.repo || meta.repo.toLowerCase() === here.repo.name.toLowerCase());
    const otherRepo = sameRepo ? here.repo : await this.gate.assign(here.actor, meta.owner ?? here.repo.ownerLogin, meta.repo ?? here.repo.name);
    const other = await this.issues.findByIndex(otherRepo.id, meta.index);
    if (!other) throw notFound();
    const [target, targetRepo, dependency, dependencyRepo] =
      side === 'dependencies' ? [here.issue, here.repo, other, otherRepo] : [other, otherRepo, here.issue, here.repo];
    // Gitea answers 404 for each of these, so nothing is told about what the caller may not do.
    if (targetRepo.isArchived || !targetRepo.settings.enable_issue_dependencies) throw notFound();
    if (!canWriteIssuesOrPulls(targetRepo, target.isPull)) throw notFound();
    if (!canReadIssuesOrPulls(dependencyRepo, dependency.isPull)) throw notFound();
    const existing = await this.deps.find(target.id, dependency.id);
    if (add) {
      if (target.id === dependency.id || (await this.deps.reaches(dependency.id, target.id))) {
        throw unprocessable('circular dependency: an issue cannot depend on itself, directly or through others');
      }
      if (existing) throw conflict('the dependency already exists');
      try {
        await this.db.transaction(async (m) => {
          const now = new Date();
          await this.deps.insert(m, { issueId: target.id, dependencyId: dependency.id, creatorId: here.actor.id, createdAt: now });
          await this.record(m, here.actor.id, target.id, dependency.id, CommentType.add_dependency, now);
        });
      } catch (err) {
        // The same link made twice at once: the later one finds it there.
        if (isUniqueViolation(err)) throw conflict('the dependency already exists');
        throw err;
      }
    } else {
      if (!existing) throw notFound('the dependency does not exist');
      await this.db.transaction(async (m) => {
        await this.deps.delete(m, target.id, dependency.id);
        await this.record(m, here.actor.id, target.id, dependency.id, CommentType.remove_dependency, new Date());
      });
    }
    return this.loader.one(here.issue, here.repo, { viewer: here.actor });
  }

  /** A history row on each of the two issues, each naming the other, as Gitea's createIssueDependencyComment. */
  private async record(m: EntityManager, posterId: number, issueId: number, dependencyId: number, type: typeof CommentType.add_dependency | typeof CommentType.remove_dependency, at: Date): Promise<void> {
    await this.comments.addEvent(m, { issueId, posterId, type, at, refs: { dependentIssueId: dependencyId } });
    await this.comments.addEvent(m, { issueId: dependencyId, posterId, type, at, refs: { dependentIssueId: issueId } });
  }

  /** The repositories of `rows` as the actor sees them, one call. */
  private async reposOf(actor: Actor | null, home: RepoAccess, rows: IssueEntity[]): Promise<Map<number, RepoAccess>> {
    const others = [...new Set(rows.map((r) => r.repoId))].filter((id) => id !== home.id);
    const repos = new Map<number, RepoAccess>([[home.id, home]]);
    for (const r of await this.gate.many(actor, others)) repos.set(r.id, r);
    return repos;
  }
}
