/** Builders for organizations, teams and tokens through the API (each with a unique name). */
import type { AccessToken, CreateOrgOption, CreateTeamOption, Organization, Team } from '@gitforge/contracts';
import { uniqueName, type Api, type TestUser } from './api.js';

export async function createOrg(owner: Api, extra: Partial<CreateOrgOption> = {}): Promise<Organization> {
  const res = await owner.post<Organization>('/orgs', { username: uniqueName('org'), ...extra } satisfies CreateOrgOption);
  if (res.status !== 201) throw new Error(`creating an organization: ${res.status} ${res.text}`);
  return res.body;
}

export async function createTeam(owner: Api, org: string, body: Partial<CreateTeamOption> = {}): Promise<Team> {
  const res = await owner.post<Team>(`/orgs/${org}/teams`, {
    name: uniqueName('team'),
    permission: 'read',
    units: ['repo.code'],
    ...body,
  } satisfies CreateTeamOption);
  if (res.status !== 201) throw new Error(`creating a team: ${res.status} ${res.text}`);
  return res.body;
}

/** Adds `user` to the team (and so to its organization). */
export async function addToTeam(owner: Api, teamId: number, user: TestUser): Promise<void> {
  const res = await owner.put(`/teams/${teamId}/members/${user.username}`);
  if (res.status !== 204) throw new Error(`adding ${user.username} to team ${teamId}: ${res.status} ${res.text}`);
}

/** A personal access token of `user` with these scopes, as an Api. */
export async function tokenApi(user: TestUser, scopes: string[]): Promise<Api> {
  const res = await user.api.post<AccessToken>(`/users/${user.username}/tokens`, { name: uniqueName('t'), scopes });
  if (res.status !== 201) throw new Error(`creating a token: ${res.status} ${res.text}`);
  return user.api.as({ token: res.body.sha1 });
}
