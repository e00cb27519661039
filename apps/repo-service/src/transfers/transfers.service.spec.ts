import { AccessMode, type Actor, type OwnerAccess } from '@gitforge/contracts';
import { Database, DirectoryClient, OutboxService, PlatformConfig, RpcClient } from '@gitforge/platform';
import type { EntityManager } from 'typeorm';
import { RepoAccessService } from '../access/repo-access.service.js';
import { RepoPermission } from '../access/repo-permission.js';
import { ReposRepository } from '../records/repos.repository.js';
import { ReposService } from '../repos/repos.service.js';
import type { RepositoryEntity } from '../records/repository.entity.js';
import { strictMock } from '../testing/strict-mock.js';
import { WatchesRepository } from '../watches/watches.repository.js';
import type { RepoTransferEntity } from './transfer.entities.js';
import { TransfersRepository } from '../records/transfers.repository.js';
import { TransfersService } from './transfers.service.js';

const bob: Actor = { id: 5, login: 'bob', isAdmin: false, scopes: null };
const ownerOf = (id: number, login: string): OwnerAccess => ({ owner: { id, login, kind: 'user', visibility: 'public' } }) as OwnerAccess;
const pendingTo = (recipientId: number): RepoTransferEntity => ({ id: 1, repoId: 1, doerId: 2, recipientId, teamIds: [], createdAt: new Date() });

describe(TransfersService.name, () => {
  const repo = { id: 1, ownerId: 2, name: 'r' } as RepositoryEntity;
  const m = {} as EntityManager;

  it("should not complete an acceptance once the transfer it read was replaced by one to someone else (404, nothing moves)", async () => {
    // bob read the pending transfer to himself; before his transaction, it was rejected and alice started one to carol (id 7).
    const sut = new TransfersService(
      strictMock(Database, { transaction: (async (fn: (m: EntityManager) => Promise<unknown>) => fn(m)) as Database['transaction'] }),
      strictMock(ReposRepository, { lockById: async () => repo, findByOwnerAndName: async () => null }),
      strictMock(ReposService),
      strictMock(RepoAccessService, {
        assign: async () => ({ repo, owner: ownerOf(2, 'alice'), permission: new RepoPermission(AccessMode.read) }),
        ownerAccess: async () => ownerOf(5, 'bob'),
      }),
      strictMock(TransfersRepository, { pending: async (_id: number, manager?: EntityManager) => pendingTo(manager ? 7 : 5) }),
      strictMock(OutboxService),
      strictMock(RpcClient),
      strictMock(DirectoryClient, { publicUser: async () => ({ id: 5, login: 'bob' }) as never, accountsByIds: async () => [{ id: 5 }] as never }),
      {} as PlatformConfig,
      strictMock(WatchesRepository),
    );
    await expect(sut.accept(bob, 'alice', 'r')).rejects.toMatchObject({ code: 'not_found', message: "repository doesn't have a pending transfer [repo_id: 1]" });
  });
});
