import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import { RepositoryEntity, RepositoryStatus } from './repository.entity.js';
import { RepoRedirectEntity, RepoTransferEntity } from '../transfers/transfer.entities.js';

/** Pending transfers and old repository names (Gitea's repo_transfer and repo_redirect). */
@Injectable()
export class TransfersRepository {
  constructor(private readonly db: Database) {}

  /** The repository `{ownerId}/{name}` once named, if any (Gitea's LookupRedirect). */
  async redirectOf(ownerId: number, name: string): Promise<number | null> {
    const row = await this.db.findOneBy(RepoRedirectEntity, { ownerId, lowerName: name.toLowerCase() });
    return row?.redirectRepoId ?? null;
  }

  /** Gitea's DeleteRedirect: a repository now holds `{ownerId}/{name}`, so that old name leads nowhere else. */
  async deleteRedirect(m: EntityManager, ownerId: number, name: string): Promise<void> {
    await m.delete(RepoRedirectEntity, { ownerId, lowerName: name.toLowerCase() });
  }

  /**
   * Gitea's NewRedirect: `{ownerId}/{oldName}` leads to the repository from now on, and whatever
   * redirect sat on its new name `{newOwnerId}/{newName}` is gone.
   */
  async addRedirect(m: EntityManager, repoId: number, old: { ownerId: number; name: string }, now: { ownerId: number; name: string }): Promise<void> {
    await this.deleteRedirect(m, now.ownerId, now.name);
    if (old.ownerId === now.ownerId && old.name.toLowerCase() === now.name.toLowerCase()) return;
    await this.deleteRedirect(m, old.ownerId, old.name);
    await m.insert(RepoRedirectEntity, { ownerId: old.ownerId, lowerName: old.name.toLowerCase(), redirectRepoId: repoId });
  }

  pending(repoId: number, manager?: EntityManager): Promise<RepoTransferEntity | null> {
    return this.db.findOneBy(RepoTransferEntity, { repoId }, manager);
  }

  /** The pending transfers of those of `repos` marked pending: no read at all when none is. */
  async pendingOf(repos: Array<Pick<RepositoryEntity, 'id' | 'status'>>): Promise<RepoTransferEntity[]> {
    const repoIds = [...new Set(repos.filter((r) => r.status === RepositoryStatus.pendingTransfer).map((r) => r.id))];
    if (repoIds.length === 0) return [];
    return this.db.manager.find(RepoTransferEntity, { where: { repoId: In(repoIds) } });
  }

  /** Records a pending transfer and marks the repository (its status spares reads of this table). */
  async createPending(m: EntityManager, row: Omit<RepoTransferEntity, 'id'>): Promise<void> {
    await m.insert(RepoTransferEntity, row);
    await m.update(RepositoryEntity, { id: row.repoId }, { status: RepositoryStatus.pendingTransfer });
  }

  async deletePending(m: EntityManager, repoId: number): Promise<void> {
    await m.delete(RepoTransferEntity, { repoId });
    await m.update(RepositoryEntity, { id: repoId }, { status: RepositoryStatus.ready });
  }
}
