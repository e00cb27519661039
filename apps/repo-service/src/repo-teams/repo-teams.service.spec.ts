import type { Actor, Organization, OwnerAccess } from '@gitforge/contracts';
import { canChangeRepoTeamAccess } from './repo-teams.service.js';

const actor = (isAdmin = false): Actor => ({ id: 2, login: 'u', isAdmin, scopes: null });

function org(overrides: { isOrgOwner?: boolean; repoAdminChange?: boolean } = {}): OwnerAccess {
  return {
    owner: { id: 100, login: 'org', kind: 'organization', visibility: 'public' },
    ownerUser: {} as OwnerAccess['ownerUser'],
    visible: true,
    isOrgOwner: overrides.isOrgOwner ?? false,
    isOrgMember: true,
    canCreateRepo: false,
    teamAccess: { all: null, repos: {} },
    organization: { repo_admin_change_team_access: overrides.repoAdminChange ?? false } as Organization,
  };
}

describe(canChangeRepoTeamAccess.name, () => {
  it('should let site admins and organization owners change team access', () => {
    expect(canChangeRepoTeamAccess(actor(true), org())).toBe(true);
    expect(canChangeRepoTeamAccess(actor(), org({ isOrgOwner: true }))).toBe(true);
  });

  it('should let other repository administrators only when the organization allows it', () => {
    expect(canChangeRepoTeamAccess(actor(), org())).toBe(false);
    expect(canChangeRepoTeamAccess(actor(), org({ repoAdminChange: true }))).toBe(true);
  });
});
