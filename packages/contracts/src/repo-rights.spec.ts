import type { RepoAccess } from './api/facts.js';
import { AccessMode } from './access.js';
import { requireRepoRight } from './repo-rights.js';

/** A caller's access with one mode on every unit; the issue tracker switched on or off. */
const access = (mode: number, extra: Partial<RepoAccess> = {}): RepoAccess =>
  ({
    isAdmin: mode >= AccessMode.admin,
    isOwner: mode >= AccessMode.owner,
    isArchived: false,
    units: new Proxy({}, { get: () => mode }),
    settings: { has_issues: true, has_pull_requests: true, has_projects: true },
    ...extra,
  }) as unknown as RepoAccess;

describe('requireRepoRight (Gitea’s reqOwner, reqAdmin, reqRepoWriter, mustNotBeArchived)', () => {
  it('should let each mode through the rights it has, with Gitea’s 403 texts otherwise', () => {
    expect(() => requireRepoRight(access(AccessMode.owner), 'owner')).not.toThrow();
    expect(() => requireRepoRight(access(AccessMode.admin), 'owner')).toThrow('user should be the owner of the repo');
    expect(() => requireRepoRight(access(AccessMode.admin), 'admin')).not.toThrow();
    expect(() => requireRepoRight(access(AccessMode.write), 'admin')).toThrow('user should be an owner or a collaborator with admin write of a repository');
    expect(() => requireRepoRight(access(AccessMode.write), { write: ['repo.code'] })).not.toThrow();
    expect(() => requireRepoRight(access(AccessMode.read), { write: ['repo.code'] })).toThrow('user should have a permission to write to a repo');
  });

  it('should count no write on a unit switched off, except for administrators, and refuse archives last', () => {
    const off = { settings: { has_issues: false, has_pull_requests: false, has_projects: true } } as Partial<RepoAccess>;
    expect(() => requireRepoRight(access(AccessMode.write, off), { write: ['repo.issues', 'repo.pulls'] })).toThrow('user should have a permission to write to a repo');
    expect(() => requireRepoRight(access(AccessMode.admin, off), { write: ['repo.issues'] })).not.toThrow();
    const archived = access(AccessMode.write, { isArchived: true });
    expect(() => requireRepoRight(archived, { write: ['repo.code'] })).not.toThrow();
    expect(() => requireRepoRight(archived, { write: ['repo.code'], unarchived: true })).toThrow('repo is archived');
    expect(() => requireRepoRight(access(AccessMode.read, { isArchived: true }), { write: ['repo.code'], unarchived: true })).toThrow('user should have a permission to write to a repo');
  });
});
