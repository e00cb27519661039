import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import type { PullGitState } from '@gitforge/contracts';
import { IssueEntity } from '../issues/issue.entity.js';
import { PullAutoMergeEntity, PullRequestEntity } from './pull-request.entity.js';

/** A pull row with its issue, as the routes and the sync read them together. */
export interface PullWithIssue {
  pull: PullRequestEntity;
  issue: IssueEntity;
}

@Injectable()
export class PullsRepository {
  constructor(private readonly db: Database) {}

  insert(m: EntityManager, row: Partial<PullRequestEntity>): Promise<PullRequestEntity> {
    return m.save(PullRequestEntity, m.create(PullRequestEntity, row));
  }

  async update(m: EntityManager, id: number, changes: Partial<PullRequestEntity>): Promise<void> {
    if (Object.keys(changes).length > 0) await m.update(PullRequestEntity, { id }, changes);
  }

  /** Unmerged pulls whose base or head is the renamed branch take its new name (Gitea's RenameBranch). */
  async renameBranch(m: EntityManager, repoId: number, from: string, to: string): Promise<void> {
    await m.update(PullRequestEntity, { baseRepoId: repoId, baseBranch: from, hasMerged: false }, { baseBranch: to });
    await m.update(PullRequestEntity, { headRepoId: repoId, headBranch: from, hasMerged: false }, { headBranch: to });
  }

  /**
   * What git says of a pull now, stored only while it is unmerged: a merged pull keeps the merge
   * base, head and counts it was merged with (Gitea's merged pulls show their own changes), even
   * when a recomputation read it as open just before its merge was recorded. Answers whether
   * the pull was unmerged (and changed); its row stays locked until the transaction ends.
   */
  async updateUnmerged(m: EntityManager, id: number, changes: Partial<PullRequestEntity>): Promise<boolean> {
    return ((await m.update(PullRequestEntity, { id, hasMerged: false }, changes)).affected ?? 0) > 0;
  }

  findByIssueId(issueId: number, m?: EntityManager): Promise<PullRequestEntity | null> {
    return this.db.findOneBy(PullRequestEntity, { issueId }, m);
  }

  async byIssueIds(issueIds: number[], m?: EntityManager): Promise<Map<number, PullRequestEntity>> {
    if (issueIds.length === 0) return new Map();
    const rows = await (m ?? this.db.manager).find(PullRequestEntity, { where: { issueId: In(issueIds) } });
    return new Map(rows.map((r) => [r.issueId, r]));
  }

  /** Takes the pull's row lock until the transaction ends and answers the row as it is under it. */
  lock(m: EntityManager, id: number): Promise<PullRequestEntity | null> {
    return m.findOne(PullRequestEntity, { where: { id }, ...this.db.sql.rowLock('pessimistic_write') });
  }

  /** The open pull from `head` into `base`, if any (Gitea's GetUnmergedPullRequest). */
  async findOpen(baseRepoId: number, baseBranch: string, headRepoId: number, headBranch: string): Promise<PullWithIssue | null> {
    const found = await this.withIssues(
      this.db.manager
        .createQueryBuilder(PullRequestEntity, 'pr')
        .innerJoin(IssueEntity, 'i', 'i.id = pr.issue_id')
        .where('pr.base_repo_id = :baseRepoId AND pr.base_branch = :baseBranch', { baseRepoId, baseBranch })
        .andWhere('pr.head_repo_id = :headRepoId AND pr.head_branch = :headBranch', { headRepoId, headBranch })
        .andWhere('pr.has_merged = :no AND i.is_closed = :no', { no: false })
        .getMany(),
    );
    return found[0] ?? null;
  }

  /** The newest pull from `head` into `base`, whatever its state (Gitea's GetPullRequestByBaseHeadInfo). */
  async findByBaseHead(baseRepoId: number, baseBranch: string, headRepoId: number, headBranch: string): Promise<PullWithIssue | null> {
    const found = await this.withIssues(
      this.db.manager
        .createQueryBuilder(PullRequestEntity, 'pr')
        .where('pr.base_repo_id = :baseRepoId AND pr.base_branch = :baseBranch', { baseRepoId, baseBranch })
        .andWhere('pr.head_repo_id = :headRepoId AND pr.head_branch = :headBranch', { headRepoId, headBranch })
        .orderBy('pr.id', 'DESC')
        .take(1)
        .getMany(),
    );
    return found[0] ?? null;
  }

  /** The pull of the base repository merged as commit `sha` (Gitea's GetPullRequestByMergedCommit). */
  async findByMergedCommit(baseRepoId: number, sha: string): Promise<PullWithIssue | null> {
    const found = await this.withIssues(
      this.db.manager
        .createQueryBuilder(PullRequestEntity, 'pr')
        .where('pr.base_repo_id = :baseRepoId AND pr.merged_commit_id = :sha AND pr.has_merged = :yes', { baseRepoId, sha, yes: true })
        .orderBy('pr.id', 'ASC')
        .take(1)
        .getMany(),
    );
    return found[0] ?? null;
  }

  /** Open, unmerged pulls whose head is `branch` of `repoId`, or whose base is. */
  async openTouching(repoId: number, branch: string): Promise<{ byHead: PullWithIssue[]; byBase: PullWithIssue[] }> {
    const rows = await this.withIssues(
      this.db.manager
        .createQueryBuilder(PullRequestEntity, 'pr')
        .innerJoin(IssueEntity, 'i', 'i.id = pr.issue_id')
        .where('pr.has_merged = :no AND i.is_closed = :no', { no: false })
        .andWhere('((pr.head_repo_id = :repoId AND pr.head_branch = :branch) OR (pr.base_repo_id = :repoId AND pr.base_branch = :branch))', { repoId, branch })
        .getMany(),
    );
    return {
      byHead: rows.filter((r) => r.pull.headRepoId === repoId && r.pull.headBranch === branch),
      byBase: rows.filter((r) => !(r.pull.headRepoId === repoId && r.pull.headBranch === branch)),
    };
  }

  /** Open, unmerged pulls whose head is in `headRepoId` and whose base is another repository. */
  openFromHeadRepo(headRepoId: number): Promise<PullWithIssue[]> {
    return this.withIssues(
      this.db.manager
        .createQueryBuilder(PullRequestEntity, 'pr')
        .innerJoin(IssueEntity, 'i', 'i.id = pr.issue_id')
        .where('pr.head_repo_id = :headRepoId AND pr.base_repo_id <> :headRepoId', { headRepoId })
        .andWhere('pr.has_merged = :no AND i.is_closed = :no', { no: false })
        .getMany(),
    );
  }

  /** Open pulls of a base repository whose head is at `sha` (a status came for it). */
  openWithHead(baseRepoId: number, sha: string): Promise<PullWithIssue[]> {
    return this.withIssues(
      this.db.manager
        .createQueryBuilder(PullRequestEntity, 'pr')
        .innerJoin(IssueEntity, 'i', 'i.id = pr.issue_id')
        .where('pr.base_repo_id = :baseRepoId AND pr.head_sha = :sha', { baseRepoId, sha })
        .andWhere('pr.has_merged = :no AND i.is_closed = :no', { no: false })
        .getMany(),
    );
  }

  /** Whether any pull has this head branch. */
  async hasHead(repoId: number, branch: string): Promise<boolean> {
    return (await this.db.manager.findOne(PullRequestEntity, { select: { id: true }, where: { headRepoId: repoId, headBranch: branch } })) !== null;
  }

  /** Locks the pulls with this head branch (as `lock` does) and answers their head-branch-deleted marks. */
  async lockHeadMarks(m: EntityManager, repoId: number, branch: string): Promise<boolean[]> {
    const where = { headRepoId: repoId, headBranch: branch };
    // In id order, so two transactions locking the same pulls take them in the same order.
    const rows = await m.find(PullRequestEntity, { select: { id: true, headBranchDeleted: true }, where, order: { id: 'ASC' }, ...this.db.sql.rowLock('pessimistic_write') });
    return rows.map((p) => p.headBranchDeleted);
  }

  /** Marks the pulls with this head branch as having it deleted, or not. */
  async markHeadBranch(m: EntityManager, repoId: number, branch: string, deleted: boolean): Promise<void> {
    await m.update(PullRequestEntity, { headRepoId: repoId, headBranch: branch }, { headBranchDeleted: deleted });
  }

  /** The head repository is gone: its pulls keep their refs/pull head, with no head repository. */
  async forgetHeadRepo(m: EntityManager, repoId: number): Promise<void> {
    await m.createQueryBuilder().update(PullRequestEntity).set({ headRepoId: 0 }).where('head_repo_id = :repoId AND base_repo_id <> :repoId', { repoId }).execute();
  }

  scheduledMerge(pullId: number, m?: EntityManager): Promise<PullAutoMergeEntity | null> {
    return this.db.findOneBy(PullAutoMergeEntity, { pullId }, m);
  }

  /** Schedules the merge; false when one is scheduled already (the caller holds the pull's row lock). */
  async schedule(m: EntityManager, row: Omit<PullAutoMergeEntity, 'id'>): Promise<boolean> {
    if (await m.findOneBy(PullAutoMergeEntity, { pullId: row.pullId })) return false;
    await m.insert(PullAutoMergeEntity, row);
    return true;
  }

  async unschedule(m: EntityManager, pullId: number): Promise<void> {
    await m.delete(PullAutoMergeEntity, { pullId });
  }

  private async withIssues(pulls: Promise<PullRequestEntity[]>): Promise<PullWithIssue[]> {
    const rows = await pulls;
    if (rows.length === 0) return [];
    const issues = await this.db.manager.find(IssueEntity, { where: { id: In(rows.map((r) => r.issueId)) } });
    const byId = new Map(issues.map((i) => [i.id, i]));
    return rows.filter((r) => byId.has(r.issueId)).map((pull) => ({ pull, issue: byId.get(pull.issueId)! }));
  }

  /** The pull requests of the issues, with their scheduled merges. */
  async deleteForIssues(m: EntityManager, issueIds: number[]): Promise<void> {
    const rows = await m.find(PullRequestEntity, { select: { id: true }, where: { issueId: In(issueIds) } });
    if (rows.length === 0) return;
    await m.delete(PullAutoMergeEntity, { pullId: In(rows.map((r) => r.id)) });
    await m.delete(PullRequestEntity, { id: In(rows.map((r) => r.id)) });
  }
}

/** The columns a check's outcome sets. */
export function stateColumns(state: PullGitState): Partial<PullRequestEntity> {
  return {
    headSha: state.headSha,
    baseSha: state.baseSha,
    mergeBase: state.mergeBase,
    status: state.status,
    conflictedFiles: JSON.stringify(state.conflictedFiles),
    commitsAhead: state.commitsAhead,
    commitsBehind: state.commitsBehind,
    additions: state.additions,
    deletions: state.deletions,
    changedFiles: state.changedFiles,
  };
}
