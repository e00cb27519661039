import { AccessMode, ContractError, type Actor, type OwnerAccess, type PullHeadRepoRequest } from '@gitforge/contracts';
import { Database, DirectoryClient, PlatformConfig } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { RepoPermission } from '../access/repo-permission.js';
import { RepoSearchService } from '../repos/repo-search.service.js';
import { ReposRepository } from '../records/repos.repository.js';
import { ReposService } from '../repos/repos.service.js';
import { DEFAULT_REPO_SETTINGS, type RepositoryEntity } from '../records/repository.entity.js';
import { strictMock } from '../testing/strict-mock.js';
import { WatchesRepository } from '../watches/watches.repository.js';
import { HookCommitReader } from './hook-commit.reader.js';
import { RepoFactsService } from './repo-facts.service.js';

const OWNERS: Record<string, number> = { alice: 1, bob: 2, carol: 3, zed: 4, dave: 5, erin: 6 };

function entity(id: number, ownerId: number, name: string, forkId: number | null = null): RepositoryEntity {
  return {
    id,
    ownerId,
    name,
    lowerName: name,
    isFork: forkId !== null,
    forkId,
    isPrivate: false,
    settings: { ...DEFAULT_REPO_SETTINGS },
    topics: [],
    createdAt: new Date(0),
    updatedAt: new Date(0),
  } as unknown as RepositoryEntity;
}

describe(RepoFactsService.name, () => {
  // carol/upstream ← alice/base (the base of the pull) ← bob/mine; carol/upstream ← dave/sibling
  // ← erin/nested; bob/other is unrelated.
  const parent = entity(5, 3, 'upstream');
  const base = entity(10, 1, 'base', 5);
  const bobsFork = entity(20, 2, 'mine', 10);
  const unrelated = entity(30, 2, 'other');
  const sibling = entity(40, 5, 'sibling', 5);
  const nested = entity(50, 6, 'nested', 40);
  const rows = [parent, base, bobsFork, unrelated, sibling, nested];
  let readable: Set<number>;
  let sut: RepoFactsService;
  const actor: Actor = { id: 9, login: 'reader', isAdmin: false, scopes: null };
  const head = (owner: string, repo?: string): Promise<number> =>
    sut.headRepo(actor, { baseRepoId: base.id, owner, ...(repo ? { repo } : {}) } satisfies PullHeadRepoRequest).then((a) => a.id);

  beforeEach(() => {
    readable = new Set(rows.map((r) => r.id));
    const access = strictMock(RepoAccessService, {
      ownerAccess: async (_a, { name }) => {
        const id = OWNERS[name!];
        if (!id) throw new ContractError('not_found', 'user does not exist');
        const user = { id, login: name, visibility: 'public' };
        return { owner: { id, login: name!, kind: 'user', visibility: 'public' }, ownerUser: user, visible: true } as unknown as OwnerAccess;
      },
      permissionFor: async (_a, _o, repo) => new RepoPermission(readable.has(repo.id) ? AccessMode.read : AccessMode.none),
    });
    const repos = strictMock(ReposRepository, {
      findById: async (id) => rows.find((r) => r.id === id) ?? null,
      findByOwnerAndName: async (ownerId, name) => rows.find((r) => r.ownerId === ownerId && r.lowerName === name.toLowerCase()) ?? null,
      findForkOf: async (baseId, ownerId) => rows.find((r) => r.forkId === baseId && r.ownerId === ownerId) ?? null,
      findForks: async (parentId) => rows.filter((r) => r.forkId === parentId),
    });
    sut = new RepoFactsService(
      access,
      repos,
      strictMock(HookCommitReader),
      strictMock(DirectoryClient),
      { rootUrl: 'http://forge.test/' } as PlatformConfig,
      strictMock(Database),
      strictMock(RepoSearchService),
      strictMock(ReposService, { parentViews: async () => new Map() }),
      strictMock(WatchesRepository),
    );
  });

  it("should take the base itself when the head owner is the base's owner", async () => {
    expect(await head('alice')).toBe(base.id);
  });

  it("should take the owner's fork of the base, else the base's parent when the owner owns it", async () => {
    expect(await head('bob')).toBe(bobsFork.id);
    expect(await head('carol')).toBe(parent.id);
  });

  it('should take a named repository anywhere within the fork network, and no other', async () => {
    expect(await head('bob', 'mine')).toBe(bobsFork.id);
    expect(await head('carol', 'upstream')).toBe(parent.id);
    expect(await head('alice', 'base')).toBe(base.id);
    expect(await head('dave', 'sibling')).toBe(sibling.id);
    expect(await head('erin', 'nested')).toBe(nested.id);
    await expect(head('bob', 'other')).rejects.toMatchObject({ code: 'not_found' });
    await expect(head('bob', 'missing')).rejects.toMatchObject({ code: 'not_found' });
  });

  it("should find the owner's repository anywhere in the base's fork network: a sibling fork, a fork of a fork", async () => {
    expect(await head('dave')).toBe(sibling.id);
    expect(await head('erin')).toBe(nested.id);
  });

  it('should answer 400 for an owner without a repository in the network, and 404 for an unknown owner', async () => {
    await expect(head('zed')).rejects.toMatchObject({ code: 'invalid_argument', message: 'the user zed does not have a fork of the base repository' });
    await expect(head('nobody')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('should answer 404 for a head whose code the actor may not read, and for private heads to public-only tokens', async () => {
    readable.delete(bobsFork.id);
    await expect(head('bob')).rejects.toMatchObject({ code: 'not_found' });
    readable.add(bobsFork.id);
    bobsFork.isPrivate = true;
    try {
      await expect(
        sut.headRepo({ ...actor, scopes: ['public-only', 'read:repository'] }, { baseRepoId: base.id, owner: 'bob' }),
      ).rejects.toMatchObject({ code: 'not_found' });
      expect(await head('bob')).toBe(bobsFork.id);
    } finally {
      bobsFork.isPrivate = false;
    }
  });

  it('should answer 404 for an unknown base', async () => {
    await expect(sut.headRepo(actor, { baseRepoId: 999, owner: 'alice' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
