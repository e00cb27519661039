import { AccessMode, type Actor, type OwnerAccess, type RepoAccess } from '@gitforge/contracts';
import { orgProjectRights, repoProjectRights } from './project-access.js';

const actor = (id: number, isAdmin = false): Actor =>
  ({ id, login: `u${id}`, isAdmin, scopes: [] }) as unknown as Actor;

function owner(extra: Partial<OwnerAccess> = {}): OwnerAccess {
  return {
    owner: { id: 9, login: 'acme', kind: 'organization', visibility: 'public' },
    visible: true,
    isOrgOwner: false,
    isOrgMember: false,
    canCreateRepo: false,
    teamAccess: { all: null, repos: {} },
    ...extra,
  } as OwnerAccess;
}

function repo(projects: number, hasProjects = true): RepoAccess {
  return {
    units: { 'repo.projects': projects },
    settings: { has_projects: hasProjects },
  } as unknown as RepoAccess;
}

describe('project access', () => {
  it('should let readers of the projects unit read and writers change, and nobody when the unit is off', () => {
    expect(repoProjectRights(repo(AccessMode.read))).toEqual({ read: true, write: false });
    expect(repoProjectRights(repo(AccessMode.write))).toEqual({ read: true, write: true });
    expect(repoProjectRights(repo(AccessMode.none))).toEqual({ read: false, write: false });
    expect(repoProjectRights(repo(AccessMode.owner, false))).toEqual({ read: false, write: false });
  });

  it('should let anyone who sees an organization read its projects, and only its owners change them', () => {
    expect(orgProjectRights(null, owner())).toEqual({ read: true, write: false });
    expect(orgProjectRights(null, owner({ visible: false }))).toEqual({ read: false, write: false });
    expect(orgProjectRights(actor(2), owner())).toEqual({ read: true, write: false });
    expect(orgProjectRights(actor(2), owner({ isOrgMember: true }))).toEqual({ read: true, write: false });
    expect(orgProjectRights(actor(2), owner({ isOrgMember: true, isOrgOwner: true }))).toEqual({
      read: true,
      write: true,
    });
  });

  it('should let members of a team with write access to projects change them, wherever the team reaches', () => {
    const writeAll = {
      all: { mode: AccessMode.write, units: { 'repo.projects': AccessMode.write } },
      repos: {},
    };
    expect(orgProjectRights(actor(2), owner({ isOrgMember: true, teamAccess: writeAll }))).toEqual({
      read: true,
      write: true,
    });
    const readOnly = {
      all: {
        mode: AccessMode.write,
        units: { 'repo.code': AccessMode.write, 'repo.projects': AccessMode.read },
      },
      repos: {},
    };
    expect(orgProjectRights(actor(2), owner({ isOrgMember: true, teamAccess: readOnly }))).toEqual({
      read: true,
      write: false,
    });
    const linked = {
      all: null,
      repos: { '5': { mode: AccessMode.write, units: { 'repo.projects': AccessMode.write } } },
    };
    expect(orgProjectRights(actor(2), owner({ isOrgMember: true, teamAccess: linked }))).toEqual({
      read: true,
      write: true,
    });
  });

  it('should let site administrators read and change any organization project', () => {
    expect(orgProjectRights(actor(1, true), owner({ visible: false }))).toEqual({ read: true, write: true });
  });
});
