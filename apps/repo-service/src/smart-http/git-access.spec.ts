import { AccessMode, ContractError, type Actor, type OwnerAccess, type RepoMovedDetails } from '@gitforge/contracts';
import { RepoAccessService } from '../access/repo-access.service.js';
import { RepoPermission } from '../access/repo-permission.js';
import { ReposRepository } from '../records/repos.repository.js';
import type { RepositoryEntity } from '../records/repository.entity.js';
import { strictMock } from '../testing/strict-mock.js';
import { GitAccess } from './git-access.js';

const actor = (scopes: string[] | null = null): Actor => ({ id: 5, login: 'u', isAdmin: false, scopes });

describe(GitAccess.name, () => {
  let repo: RepositoryEntity | null;
  let owner: OwnerAccess | null;
  let mode: number;
  let sut: GitAccess;
  let movedTo: RepoMovedDetails | null;
  let lookups: number[];

  beforeEach(() => {
    repo = { id: 1, isPrivate: false, isArchived: false, isMirror: false } as RepositoryEntity;
    owner = { owner: { id: 2, login: 'o', kind: 'user', visibility: 'public' } } as OwnerAccess;
    mode = AccessMode.read;
    movedTo = null;
    lookups = [];
    sut = new GitAccess(
      strictMock(RepoAccessService, {
        ownerAccess: async () => {
          if (!owner) throw new ContractError('not_found', 'no such owner');
          return owner;
        },
        permissionFor: async () => new RepoPermission(mode),
        redirect: async () => movedTo,
        renamedOwnerRedirect: async () => null,
      }),
      strictMock(ReposRepository, {
        findByOwnerAndName: async (ownerId: number) => {
          lookups.push(ownerId);
          return repo && { ...repo, ownerId } as RepositoryEntity;
        },
      }),
    );
  });

  it('should serve clones of public repositories of public owners to anyone', async () => {
    expect(await sut.check(null, 'o', 'r', 'upload-pack')).toMatchObject({ ok: true });
  });

  it('should look the repository up beside the owner once the owner is known, and again when the name changed hands', async () => {
    expect(await sut.check(null, 'o', 'r', 'upload-pack')).toMatchObject({ ok: true, ctx: { repo: { ownerId: 2 } } });
    expect(await sut.check(null, 'O', 'r', 'upload-pack')).toMatchObject({ ok: true, ctx: { repo: { ownerId: 2 } } });
    expect(lookups).toEqual([2, 2]);
    // Renamed away and the name taken by another owner: the early lookup (by the old id) is not used.
    owner = { owner: { id: 9, login: 'o', kind: 'user', visibility: 'public' } } as OwnerAccess;
    expect(await sut.check(null, 'o', 'r', 'upload-pack')).toMatchObject({ ok: true, ctx: { repo: { ownerId: 9 } } });
    expect(lookups).toEqual([2, 2, 2, 9]);
  });

  it('should challenge anonymous clients for pushes, private repositories and hidden owners', async () => {
    const challenge = { ok: false, status: 401, message: 'Unauthorized', headers: { 'WWW-Authenticate': 'Basic realm="Gitea"' } };
    expect(await sut.check(null, 'o', 'r', 'receive-pack')).toEqual(challenge);
    repo!.isPrivate = true;
    expect(await sut.check(null, 'o', 'r', 'upload-pack')).toEqual(challenge);
    repo!.isPrivate = false;
    owner!.owner.visibility = 'limited';
    expect(await sut.check(null, 'o', 'r', 'upload-pack')).toEqual(challenge);
    expect(await sut.check(null, 'o', 'missing', 'upload-pack')).toEqual(challenge);
  });

  it('should answer 404 for an unknown owner before asking for credentials, as Gitea looks owners up first', async () => {
    owner = null;
    expect(await sut.check(null, 'nobody', 'r', 'upload-pack')).toMatchObject({ status: 404, message: 'Repository not found' });
    expect(await sut.check(null, 'nobody', 'r', 'receive-pack')).toMatchObject({ status: 404 });
  });

  it('should answer 404 to signed-in users who cannot read the code, and for unknown repositories', async () => {
    repo!.isPrivate = true;
    mode = AccessMode.none;
    expect(await sut.check(actor(), 'o', 'r', 'upload-pack')).toMatchObject({ status: 404, message: 'Repository not found' });
    repo = null;
    expect(await sut.check(actor(), 'o', 'r', 'upload-pack')).toMatchObject({ status: 404 });
    expect(await sut.check(actor(), 'o', 'r', 'receive-pack')).toMatchObject({ status: 403, message: 'Push to create is not enabled for users.' });
    owner = null;
    expect(await sut.check(actor(), 'x', 'r', 'receive-pack')).toMatchObject({ status: 404 });
  });

  it('should redirect an old name to those RepoAccessService.redirect lets see the new one, before any credentials', async () => {
    repo = null;
    movedTo = { from_owner: 'o', from_repo: 'old', to_owner: 'n', to_repo: 'new' };
    expect(await sut.check(null, 'o', 'old', 'upload-pack')).toMatchObject({ ok: false, status: 307, moved: movedTo });
    expect(await sut.check(actor(), 'o', 'old', 'receive-pack')).toMatchObject({ ok: false, status: 307, moved: movedTo });
    // Nothing to see there for this caller: the answers of a name that never existed.
    movedTo = null;
    expect(await sut.check(null, 'o', 'old', 'upload-pack')).toMatchObject({ status: 401 });
    expect(await sut.check(actor(), 'o', 'old', 'upload-pack')).toMatchObject({ status: 404 });
  });

  it('should let readers through to receive-pack, where PushPolicy refuses them per ref', async () => {
    expect(await sut.check(actor(), 'o', 'r', 'receive-pack')).toMatchObject({ ok: true });
  });

  it('should refuse pushes to archived and mirror repositories with a clear message', async () => {
    repo!.isArchived = true;
    expect(await sut.check(actor(), 'o', 'r', 'receive-pack')).toMatchObject({
      status: 403,
      message: 'This repo is archived. You can view files and clone it, but cannot push or open issues/pull-requests.',
    });
    expect(await sut.check(actor(), 'o', 'r', 'upload-pack')).toMatchObject({ ok: true });
    repo!.isArchived = false;
    repo!.isMirror = true;
    mode = AccessMode.owner;
    expect(await sut.check(actor(), 'o', 'r', 'receive-pack')).toMatchObject({ status: 403, message: 'mirror repository is read-only' });
  });

  it("should check a token's repository scope and public-only restriction", async () => {
    expect(await sut.check(actor(['read:repository']), 'o', 'r', 'receive-pack')).toMatchObject({
      status: 403,
      message: 'token does not have at least one of required scope(s), required=[write:repository], token scope=read:repository',
    });
    expect(await sut.check(actor(['write:repository']), 'o', 'r', 'receive-pack')).toMatchObject({ ok: true });
    repo!.isPrivate = true;
    expect(await sut.check(actor(['read:repository', 'public-only']), 'o', 'r', 'upload-pack')).toMatchObject({ status: 403 });
  });
});
