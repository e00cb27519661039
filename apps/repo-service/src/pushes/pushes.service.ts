import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { AccessMode, EventNames, type PayloadCommit, type Repository, type User } from '@gitforge/contracts';
import { createLogger, Database, DirectoryClient, OutboxService, PlatformConfig, RequestContexts } from '@gitforge/platform';
import { RepoPermission } from '../access/repo-permission.js';
import { commitInfoOf, commitsOnTopOf } from '../git/commit-changes.js';
import { GitObjects } from '../git/git-objects.js';
import { GitService, type CommitInfo } from '../git/git.service.js';
import { Housekeeping } from '../maintenance/housekeeping.js';
import { KeyedThrottle } from '../maintenance/keyed-throttle.js';
import { isZeroId, type PushContext, type RefUpdate } from '../protections/push-policy.js';
import { repoUrls, toRepository } from '../repos/repo.mapper.js';
import { ReposRepository } from '../records/repos.repository.js';
import { ReleaseEntity } from '../releases/release.entity.js';
import type { RepositoryEntity } from '../records/repository.entity.js';
import { KeyedLock } from './keyed-lock.js';
import { compareUrl, toPayloadCommit } from './push-payload.mapper.js';

const log = createLogger('pushes');

/** Gitea's [ui] FEED_MAX_COMMIT_NUM: a push event lists the newest this many; `total_commits` counts them all. */
const MAX_PAYLOAD_COMMITS = 5;
/** The most commits a push's description reads in process before it asks git to list them. */
const IN_PROCESS_COMMITS = 64;
/** A new branch's event describes the last this many commits of its history, new or not (Gitea's CommitsBeforeLimit(10)). */
const NEW_BRANCH_COMMITS = 10;
/** Webhook payloads show the repository as its owner sees it, except create events (Gitea's notifier). */
const AS_OWNER = new RepoPermission(AccessMode.owner);

/** The disk as a push finish reads it; null where it was not read (unchanged, or measured later). */
interface DiskFacts {
  branches: string[] | null;
  sizeKib: number | null;
}

/** The least time between two measurements of a repository's size after pushes. */
const SIZE_INTERVAL_MS = 1000;

type EventWriter = (m: EntityManager, view: (permission: RepoPermission) => Repository) => Promise<unknown>;

interface RefChange {
  update: RefUpdate;
  kind: 'branch' | 'tag';
  name: string;
  commits: CommitInfo[];
  total: number;
  head: CommitInfo | null;
  /** Gitea's compare link, relative to the root URL ("" when there is nothing to compare). */
  compare: string;
}

/**
 * What follows a successful ref update, whoever moved the refs (a push over smart HTTP, or an
 * API write): the repository row catches up with the disk (`empty`, `size`, branch count,
 * default branch, `updated_at`) and Gitea's push/create/delete events go to the outbox, in one
 * transaction per push. Pushes to one repository finish one after the other, and every finish
 * recomputes from the disk what its updates can have changed, so the last one leaves the row right.
 */
@Injectable()
export class PushesService implements OnModuleDestroy {
  private readonly locks = new KeyedLock();
  private readonly sizes = new KeyedThrottle(SIZE_INTERVAL_MS);

  constructor(
    private readonly db: Database,
    private readonly repos: ReposRepository,
    private readonly git: GitService,
    private readonly objects: GitObjects,
    private readonly outbox: OutboxService,
    private readonly directory: DirectoryClient,
    private readonly config: PlatformConfig,
    private readonly housekeeping: Housekeeping,
  ) {}

  /** `pusher`: the actor as anyone sees them, when the caller has it already. */
  async afterRefUpdates(ctx: PushContext, updates: RefUpdate[], pusher?: User): Promise<void> {
    if (updates.length === 0) return;
    const repoId = ctx.repo.id;
    // The pusher as anyone sees them (Gitea's ToUser without a viewer): payloads leave the forge.
    const [sender, changes] = await Promise.all([pusher ?? this.directory.publicUser(ctx.actor.id), this.describe(ctx, updates)]);
    const emails = new Set<string>();
    for (const c of changes) {
      for (const commit of [...c.commits, ...(c.head ? [c.head] : [])]) emails.add(commit.author.email).add(commit.committer.email);
    }
    const accounts = await this.directory.usersByEmails(ctx.actor, [...emails].filter(Boolean));
    const loginByEmail = new Map(accounts.map((a) => [a.email.toLowerCase(), a.login]));
    const html = repoUrls(this.config, ctx.owner.ownerUser.login, ctx.repo.name).html;
    const writers = changes.flatMap((c) => this.events(ctx, c, sender, html, loginByEmail));

    const branchesMayChange = ctx.repo.isEmpty || updates.some((u) => u.ref.startsWith('refs/heads/') && (isZeroId(u.oldSha) || isZeroId(u.newSha)));
    await this.locks.run(repoId, async () => {
      // On SQLite every writing transaction of the process runs alone, so the disk is read before
      // it (this lock keeps this repository's finishes in order, and nothing else writes there);
      // on PostgreSQL under the row lock, which orders finishes across replicas.
      const early = this.db.serialWrites ? await this.diskFacts(repoId, branchesMayChange) : null;
      await this.db.transaction(async (m) => {
        const repo = await this.repos.lockById(m, repoId);
        if (!repo) return;
        const row = await this.refresh(repo, updates, early ?? (await this.diskFacts(repoId, branchesMayChange)));
        const releases = await this.unpublishDeletedTags(m, repoId, updates);
        if (releases !== null) row.numReleases = releases;
        await this.repos.update(m, repoId, row);
        const fresh = { ...repo, ...row } as RepositoryEntity;
        const view = (permission: RepoPermission): Repository => toRepository(fresh, ctx.owner.ownerUser, permission, this.config);
        for (const write of writers) await write(m, view);
      });
    });
    log.info({ repoId, refs: updates.length }, 'push recorded');
    // New objects may call for a repack; decided and done in the background, never in the push.
    this.housekeeping.afterPush(repoId);
  }

  /**
   * Gitea's PushUpdateDeleteTags: the releases of tags a push deleted become drafts (their tag
   * is gone), and the repository's release count follows; null when no tag went.
   */
  private async unpublishDeletedTags(m: EntityManager, repoId: number, updates: RefUpdate[]): Promise<number | null> {
    const gone = updates.filter((u) => u.ref.startsWith('refs/tags/') && isZeroId(u.newSha)).map((u) => u.ref.slice('refs/tags/'.length).toLowerCase());
    if (gone.length === 0) return null;
    await m.update(ReleaseEntity, { repoId, lowerTagName: In(gone), isDraft: false }, { isDraft: true, sha: '' });
    return m.countBy(ReleaseEntity, { repoId, isDraft: false });
  }

  /**
   * What the row follows on disk: the branches when the updates can have changed them (a branch
   * created or deleted, or a repository that was empty; moving existing branches leaves the list
   * as the last finish that changed it recorded), and the size, measured (count-objects) at most
   * once a second per repository: a finish within the second after one that measured leaves it to
   * one measurement at the end of that second ({@link sizeLater}).
   */
  private async diskFacts(repoId: number, withBranches: boolean): Promise<DiskFacts> {
    const measure = this.sizes.now(repoId, () => this.sizeLater(repoId));
    const [branches, sizeKib] = await Promise.all([withBranches ? this.git.branchNames(repoId) : null, measure ? this.git.sizeKiB(repoId) : null]);
    return { branches, sizeKib };
  }

  /** The size measured after a burst of finishes, in its own transaction (ordered as finishes are). */
  private sizeLater(repoId: number): void {
    if (!this.sizes.now(repoId, () => this.sizeLater(repoId))) return;
    const measure = async (): Promise<void> => {
      if (!(await this.git.exists(repoId))) return;
      const early = this.db.serialWrites ? await this.git.sizeKiB(repoId) : null;
      await this.db.transaction(async (m) => {
        if (!(await this.repos.lockById(m, repoId))) return;
        await this.repos.update(m, repoId, { sizeKib: early ?? (await this.git.sizeKiB(repoId)) });
      });
    };
    void RequestContexts.detached(() => this.locks.run(repoId, measure)).catch((err: unknown) =>
      log.warn({ repoId, err: err instanceof Error ? err.message : String(err) }, 'measuring the repository size failed'),
    );
  }

  onModuleDestroy(): void {
    this.sizes.clear();
  }

  /**
   * The row's git facts from the disk; a missing default branch becomes the first pushed one,
   * else the first there is, and HEAD follows whenever the default changes or the repository
   * stops being empty.
   */
  private async refresh(repo: RepositoryEntity, updates: RefUpdate[], facts: DiskFacts): Promise<Partial<RepositoryEntity>> {
    const { branches } = facts;
    const sizeKib = facts.sizeKib ?? repo.sizeKib;
    if (branches === null) return { sizeKib, updatedAt: new Date() };
    let defaultBranch = repo.defaultBranch;
    if (branches.length > 0 && !branches.includes(defaultBranch)) {
      const pushed = updates.find((u) => u.ref.startsWith('refs/heads/') && !isZeroId(u.newSha))?.ref.slice('refs/heads/'.length);
      defaultBranch = pushed && branches.includes(pushed) ? pushed : branches[0]!;
    }
    if (branches.length > 0 && (defaultBranch !== repo.defaultBranch || repo.isEmpty)) await this.git.setHead(repo.id, defaultBranch);
    return { defaultBranch, numBranches: branches.length, isEmpty: branches.length === 0, sizeKib, updatedAt: new Date() };
  }

  /**
   * What each ref update tells, as Gitea's pushUpdates does: an updated branch lists the commits
   * it gained, a new branch the last commits of its history; a new tag only its commit.
   */
  private async describe(ctx: PushContext, updates: RefUpdate[]): Promise<RefChange[]> {
    const repoId = ctx.repo.id;
    const out: RefChange[] = [];
    for (const update of updates) {
      const kind = update.ref.startsWith('refs/heads/') ? 'branch' : update.ref.startsWith('refs/tags/') ? 'tag' : null;
      if (!kind) continue;
      const name = update.ref.slice(kind === 'branch' ? 'refs/heads/'.length : 'refs/tags/'.length);
      const change: RefChange = { update, kind, name, commits: [], total: 0, head: null, compare: '' };
      if (!isZeroId(update.newSha)) {
        if (kind === 'branch') {
          const creating = isZeroId(update.oldSha);
          const listed = creating
            ? await this.git.commitsBetween(repoId, [update.newSha], [], NEW_BRANCH_COMMITS)
            : ((await this.gainedInProcess(repoId, update)) ?? (await this.git.commitsBetween(repoId, [update.newSha], [update.oldSha], MAX_PAYLOAD_COMMITS)));
          change.total = creating ? listed.commits.length : listed.total;
          change.commits = listed.commits.slice(0, MAX_PAYLOAD_COMMITS);
          change.compare = await this.compareFrom(ctx, change);
        } else {
          change.compare = compareUrl(ctx.owner.ownerUser.login, ctx.repo.name, update.oldSha, update.newSha);
        }
        change.head = change.commits[0]?.sha === update.newSha ? change.commits[0] : await this.git.commitInfo(repoId, update.newSha);
      }
      out.push(change);
    }
    return out;
  }

  /**
   * What `commitsBetween` would list for a branch that gained a few commits on top of its old
   * head (an API write, a pull's merge, a push of a few commits), read in process without its
   * two git processes; null where git has to list them ({@link commitsOnTopOf}, {@link commitInfoOf}).
   */
  private async gainedInProcess(repoId: number, update: RefUpdate): Promise<{ total: number; commits: CommitInfo[] } | null> {
    const gained = await commitsOnTopOf(this.objects, repoId, update.newSha, update.oldSha, IN_PROCESS_COMMITS);
    if (!gained) return null;
    const commits: CommitInfo[] = [];
    for (const commit of gained.slice(0, MAX_PAYLOAD_COMMITS)) {
      const info = await commitInfoOf(this.objects, repoId, commit.sha);
      if (!info) return null;
      commits.push(info);
    }
    return { total: gained.length, commits };
  }

  /**
   * Gitea's getCompareURL for a branch: from the old head, or for a new branch from the parent
   * of the oldest commit listed, else from the default branch (unless this is it).
   */
  private async compareFrom(ctx: PushContext, change: RefChange): Promise<string> {
    let from = isZeroId(change.update.oldSha) ? '' : change.update.oldSha;
    const oldest = change.commits.at(-1);
    if (!from && oldest) from = (await this.objects.commit(ctx.repo.id, oldest.sha))?.parents[0] ?? '';
    if (!from && change.name !== ctx.repo.defaultBranch) from = ctx.repo.defaultBranch;
    return from ? compareUrl(ctx.owner.ownerUser.login, ctx.repo.name, from, change.update.newSha) : '';
  }

  /** Gitea's notifications for one ref, in its order: create before push for branches, after it for tags; a deleted branch only says so. */
  private events(ctx: PushContext, c: RefChange, sender: User, html: string, loginByEmail: Map<string, string>): EventWriter[] {
    const meta = { actor: ctx.actor, repoId: ctx.repo.id };
    const { oldSha: before, newSha: after, ref } = c.update;
    const deleted = isZeroId(after);
    const pushed: EventWriter = (m, view) =>
      this.outbox.add(
        m,
        EventNames.repoPushed,
        {
          ref,
          before,
          after,
          // Gitea prefixes its relative compare link with the root URL, so "" becomes the root URL.
          compare_url: `${this.config.rootUrl}${c.compare}`,
          commits: c.commits.map((commit): PayloadCommit => toPayloadCommit(commit, html, loginByEmail)),
          total_commits: c.total,
          head_commit: c.head ? toPayloadCommit(c.head, html, loginByEmail) : null,
          repository: view(AS_OWNER),
          pusher: sender,
          sender,
          ...(c.update.mergedPull !== undefined ? { merged_pull: c.update.mergedPull } : {}),
        },
        meta,
      );
    const created: EventWriter = (m, view) =>
      this.outbox.add(m, EventNames.refCreated, { ref: c.name, ref_type: c.kind, sha: after, repository: view(RepoPermission.none), sender }, meta);
    const removed: EventWriter = (m, view) =>
      this.outbox.add(
        m,
        EventNames.refDeleted,
        { ref: c.name, ref_type: c.kind, pusher_type: 'user', repository: view(AS_OWNER), sender, ...(c.update.renamedTo ? { renamed_to: c.update.renamedTo } : {}) },
        meta,
      );

    if (deleted) return c.kind === 'tag' ? [pushed, removed] : [removed];
    if (isZeroId(before)) return c.kind === 'tag' ? [pushed, created] : [created, pushed];
    return [pushed];
  }
}
