import { AccessMode, type Actor, type OwnerAccess } from '@gitforge/contracts';
import { resolveRepoPermission } from './repo-permission.js';

const actor = (id: number, isAdmin = false): Actor => ({ id, login: `u${id}`, isAdmin, scopes: null });

function owner(kind: 'user' | 'organization', overrides: Partial<OwnerAccess> = {}): OwnerAccess {
  return {
    owner: { id: 100, login: 'owner', kind, visibility: 'public' },
    ownerUser: {} as OwnerAccess['ownerUser'],
    visible: true,
    isOrgOwner: false,
    isOrgMember: false,
    canCreateRepo: false,
    teamAccess: { all: null, repos: {} },
    organization: null,
    ...overrides,
  };
}

const publicRepo = { id: 7, ownerId: 100, isPrivate: false };
const privateRepo = { id: 7, ownerId: 100, isPrivate: true };

describe(resolveRepoPermission.name, () => {
  const task = (repoId: number, readOnly = false): Actor => ({ id: -2, login: 'gitea-actions', isAdmin: false, scopes: null, actionsTask: { taskId: 9, repoId, readOnly } });

  it("should let an Actions task's token write every unit of its own repository, even a hidden owner's", () => {
    const p = resolveRepoPermission(task(7), owner('organization', { visible: false }), privateRepo, 0);
    expect(p.canWrite('repo.code')).toBe(true);
    expect(p.canWrite('repo.issues')).toBe(true);
    expect(p.isAdmin).toBe(false);
    expect(p.toApi()).toEqual({ admin: false, push: true, pull: true });
  });

  it("should only let a fork pull request's token read its repository", () => {
    const p = resolveRepoPermission(task(7, true), owner('user'), privateRepo, 0);
    expect(p.canRead('repo.code')).toBe(true);
    expect(p.canWrite('repo.code')).toBe(false);
  });

  it("should give an Actions task's token nothing in another repository, public or private, whatever else it would get", () => {
    expect(resolveRepoPermission(task(8), owner('user'), publicRepo, 0).canSee).toBe(false);
    expect(resolveRepoPermission(task(8), owner('user'), privateRepo, AccessMode.admin).canSee).toBe(false);
    expect(resolveRepoPermission(task(8), owner('organization', { isOrgOwner: true }), privateRepo, 0).canSee).toBe(false);
  });

  it('should give owners and site admins everything', () => {
    expect(resolveRepoPermission(actor(100), owner('user'), privateRepo, 0).isOwner).toBe(true);
    expect(resolveRepoPermission(actor(1, true), owner('user'), privateRepo, 0).isOwner).toBe(true);
    expect(resolveRepoPermission(actor(2), owner('organization', { isOrgOwner: true }), privateRepo, 0).isOwner).toBe(true);
  });

  it('should let anyone read a public repository and nobody see a private one', () => {
    expect(resolveRepoPermission(null, owner('user'), publicRepo, 0).toApi()).toEqual({ admin: false, push: false, pull: true });
    expect(resolveRepoPermission(null, owner('user'), privateRepo, 0).canSee).toBe(false);
    expect(resolveRepoPermission(actor(2), owner('user'), privateRepo, 0).canSee).toBe(false);
  });

  it('should hide repositories of owners the actor may not see, unless it collaborates', () => {
    const hidden = owner('user', { visible: false });
    expect(resolveRepoPermission(actor(2), hidden, publicRepo, 0).canSee).toBe(false);
    expect(resolveRepoPermission(actor(2), hidden, publicRepo, AccessMode.write).canWrite()).toBe(true);
  });

  it('should add collaborator modes', () => {
    const p = resolveRepoPermission(actor(2), owner('user'), privateRepo, AccessMode.write);
    expect(p.toApi()).toEqual({ admin: false, push: true, pull: true });
  });

  it('should apply team access unit by unit', () => {
    const teams = owner('organization', {
      isOrgMember: true,
      teamAccess: { all: null, repos: { '7': { mode: AccessMode.write, units: { 'repo.issues': AccessMode.write } } } },
    });
    const p = resolveRepoPermission(actor(2), teams, privateRepo, 0);
    expect(p.canWrite('repo.issues')).toBe(true);
    expect(p.canRead('repo.code')).toBe(false);
    const everywhere = owner('organization', { teamAccess: { all: { mode: AccessMode.read, units: { '*': AccessMode.read } }, repos: {} } });
    expect(resolveRepoPermission(actor(2), everywhere, privateRepo, 0).toApi()).toEqual({ admin: false, push: false, pull: true });
  });
});
