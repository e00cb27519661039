import { AccessMode, type Actor, type OwnerAccess } from '@gitforge/contracts';
import { BlobStore, Database, DirectoryClient, OutboxService, PlatformConfig, RpcClient } from '@gitforge/platform';
import type { EntityManager } from 'typeorm';
import { RepoAccessService } from '../access/repo-access.service.js';
import { RepoPermission } from '../access/repo-permission.js';
import { GitService } from '../git/git.service.js';
import { LicensesService } from '../licenses/licenses.service.js';
import { strictMock } from '../testing/strict-mock.js';
import { StarCounts } from '../stars/star-counts.js';
import { StarsRepository } from '../stars/stars.repository.js';
import { TransfersRepository } from '../records/transfers.repository.js';
import { WatchesRepository } from '../watches/watches.repository.js';
import { RepoStaging } from './repo-staging.js';
import { ReposRepository } from '../records/repos.repository.js';
import { ReposService } from './repos.service.js';
import type { RepositoryEntity } from '../records/repository.entity.js';

const alice: Actor = { id: 2, login: 'alice', isAdmin: false, scopes: null };
const owner = { owner: { id: 2, login: 'alice', kind: 'user', visibility: 'public' }, ownerUser: { id: 2, login: 'alice' }, organization: null } as unknown as OwnerAccess;

describe(ReposService.name, () => {
  const repo = { id: 1, ownerId: 2, name: 'r', lowerName: 'r', settings: {}, topics: [] } as unknown as RepositoryEntity;
  const m = {} as EntityManager;
  let current: RepositoryEntity | null;
  let sut: ReposService;

  beforeEach(() => {
    current = repo;
    // Every write is a strict mock's unexpected call: only the lock may run in these transactions.
    sut = new ReposService(
      strictMock(Database, { transaction: (async (fn: (m: EntityManager) => Promise<unknown>) => fn(m)) as Database['transaction'] }),
      strictMock(ReposRepository, { lockById: async () => current }),
      strictMock(RepoAccessService, { assign: async () => ({ repo, owner, permission: new RepoPermission(AccessMode.owner) }) }),
      strictMock(GitService),
      strictMock(OutboxService),
      strictMock(RpcClient),
      strictMock(DirectoryClient, { publicUser: async () => ({ id: 2, login: 'alice' }) as never }),
      { rootUrl: 'http://localhost/' } as PlatformConfig,
      strictMock(RepoStaging),
      strictMock(TransfersRepository),
      strictMock(WatchesRepository),
      strictMock(StarsRepository),
      strictMock(StarCounts),
      strictMock(BlobStore),
      strictMock(LicensesService),
    );
  });

  it('should not delete a repository a transfer moved to another owner since the request looked it up (404)', async () => {
    current = { ...repo, ownerId: 9 } as RepositoryEntity;
    await expect(sut.delete(alice, 'alice', 'r')).rejects.toMatchObject({ code: 'not_found' });
    current = null;
    await expect(sut.delete(alice, 'alice', 'r')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('should not rename a repository a transfer moved to another owner since the request looked it up (404)', async () => {
    current = { ...repo, ownerId: 9 } as RepositoryEntity;
    await expect(sut.edit(alice, 'alice', 'r', { name: 'renamed' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
