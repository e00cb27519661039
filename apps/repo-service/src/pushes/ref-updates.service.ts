import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccessMode, ContractError, EventNames, UserPatterns, type Actor, type User } from '@gitforge/contracts';
import { OutboxService, PlatformConfig, RpcClient } from '@gitforge/platform';
import type { RepoContext } from '../access/repo-access.service.js';
import { RepoPermission } from '../access/repo-permission.js';
import { toPayloadCommit } from '../commits/commit.mapper.js';
import { CommitUsers } from '../commits/commit-users.js';
import { CommitLog } from '../git/commit-log.js';
import { GitService } from '../git/git.service.js';
import { repoUrls, toRepository } from '../repos/repo.mapper.js';
import { ReposRepository } from '../repos/repos.repository.js';
import type { RepositoryEntity } from '../repos/repository.entity.js';

/** A branch moved by gitforge itself: created (`before` null), updated, or deleted (`after` null). */
export interface BranchUpdate {
  branch: string;
  before: string | null;
  after: string | null;
}

/** Commits a push webhook carries at most (Gitea's limit), and the ones a new branch shows. */
const MAX_PUSH_COMMITS = 20;
const NEW_BRANCH_COMMITS = 10;

/**
 * Records branch updates that API writes make, in the caller's transaction: the repository row
 * (empty flag, default branch, branch count, size, update time) and the events a `git push` of the
 * same update produces (`repo.ref_created`, `repo.pushed`, `repo.ref_deleted`).
 */
@Injectable()
export class RefUpdates {
  constructor(
    private readonly repos: ReposRepository,
    private readonly git: GitService,
    private readonly outbox: OutboxService,
    private readonly commitLog: CommitLog,
    private readonly commitUsers: CommitUsers,
    private readonly rpc: RpcClient,
    private readonly config: PlatformConfig,
  ) {}

  /** The actor as a User in its own view (with e-mail): commit identity, pusher and sender. */
  async actorUser(actor: Actor): Promise<User> {
    const [user] = await this.rpc.call<User[], Record<string, string>, { ids: number[] }>(UserPatterns.getMany, {
      actor,
      body: { ids: [actor.id] },
    });
    if (!user) throw new ContractError('unauthenticated', 'token is required');
    return user;
  }

  async record(
    m: EntityManager,
    ctx: RepoContext,
    actor: Actor,
    sender: User,
    update: BranchUpdate,
    changes: Partial<RepositoryEntity> = {},
  ): Promise<RepositoryEntity> {
    const repoId = ctx.repo.id;
    const row: Partial<RepositoryEntity> = {
      ...changes,
      numBranches: await this.git.branchCount(repoId),
      sizeKib: await this.git.sizeKiB(repoId),
      updatedAt: new Date(),
    };
    await this.repos.update(m, repoId, row);
    const repo = { ...ctx.repo, ...row } as RepositoryEntity;
    // Webhook payloads show the repository as its owner sees it (Gitea's ToRepo with owner access).
    const repository = toRepository(repo, ctx.owner.ownerUser, new RepoPermission(AccessMode.owner), this.config.rootUrl);
    const meta = { actor, repoId };
    if (update.after === null) {
      await this.outbox.add(m, EventNames.refDeleted, { ref: update.branch, ref_type: 'branch', pusher_type: 'user', repository, sender }, meta);
      return repo;
    }
    if (update.before === null) {
      await this.outbox.add(m, EventNames.refCreated, { ref: update.branch, ref_type: 'branch', sha: update.after, repository, sender }, meta);
    }
    const revs = update.before === null ? [update.after] : [update.after, `^${update.before}`];
    const logged = await this.commitLog.log(repoId, { revs, maxCount: update.before === null ? NEW_BRANCH_COMMITS : MAX_PUSH_COMMITS });
    const total = update.before === null ? logged.length : await this.commitLog.count(repoId, { revs });
    const users = await this.commitUsers.byEmail(actor, logged.flatMap((c) => [c.author.email, c.committer.email]));
    const urls = repoUrls(this.config.rootUrl, ctx.owner.ownerUser.login, repo.name);
    const commits = logged.map((c) => toPayloadCommit(c, urls, users));
    await this.outbox.add(
      m,
      EventNames.repoPushed,
      {
        ref: `refs/heads/${update.branch}`,
        before: update.before ?? '0'.repeat(update.after.length),
        after: update.after,
        compare_url: update.before === null ? '' : `${urls.html}/compare/${update.before}...${update.after}`,
        commits,
        total_commits: total,
        head_commit: commits[0] ?? null,
        repository,
        pusher: sender,
        sender,
      },
      meta,
    );
    return repo;
  }
}
