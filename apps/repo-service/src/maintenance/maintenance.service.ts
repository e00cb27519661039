import { Injectable } from '@nestjs/common';
import { MoreThan } from 'typeorm';
import type { RepoSweepRequest, RepoSweepResult, RetentionResult } from '@gitforge/contracts';
import { createLogger, Database, DirectoryClient } from '@gitforge/platform';
import { GitError, GitService } from '../git/git.service.js';
import { LicensesService } from '../licenses/licenses.service.js';
import { Archives } from '../releases/archives.js';
import { ReleaseEntity } from '../releases/release.entity.js';
import { RepositoryEntity } from '../records/repository.entity.js';
import { ReposRepository } from '../records/repos.repository.js';
import { StarEntity } from '../stars/star.entity.js';
import { WatchEntity } from '../watches/watch.entity.js';
import { Housekeeping } from './housekeeping.js';

const log = createLogger('maintenance');

/** The repository passes of the admin cron: health check, recounts, garbage collection, licenses, missing directories; and the archive cache. */
@Injectable()
export class MaintenanceService {
  constructor(
    private readonly db: Database,
    private readonly git: GitService,
    private readonly housekeeping: Housekeeping,
    private readonly archives: Archives,
    private readonly directory: DirectoryClient,
    private readonly licenses: LicensesService,
    private readonly repos: ReposRepository,
  ) {}

  async sweep(req: RepoSweepRequest): Promise<RepoSweepResult> {
    const limit = Math.min(Math.max(1, Math.floor(req.limit)), 100);
    const repos = await this.db.manager.find(RepositoryEntity, {
      where: { id: MoreThan(Math.max(0, Math.floor(req.afterId))) },
      order: { id: 'ASC' },
      take: limit,
    });
    const failed: Array<{ repo: RepositoryEntity; message: string }> = [];
    for (const repo of repos) {
      try {
        if (req.task === 'fsck') await this.fsck(repo.id);
        else if (req.task === 'stats') await this.recount(repo);
        // Gitea's SyncRepoLicenses: every repository's license file read again, changed or not.
        else if (req.task === 'licenses') await this.licenses.refresh(repo.id, true);
        else if (req.task === 'reinit') await this.reinit(repo);
        else if ((await this.housekeeping.optimize(repo.id, 'gc')) === 'busy')
          log.info({ repoId: repo.id }, 'gc skipped: another housekeeper has the repository');
      } catch (err) {
        failed.push({
          repo,
          message:
            err instanceof GitError
              ? err.stderr.trim() || err.message
              : err instanceof Error
                ? err.message
                : String(err),
        });
      }
    }
    // Owners' logins for the report, in one call for the batch.
    const owners =
      failed.length === 0
        ? []
        : await this.directory.usersByIds(null, [...new Set(failed.map((f) => f.repo.ownerId))]);
    const login = new Map(owners.map((u) => [u.id, u.login]));
    return {
      nextAfterId: repos.length < limit ? null : repos[repos.length - 1]!.id,
      processed: repos.length,
      failures: failed.map((f) => ({
        repoId: f.repo.id,
        fullName: `${login.get(f.repo.ownerId) ?? `#${f.repo.ownerId}`}/${f.repo.name}`,
        message: f.message,
      })),
    };
  }

  async cleanArchives(olderThanMs: number): Promise<RetentionResult> {
    return { removed: await this.archives.cleanCache(Math.max(0, olderThanMs)) };
  }

  /**
   * Gitea's ReinitMissingRepositories: a repository whose directory is gone gets an empty bare one
   * again (its object format, HEAD on its default branch), built in the staging area and moved
   * into place as a new repository is. Its row follows what is on disk now: empty, no branches.
   */
  private async reinit(repo: RepositoryEntity): Promise<void> {
    // As Gitea's gatherMissingRepoRecords: only a directory that is not there at all. A create
    // whose repository is still staged (or moving into place) is not one.
    if (await this.git.anythingOnDisk(repo.id)) return;
    const made = await this.db.transaction(async (m) => {
      // Under the row's lock (a deletion waits, or went first) and outside any create of the id;
      // looked at again, now that nothing can change it.
      if (!(await this.repos.tryHoldCreation(m, repo.id)) || !(await this.repos.lockById(m, repo.id))) return false;
      if (await this.git.anythingOnDisk(repo.id)) return false;
      await this.git.initStaged(repo.id, repo.defaultBranch, repo.objectFormat);
      await m.update(RepositoryEntity, { id: repo.id }, { isEmpty: true, numBranches: 0, sizeKib: 0 });
      return true;
    });
    if (!made) return;
    // Committed: moved into place (after a crash here the staging sweep moves it, as for a create).
    await this.git.promote(repo.id);
    log.warn({ repoId: repo.id }, 'repository directory was missing; initialised an empty one');
  }

  /** Gitea's health check: `git fsck` of the repository (a missing directory fails too). */
  private async fsck(repoId: number): Promise<void> {
    if (!(await this.git.exists(repoId))) throw new Error('repository directory is missing');
    await this.git.run(repoId, ['fsck', '--no-progress', '--no-dangling']);
  }

  /**
   * Gitea's CheckRepoStats for the counters repo-service keeps: stars, watches, forks and releases
   * from their rows, branches and size from the disk; a row is written only when one drifted.
   */
  private async recount(repo: RepositoryEntity): Promise<void> {
    const m = this.db.manager;
    const [numStars, numWatches, numForks, numReleases, onDisk] = await Promise.all([
      m.countBy(StarEntity, { repoId: repo.id }),
      m.countBy(WatchEntity, { repoId: repo.id }),
      m.countBy(RepositoryEntity, { forkId: repo.id }),
      m.countBy(ReleaseEntity, { repoId: repo.id, isDraft: false }),
      this.git
        .exists(repo.id)
        .then(async (exists) =>
          exists
            ? { numBranches: await this.git.branchCount(repo.id), sizeKib: await this.git.sizeKiB(repo.id) }
            : null,
        ),
    ]);
    const fresh: Partial<RepositoryEntity> = {
      numStars,
      numWatches,
      numForks,
      numReleases,
      ...(onDisk ?? {}),
    };
    const drifted = (Object.keys(fresh) as Array<keyof RepositoryEntity>).filter((k) => fresh[k] !== repo[k]);
    if (drifted.length === 0) return;
    await this.db.transaction((tx) => tx.update(RepositoryEntity, { id: repo.id }, fresh));
    log.info({ repoId: repo.id, fields: drifted }, 'repository counters corrected');
  }
}
