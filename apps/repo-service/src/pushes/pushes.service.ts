import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventNames, type PayloadCommit, type Repository, type User } from '@gitforge/contracts';
import { createLogger, Database, OutboxService, PlatformConfig } from '@gitforge/platform';
import { DirectoryClient } from '../access/directory.client.js';
import { GitService, type CommitInfo } from '../git/git.service.js';
import { isZeroId, type PushContext, type RefUpdate } from '../protections/push-policy.js';
import { repoUrls, toRepository } from '../repos/repo.mapper.js';
import { ReposRepository } from '../repos/repos.repository.js';
import type { RepositoryEntity } from '../repos/repository.entity.js';
import { KeyedLock } from './keyed-lock.js';
import { compareUrl, toPayloadCommit } from './push-payload.mapper.js';

const log = createLogger('pushes');

/** As many commits as a push event lists (the newest); `total_commits` counts them all. */
const MAX_PAYLOAD_COMMITS = 20;

type EventWriter = (m: EntityManager, repository: Repository) => Promise<unknown>;

interface RefChange {
  update: RefUpdate;
  kind: 'branch' | 'tag';
  name: string;
  commits: CommitInfo[];
  total: number;
  head: CommitInfo | null;
}

/**
 * What follows a successful ref update, whoever moved the refs (a push over smart HTTP, or an
 * API write): the repository row catches up with the disk (`empty`, `size`, branch count,
 * default branch, `updated_at`) and Gitea's push/create/delete events go to the outbox, in one
 * transaction per push. Pushes to one repository finish one after the other, and every finish
 * recomputes from the disk, so the last one leaves the row right.
 */
@Injectable()
export class PushesService {
  private readonly locks = new KeyedLock();

  constructor(
    private readonly db: Database,
    private readonly repos: ReposRepository,
    private readonly git: GitService,
    private readonly outbox: OutboxService,
    private readonly directory: DirectoryClient,
    private readonly config: PlatformConfig,
  ) {}

  async afterRefUpdates(ctx: PushContext, updates: RefUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    const repoId = ctx.repo.id;
    const [sender, changes] = await Promise.all([this.directory.actorUser(ctx.actor), this.describe(repoId, updates)]);
    const emails = new Set<string>();
    for (const c of changes) {
      for (const commit of [...c.commits, ...(c.head ? [c.head] : [])]) emails.add(commit.author.email).add(commit.committer.email);
    }
    const accounts = await this.directory.usersByEmails(ctx.actor, [...emails].filter(Boolean));
    const loginByEmail = new Map(accounts.map((a) => [a.email.toLowerCase(), a.login]));
    const html = repoUrls(this.config.rootUrl, ctx.owner.ownerUser.login, ctx.repo.name).html;
    const writers = changes.flatMap((c) => this.events(ctx, c, sender, html, loginByEmail));

    await this.locks.run(repoId, () =>
      this.db.transaction(async (m) => {
        const repo = await this.repos.lockById(m, repoId);
        if (!repo) return;
        const row = await this.refresh(repo, updates);
        await this.repos.update(m, repoId, row);
        const repository = toRepository({ ...repo, ...row } as RepositoryEntity, ctx.owner.ownerUser, ctx.permission, this.config.rootUrl);
        for (const write of writers) await write(m, repository);
      }),
    );
    log.info({ repoId, refs: updates.length }, 'push recorded');
  }

  /** The row's git facts as they are on disk now; a missing default branch becomes the first pushed one. */
  private async refresh(repo: RepositoryEntity, updates: RefUpdate[]): Promise<Partial<RepositoryEntity>> {
    const numBranches = await this.git.branchCount(repo.id);
    let defaultBranch = repo.defaultBranch;
    if (numBranches > 0) {
      if (!(await this.git.branchExists(repo.id, defaultBranch))) {
        const pushed = updates.find((u) => u.ref.startsWith('refs/heads/') && !isZeroId(u.newSha))?.ref.slice('refs/heads/'.length);
        defaultBranch = pushed && (await this.git.branchExists(repo.id, pushed)) ? pushed : ((await this.git.firstBranch(repo.id)) ?? defaultBranch);
      }
      await this.git.setHead(repo.id, defaultBranch);
    }
    return {
      defaultBranch,
      numBranches,
      isEmpty: numBranches === 0,
      sizeKib: await this.git.sizeKiB(repo.id),
      updatedAt: new Date(),
    };
  }

  /** The commits each updated branch gained (new to the repository for a new branch) and each ref's head commit. */
  private async describe(repoId: number, updates: RefUpdate[]): Promise<RefChange[]> {
    const refs = await this.git.refs(repoId);
    const moved = new Set(updates.map((u) => u.ref));
    const before = new Set([...[...refs].filter(([ref]) => !moved.has(ref)).map(([, sha]) => sha), ...updates.map((u) => u.oldSha).filter((s) => !isZeroId(s))]);
    const out: RefChange[] = [];
    for (const update of updates) {
      const kind = update.ref.startsWith('refs/heads/') ? 'branch' : update.ref.startsWith('refs/tags/') ? 'tag' : null;
      if (!kind) continue;
      const name = update.ref.slice(kind === 'branch' ? 'refs/heads/'.length : 'refs/tags/'.length);
      const change: RefChange = { update, kind, name, commits: [], total: 0, head: null };
      if (!isZeroId(update.newSha)) {
        if (kind === 'branch') {
          const exclude = isZeroId(update.oldSha) ? [...before] : [update.oldSha];
          const listed = await this.git.commitsBetween(repoId, [update.newSha], exclude, MAX_PAYLOAD_COMMITS);
          change.commits = listed.commits;
          change.total = listed.total;
        }
        change.head = change.commits[0]?.sha === update.newSha ? change.commits[0] : await this.git.commitInfo(repoId, update.newSha);
      }
      out.push(change);
    }
    return out;
  }

  /** Gitea's notifications for one ref, in its order: create before push for branches, after it for tags; a deleted branch only says so. */
  private events(ctx: PushContext, c: RefChange, sender: User, html: string, loginByEmail: Map<string, string>): EventWriter[] {
    const meta = { actor: ctx.actor, repoId: ctx.repo.id };
    const { oldSha: before, newSha: after, ref } = c.update;
    const deleted = isZeroId(after);
    const pushed: EventWriter = (m, repository) =>
      this.outbox.add(
        m,
        EventNames.repoPushed,
        {
          ref,
          before,
          after,
          compare_url: deleted ? '' : compareUrl(html, before, after),
          commits: c.commits.map((commit): PayloadCommit => toPayloadCommit(commit, html, loginByEmail)),
          total_commits: c.total,
          head_commit: c.head ? toPayloadCommit(c.head, html, loginByEmail) : null,
          repository,
          pusher: sender,
          sender,
        },
        meta,
      );
    const created: EventWriter = (m, repository) =>
      this.outbox.add(m, EventNames.refCreated, { ref: c.name, ref_type: c.kind, sha: after, repository, sender }, meta);
    const removed: EventWriter = (m, repository) =>
      this.outbox.add(m, EventNames.refDeleted, { ref: c.name, ref_type: c.kind, pusher_type: 'user', repository, sender }, meta);

    if (deleted) return c.kind === 'tag' ? [pushed, removed] : [removed];
    if (isZeroId(before)) return c.kind === 'tag' ? [pushed, created] : [created, pushed];
    return [pushed];
  }
}
