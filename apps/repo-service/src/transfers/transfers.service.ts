import { Injectable } from '@nestjs/common';
import {
  AccessMode,
  ContractError,
  EventNames,
  forbidden,
  isRowIdRange,
  notFound,
  TeamPatterns,
  unprocessable,
  requireActor,
  type Actor,
  type OwnerAccess,
  type Repository,
  type RepoTeamMove,
  type RepoTransferStarted,
  type TransferRepoOption,
} from '@gitforge/contracts';
import { actorOf, Database, DirectoryClient, OutboxService, PlatformConfig, RpcClient } from '@gitforge/platform';
import type { EntityManager } from 'typeorm';
import { CollaborationEntity } from '../access/collaboration.entity.js';
import { RepoAccessService, type RepoContext } from '../access/repo-access.service.js';
import { RepoPermission } from '../access/repo-permission.js';
import { toRepository } from '../repos/repo.mapper.js';
import { ReposRepository } from '../records/repos.repository.js';
import { ReposService } from '../repos/repos.service.js';
import type { RepositoryEntity } from '../records/repository.entity.js';
import { WatchesRepository } from '../watches/watches.repository.js';
import type { RepoTransferEntity } from './transfer.entities.js';
import { TransfersRepository } from '../records/transfers.repository.js';

const NEW_OWNER_NOT_FOUND = 'The new owner does not exist or cannot be found';
/** Gitea's ErrRepoTransferInProgress as TestRepositoryReadyForTransfer builds it (without names). */
const inProgress = (): ContractError => new ContractError('conflict', 'repository is already being transferred [uname: , name: ]');

/** What completing a transfer needs to know. */
interface Completion {
  repoId: number;
  oldOwner: OwnerAccess;
  /** Who completes it: the doer for a direct transfer, the recipient's side on acceptance. */
  sender: Actor;
  newOwner: OwnerAccess;
  teamIds: number[];
  /** Completes a pending transfer: it must still be there, to `newOwner` (not rejected or replaced meanwhile). */
  pending: boolean;
}

/**
 * Repository transfers (Gitea's routers/api/v1/repo/transfer.go and services/repository/transfer.go).
 * A transfer completes at once when the doer is a site admin, transfers to itself, or may create
 * repositories in the target organization; otherwise it waits (shown as `repo_transfer`) until
 * the recipient accepts or rejects it. Repositories live on disk by id, so completing one moves
 * no directory: the row's owner changes, and the old name becomes a redirect.
 */
@Injectable()
export class TransfersService {
  constructor(
    private readonly db: Database,
    private readonly repos: ReposRepository,
    private readonly reposService: ReposService,
    private readonly access: RepoAccessService,
    private readonly transfers: TransfersRepository,
    private readonly outbox: OutboxService,
    private readonly rpc: RpcClient,
    private readonly directory: DirectoryClient,
    private readonly config: PlatformConfig,
    private readonly watches: WatchesRepository,
  ) {}


  /** `POST /repos/{owner}/{repo}/transfer`: repository owners only (reqOwner). */
  async start(actor: Actor | null, ownerName: string, repoName: string, body: TransferRepoOption): Promise<RepoTransferStarted> {
    // repoAssignment (404, or the redirect of an old name) before reqToken (401), as Gitea's routes run.
    const ctx = await this.access.assign(actor, ownerName, repoName);
    const a = requireActor(actor);
    if (!ctx.permission.isOwner) throw forbidden('user should be the owner of the repo');
    const target = await this.access.ownerAccess(a, { name: body.new_owner }).catch((err: unknown) => {
      throw (err as { code?: string }).code === 'not_found' ? notFound(NEW_OWNER_NOT_FOUND) : err;
    });
    const isOrg = target.owner.kind === 'organization';
    // Gitea hides a private organization from those outside it; our `visible` says the same.
    if (isOrg && !a.isAdmin && !target.visible) throw notFound(NEW_OWNER_NOT_FOUND);
    const teamIds = body.team_ids !== undefined ? await this.checkTeams(target, body.team_ids) : [];
    if (await this.livePending(ctx.repo.id)) throw inProgress();

    const direct = a.isAdmin || a.id === target.owner.id || (isOrg && target.canCreateRepo);
    if (direct) {
      await this.complete({ repoId: ctx.repo.id, oldOwner: ctx.owner, sender: a, newOwner: target, teamIds, pending: false });
      const repo = (await this.repos.findById(ctx.repo.id))!;
      // Gitea shows the transferred repository with admin rights, whatever the doer has now.
      return { pending: false, repository: await this.view(a, repo, new RepoPermission(AccessMode.admin)) };
    }

    const sender = await this.directory.publicUser(a.id);
    await this.db.transaction(async (m) => {
      const repo = await this.repos.lockById(m, ctx.repo.id);
      if (!repo) throw notFound();
      if (repo.ownerId !== ctx.owner.owner.id) throw notFound();
      if (await this.transfers.pending(repo.id, m)) {
        throw new ContractError('conflict', `repository is already being transferred [uname: ${ctx.owner.owner.login.toLowerCase()}, name: ${repo.name}]`);
      }
      if (await this.repos.findByOwnerAndName(target.owner.id, repo.name, m)) {
        throw unprocessable(`repository already exists [uname: ${target.owner.login.toLowerCase()}, name: ${repo.name}]`);
      }
      // A recipient who could not see the repository gets read access, so it can answer (Gitea's StartRepositoryTransfer).
      if (!isOrg) await this.grantReadIfBlind(m, repo, target);
      await this.transfers.createPending(m, { repoId: repo.id, doerId: a.id, recipientId: target.owner.id, teamIds, createdAt: new Date() });
      // Those who may accept it are notified (Gitea's RepoPendingTransfer: a Repository thread each).
      await this.outbox.add(
        m,
        EventNames.repoTransferPending,
        {
          repository: toRepository(repo, ctx.owner.ownerUser, new RepoPermission(AccessMode.owner), this.config),
          recipientId: target.owner.id,
          recipientIsOrg: isOrg,
          sender,
        },
        { actor: a, repoId: repo.id },
      );
    });
    const repo = (await this.repos.findById(ctx.repo.id))!;
    return { pending: true, repository: await this.view(a, repo, new RepoPermission(AccessMode.admin)) };
  }

  /** `POST …/transfer/accept` (202): the recipient, or for an organization someone who may create repositories in it. */
  async accept(actor: Actor | null, ownerName: string, repoName: string): Promise<Repository> {
    const ctx = await this.access.assign(actor, ownerName, repoName);
    const a = requireActor(actor);
    const pending = await this.requirePending(ctx);
    const recipient = await this.access.ownerAccess(a, { id: pending.recipientId });
    this.requireRecipientSide(a, recipient);
    await this.complete({ repoId: ctx.repo.id, oldOwner: ctx.owner, sender: a, newOwner: recipient, teamIds: pending.teamIds, pending: true });
    const repo = (await this.repos.findById(ctx.repo.id))!;
    const owner = await this.access.ownerAccess(a, { id: repo.ownerId });
    return this.reposService.toApi(a, { repo, owner, permission: await this.access.permissionFor(a, owner, repo) });
  }

  /** `POST …/transfer/reject` (200): the same people as accept; the repository stays where it is. */
  async reject(actor: Actor | null, ownerName: string, repoName: string): Promise<Repository> {
    const ctx = await this.access.assign(actor, ownerName, repoName);
    const a = requireActor(actor);
    const pending = await this.requirePending(ctx);
    this.requireRecipientSide(a, await this.access.ownerAccess(a, { id: pending.recipientId }));
    await this.db.transaction((m) => this.transfers.deletePending(m, ctx.repo.id));
    return this.reposService.toApi(a, ctx);
  }

  /**
   * The repository's pending transfer. One whose recipient account was deleted since can be
   * answered by nobody (and there is no API to cancel it): it is dropped, so the repository is
   * not kept waiting, and refused any other transfer, for ever.
   */
  private async livePending(repoId: number): Promise<RepoTransferEntity | null> {
    const pending = await this.transfers.pending(repoId);
    if (!pending) return null;
    const [recipient] = await this.directory.accountsByIds(null, [pending.recipientId]);
    if (recipient) return pending;
    await this.db.transaction((m) => this.transfers.deletePending(m, repoId));
    return null;
  }

  private async requirePending(ctx: RepoContext) {
    const pending = await this.livePending(ctx.repo.id);
    if (!pending) throw notFound(`repository doesn't have a pending transfer [repo_id: ${ctx.repo.id}]`);
    return pending;
  }

  /** Gitea's CanUserAcceptOrRejectTransfer: the recipient user itself, or whoever may create repositories in the recipient organization. */
  private requireRecipientSide(actor: Actor, recipient: OwnerAccess): void {
    const allowed = recipient.owner.kind === 'organization' ? recipient.canCreateRepo : recipient.owner.id === actor.id;
    if (!allowed) throw forbidden('permission denied');
  }

  /** Gitea's checks of `team_ids`: only for an organization (422), each known (422) and of that organization (403). */
  private async checkTeams(target: OwnerAccess, ids: number[]): Promise<number[]> {
    if (target.owner.kind !== 'organization') throw unprocessable('Teams can only be added to organization-owned repositories');
    // Ids no row can have name no team (and PostgreSQL would refuse to compare them).
    const found = await this.directory.teams(0, { ids: ids.filter(isRowIdRange) });
    for (const id of ids) {
      const team = found.find((t) => t.id === id);
      if (!team) throw unprocessable(`team ${id} not found`);
      if (team.orgId !== target.owner.id) throw forbidden(`team ${id} belongs not to org ${target.owner.id}`);
    }
    return [...new Set(ids)];
  }

  private async grantReadIfBlind(m: EntityManager, repo: RepositoryEntity, recipient: OwnerAccess): Promise<void> {
    const [account] = await this.directory.accountsByIds(null, [recipient.owner.id]);
    if (!account) return;
    if ((await this.access.permissionOfUser(actorOf(account), repo)).canSee) return;
    const existing = await m.findOne(CollaborationEntity, { where: { repoId: repo.id, userId: account.id } });
    if (!existing) await m.insert(CollaborationEntity, { repoId: repo.id, userId: account.id, mode: AccessMode.read });
  }

  /**
   * Gitea's transferOwnership, in one transaction: the new owner must not have a repository of that
   * name (422); the owner changes; collaborators who are the new owner or members of the new
   * organization are dropped; the pending transfer goes; `{old owner}/{name}` becomes a redirect
   * and any redirect on the new name ends; the repository leaves its old teams and joins `teamIds`
   * (org-service, before this commits: a failure there undoes the transfer, and a retry repeats
   * both). The doer watches it, an old owner organization stops watching it. Then `repo.transferred` (the transfer_repo feed entry; Gitea sends no webhook for it).
   */
  private async complete(c: Completion): Promise<void> {
    const { newOwner, oldOwner } = c;
    const sender = await this.directory.publicUser(c.sender.id);
    const memberIds = newOwner.owner.kind === 'organization' ? await this.membersAmongCollaborators(c.repoId, newOwner.owner.id) : [];
    await this.db.transaction(async (m) => {
      const repo = await this.repos.lockById(m, c.repoId);
      // Completed (or moved) by a concurrent request since this one looked.
      if (!repo || repo.ownerId !== oldOwner.owner.id) throw notFound();
      if (await this.repos.findByOwnerAndName(newOwner.owner.id, repo.name, m)) {
        throw unprocessable(`repository already exists [uname: ${newOwner.owner.login}, name: ${repo.name}]`);
      }
      // The transfer as it is now: not rejected meanwhile, nor replaced by one to someone else (or to other teams).
      let teamIds = c.teamIds;
      // Who started the transfer: Gitea's transferOwnership runs as them even when the recipient accepts.
      let doerId = c.sender.id;
      if (c.pending) {
        const pending = await this.transfers.pending(repo.id, m);
        if (pending?.recipientId !== newOwner.owner.id) throw notFound(`repository doesn't have a pending transfer [repo_id: ${repo.id}]`);
        teamIds = pending.teamIds;
        doerId = pending.doerId;
      }
      await this.repos.update(m, repo.id, { ownerId: newOwner.owner.id, ownerName: newOwner.owner.login });
      for (const userId of [newOwner.owner.id, ...memberIds]) await m.delete(CollaborationEntity, { repoId: repo.id, userId });
      await this.transfers.deletePending(m, repo.id);
      await this.transfers.addRedirect(m, repo.id, { ownerId: oldOwner.owner.id, name: repo.name }, { ownerId: newOwner.owner.id, name: repo.name });
      // Gitea's transferOwnership: the doer watches the repository, an organization it leaves no longer does.
      await this.watches.add(m, doerId, repo.id);
      if (oldOwner.owner.kind === 'organization') await this.watches.remove(m, oldOwner.owner.id, repo.id);
      const moved = { ...(await this.repos.lockById(m, repo.id))!, ownerId: newOwner.owner.id, ownerName: newOwner.owner.login } as RepositoryEntity;
      await this.outbox.add(
        m,
        EventNames.repoTransferred,
        {
          repository: toRepository(moved, newOwner.ownerUser, new RepoPermission(AccessMode.owner), this.config),
          oldOwner: oldOwner.owner.login,
          oldOwnerId: oldOwner.owner.id,
          oldOwnerIsOrg: oldOwner.owner.kind === 'organization',
          sender,
        },
        { actor: c.sender, repoId: repo.id },
      );
      if (oldOwner.owner.kind === 'organization' || newOwner.owner.kind === 'organization') {
        const move: RepoTeamMove = { repoId: repo.id, orgId: newOwner.owner.kind === 'organization' ? newOwner.owner.id : null, teamIds };
        await this.rpc.call<void, Record<string, string>, RepoTeamMove>(TeamPatterns.moveRepo, { actor: c.sender, body: move });
      }
    });
  }

  /** The repository's collaborators who are members of the organization (they reach it through their teams from now on). */
  private async membersAmongCollaborators(repoId: number, orgId: number): Promise<number[]> {
    const rows = await this.db.manager.find(CollaborationEntity, { where: { repoId } });
    const members: number[] = [];
    for (const row of rows) if ((await this.directory.teamIdsOfUser(orgId, row.userId)).length > 0) members.push(row.userId);
    return members;
  }

  private async view(actor: Actor, repo: RepositoryEntity, permission: RepoPermission): Promise<Repository> {
    const owner = await this.access.ownerAccess(actor, { id: repo.ownerId });
    return this.reposService.toApi(actor, { repo, owner, permission });
  }
}
