import { AccessMode, type Actor, type OwnerAccess } from '@gitforge/contracts';
import { DEFAULT_REPO_SETTINGS } from '../records/repository.entity.js';
import { dependsOnCollaboration, enabledUnitModes, resolveRepoPermission } from './repo-permission.js';

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

describe(dependsOnCollaboration.name, () => {
  const modes = [AccessMode.none, AccessMode.read, AccessMode.write, AccessMode.admin];
  const task: Actor = { id: -2, login: 'gitea-actions', isAdmin: false, scopes: null, actionsTask: { taskId: 9, repoId: 7, readOnly: false } };
  // Anonymous callers are skipped too, having no collaboration to read (second test).
  const cases: Array<[string, Actor, OwnerAccess]> = [
    ['the owner', actor(100), owner('user')],
    ['a site admin', actor(1, true), owner('user', { visible: false })],
    ['an Actions task', task, owner('organization', { visible: false })],
    ['an owner of the organization', actor(2), owner('organization', { isOrgOwner: true })],
    ['a member', actor(2), owner('organization', { isOrgMember: true })],
    ['a stranger', actor(2), owner('user')],
    ['a stranger to a hidden owner', actor(2), owner('organization', { visible: false, isOrgOwner: true })],
  ];

  it.each(cases)('should only skip the collaboration when it cannot change the permission (%s)', (_name, who, of) => {
    for (const repo of [publicRepo, privateRepo]) {
      const outcomes = new Set(modes.map((m) => JSON.stringify(resolveRepoPermission(who, of, repo, m))));
      if (!dependsOnCollaboration(who, of, repo)) expect(outcomes.size).toBe(1);
    }
  });

  it('should read the collaboration of signed-in users whose permission it may raise', () => {
    expect(dependsOnCollaboration(actor(2), owner('user'), privateRepo)).toBe(true);
    expect(dependsOnCollaboration(actor(2), owner('organization', { isOrgMember: true }), privateRepo)).toBe(true);
    expect(dependsOnCollaboration(actor(100), owner('user'), privateRepo)).toBe(false);
    expect(dependsOnCollaboration(null, owner('user'), privateRepo)).toBe(false);
  });
});

describe(enabledUnitModes.name, () => {
  it('should give nobody access to a unit the repository has switched off, and leave the others as they are', () => {
    const collaborator = resolveRepoPermission(actor(5), owner('user'), privateRepo, AccessMode.write);
    const on = enabledUnitModes(collaborator, DEFAULT_REPO_SETTINGS);
    expect(on['repo.wiki']).toBe(AccessMode.write);
    expect(on['repo.pulls']).toBe(AccessMode.write);
    const off = enabledUnitModes(collaborator, { ...DEFAULT_REPO_SETTINGS, has_wiki: false, has_pull_requests: false });
    expect(off).toEqual({ ...on, 'repo.wiki': AccessMode.none, 'repo.pulls': AccessMode.none });
  });
});
