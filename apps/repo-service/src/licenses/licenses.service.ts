import { randomUUID } from 'node:crypto';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { forbidden, isLicenseKey, licenseTemplate, licenseTemplateNames, QueueNames, type Actor, type EventEnvelope } from '@gitforge/contracts';
import { createLogger, Database, QueueDriver, type QueueJob } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { GitObjects } from '../git/git-objects.js';
import { Refs } from '../git/refs.js';
import { defaultBranchPushed } from '../pushes/default-branch-push.js';
import { KeyedLock } from '../pushes/keyed-lock.js';
import { ReposRepository } from '../records/repos.repository.js';
import type { RepositoryEntity } from '../records/repository.entity.js';
import { declaredLicenses, findLicenseFile, LicenseMatcher } from './license-detection.js';

const log = createLogger('licenses');

/** The name of a {@link LicensesService.requestRefresh} job, beside the repo.pushed events of the same queue. */
const REFRESH_JOB = 'licenses.refresh';

interface RefreshRequest {
  repoId: number;
}

/** A license file larger than this is no license text anyone wrote by hand; it is not read. */
const MAX_LICENSE_BYTES = 512 * 1024;

/** The default branch's license file: its blob ('' when there is none) at the commit it was found at. */
interface LicenseFile {
  head: string | null;
  blob: string;
}

/**
 * `GET /repos/{owner}/{repo}/licenses` and `Repository.licenses`: the licenses of the default
 * branch's root license file, as Gitea's license updater keeps them. A push to the default branch
 * (a git push, an API file write, a merge) reads the file again in the background (the
 * repo-licenses queue), and only when its blob changed; a new repository records the license it was
 * created with; an adoption and a changed default branch queue a look too, and the
 * sync_repo_licenses task looks again at every repository.
 */
@Injectable()
export class LicensesService implements OnApplicationBootstrap {
  /** One refresh per repository at a time in this process: a push and a sweep arriving together do it once. */
  private readonly locks = new KeyedLock();
  private matcher: Promise<LicenseMatcher> | undefined;

  constructor(
    private readonly db: Database,
    private readonly access: RepoAccessService,
    private readonly repos: ReposRepository,
    private readonly refs: Refs,
    private readonly objects: GitObjects,
    private readonly queue: QueueDriver,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.process<EventEnvelope | RefreshRequest>(QueueNames.repoLicenses, (job) => this.handle(job), { concurrency: 1 });
  }

  /** Gitea's reqRepoReader(unit.TypeCode): a repository the caller cannot see is 404, its code unreadable 403. */
  async get(actor: Actor | null, owner: string, repo: string): Promise<string[]> {
    const ctx = await this.access.assign(actor, owner, repo);
    if (!ctx.permission.canRead('repo.code')) throw forbidden('user should have specific read permission or be a repo admin or a site admin');
    return ctx.repo.licenses;
  }

  /**
   * A job of the repo-licenses queue: a push event (look again when it moved the default branch) or
   * a {@link requestRefresh}. Replays find the blob unchanged and stop there.
   */
  async handle(job: QueueJob<EventEnvelope | RefreshRequest>): Promise<void> {
    if (job.name === REFRESH_JOB) return this.refresh((job.data as RefreshRequest).repoId);
    const repo = await defaultBranchPushed(job.data as EventEnvelope, this.repos);
    if (repo) await this.refresh(repo.id);
  }

  /**
   * Has the license file read again in the background, as after a push, when the default branch
   * changed without one (an adoption, a new default branch): as Gitea queues its license updater
   * then. A failure is the caller's to log; the next push or sync_repo_licenses looks again.
   */
  async requestRefresh(repoId: number): Promise<void> {
    await this.queue.add(QueueNames.repoLicenses, REFRESH_JOB, { repoId } satisfies RefreshRequest, { jobId: `licenses-${repoId}-${randomUUID()}` });
  }

  /**
   * Reads the default branch's license file again when its blob is not the one the stored
   * licenses came from (`force`: in any case, for sync_repo_licenses after the license list
   * changed). The answer is written only if the default branch still points where it was read.
   */
  refresh(repoId: number, force = false): Promise<void> {
    return this.locks.run(repoId, async () => {
      const repo = await this.repos.findById(repoId);
      if (!repo) return;
      const file = await this.licenseFile(repo);
      if (!force && file.blob === repo.licenseBlob) return;
      const licenses = file.blob ? await this.detect(repo.id, file.blob) : [];
      const written = await this.db.transaction(async (m) => {
        const current = await this.repos.lockById(m, repoId);
        // A push that moved the branch since (or a new default branch) has its own refresh coming.
        if (!current || current.defaultBranch !== repo.defaultBranch || (await this.head(current)) !== file.head) return false;
        await this.repos.update(m, repoId, { licenses, licenseBlob: file.blob });
        return true;
      });
      if (written) log.debug({ repoId, licenses }, 'repository licenses read');
    });
  }

  private async head(repo: RepositoryEntity): Promise<string | null> {
    return repo.isEmpty ? null : this.refs.branchHead(repo.id, repo.defaultBranch);
  }

  private async licenseFile(repo: RepositoryEntity): Promise<LicenseFile> {
    const head = await this.head(repo);
    const commit = head ? await this.objects.commit(repo.id, head) : null;
    const entries = commit ? await this.objects.tree(repo.id, commit.tree) : null;
    return { head, blob: (entries && findLicenseFile(entries)?.sha) ?? '' };
  }

  /** The file's declared licenses (SPDX-License-Identifier lines), else those its text matches. */
  private async detect(repoId: number, blob: string): Promise<string[]> {
    const info = await this.objects.info(repoId, blob);
    if (!info || info.size > MAX_LICENSE_BYTES) return [];
    const text = (await this.objects.blob(repoId, blob))?.toString('utf8') ?? '';
    const declared = declaredLicenses(text, isLicenseKey);
    if (declared.length > 0) return declared;
    return (await this.licenseMatcher()).detect(text);
  }

  /** Built on first need, once for all callers; a failed build is tried again by the next. */
  private licenseMatcher(): Promise<LicenseMatcher> {
    this.matcher ??= LicenseMatcher.build(licenseTemplateNames(), licenseTemplate).catch((err: unknown) => {
      this.matcher = undefined;
      throw err;
    });
    return this.matcher;
  }
}
