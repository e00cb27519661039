import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContractError, type AccountRef, type Actor, type OwnerAccess } from '@gitforge/contracts';
import { DirectoryClient } from '@gitforge/platform';
import { dropRepository } from '../../test/support/dropped-repo.js';
import { RepoAccessService } from '../access/repo-access.service.js';
import { GitService } from '../git/git.service.js';
import { ReposRepository } from '../records/repos.repository.js';
import type { RepositoryEntity } from '../records/repository.entity.js';
import { RepoServiceConfig } from '../repo.config.js';
import { strictMock } from '../testing/strict-mock.js';
import { UnadoptedService } from './unadopted.service.js';

const admin: Actor = { id: 1, login: 'root', isAdmin: true, scopes: null };
const alice: Actor = { id: 2, login: 'alice', isAdmin: false, scopes: null };

/** Accounts that exist, by login: alice (2), the organization acme (3) and bob (4). */
const ACCOUNTS: Record<string, number> = { alice: 2, acme: 3, bob: 4 };

describe(UnadoptedService.name, () => {
  let dataDir: string;
  let git: GitService;
  let lookups: string[][];
  /** Repository rows by owner id: their lower names. */
  let rows: Record<number, string[]>;
  let sut: UnadoptedService;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'gf-unadopted-svc-'));
    git = new GitService(Object.assign(new RepoServiceConfig(), { GITFORGE_DATA_DIR: dataDir }));
    lookups = [];
    rows = { 2: ['taken'] };
    for (const rel of ['alice/proj.git', 'alice/taken.git', 'alice/zeta.git', 'acme/lib.git', 'nobody/orphan.git', 'bob/b1.git', 'bob/b2.git', 'alice/Upper.git', '5.git']) {
      dropRepository(git.root, rel);
    }
    sut = new UnadoptedService(
      git,
      strictMock(ReposRepository, {
        takenNames: async (ownerId: number, names: string[]) => names.filter((n) => rows[ownerId]?.includes(n)),
        findByOwnerAndName: async (ownerId: number, name: string) => (rows[ownerId]?.includes(name.toLowerCase()) ? ({ id: 1 } as RepositoryEntity) : null),
      }),
      strictMock(RepoAccessService, {
        ownerAccess: async (_actor: Actor | null, owner: { name?: string }) => {
          const id = ACCOUNTS[owner.name!.toLowerCase()];
          if (!id) throw new ContractError('not_found', 'no such owner');
          return { owner: { id, login: owner.name!.toLowerCase() } } as OwnerAccess;
        },
      }),
      strictMock(DirectoryClient, {
        accountsByNames: async (_actor: Actor | null, names: string[]) => {
          lookups.push(names);
          return names.filter((n) => ACCOUNTS[n]).map((n) => ({ id: ACCOUNTS[n], login: n }) as AccountRef);
        },
      }),
    );
  });

  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('should list the dropped repositories of existing owners without a row, owners then names in order, with one owner lookup', async () => {
    const page = await sut.list(admin, '', { page: 1, limit: 50 });
    expect(page.items).toEqual(['acme/lib', 'alice/proj', 'alice/zeta', 'bob/b1', 'bob/b2']);
    expect(page.total).toBe(5);
    expect(lookups).toEqual([['acme', 'alice', 'bob', 'nobody']]);
  });

  it('should page through the walk and count every match', async () => {
    const second = await sut.list(admin, '', { page: 2, limit: 2 });
    expect(second).toMatchObject({ items: ['alice/zeta', 'bob/b1'], total: 5 });
    expect(await sut.list(admin, '', { page: 4, limit: 2 })).toMatchObject({ items: [], total: 5 });
  });

  it('should filter by owner and name globs', async () => {
    expect((await sut.list(admin, 'a*', { page: 1, limit: 50 })).items).toEqual(['acme/lib', 'alice/proj', 'alice/zeta']);
    expect(await sut.list(admin, 'alice/z*', { page: 1, limit: 50 })).toMatchObject({ items: ['alice/zeta'], total: 1 });
    expect(lookups.at(-1)).toEqual(['alice']);
    expect((await sut.list(admin, '*/b?', { page: 1, limit: 50 })).items).toEqual(['bob/b1', 'bob/b2']);
    expect((await sut.list(admin, '[broken', { page: 1, limit: 50 })).total).toBe(5);
  });

  it('should refuse anyone but a site administrator', async () => {
    await expect(sut.list(alice, '', { page: 1, limit: 50 })).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(sut.list(null, '', { page: 1, limit: 50 })).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(sut.remove(alice, 'alice', 'proj')).rejects.toMatchObject({ code: 'permission_denied' });
    expect(existsSync(join(git.root, 'alice/proj.git'))).toBe(true);
  });

  it('should remove a dropped directory (404 for an unknown owner, a name with a row, nothing dropped, or a name no repository could have)', async () => {
    await sut.remove(admin, 'Alice', 'proj');
    expect(existsSync(join(git.root, 'alice/proj.git'))).toBe(false);
    for (const [owner, name] of [
      ['alice', 'proj'],
      ['nobody', 'orphan'],
      ['alice', 'taken'],
      ['alice', '..'],
      ['..', 'repositories'],
      ['alice', 'Upper/../zeta'],
    ]) {
      await expect(sut.remove(admin, owner!, name!)).rejects.toMatchObject({ code: 'not_found' });
    }
    for (const kept of ['nobody/orphan.git', 'alice/taken.git', 'alice/zeta.git', '5.git']) expect(existsSync(join(git.root, kept))).toBe(true);
  });
});
