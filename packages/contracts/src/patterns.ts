/** The services that answer on the transport; each has one request stream. */
export const ServiceNames = ['org', 'repo', 'issue', 'admin', 'webhook'] as const;
export type ServiceName = (typeof ServiceNames)[number];

const owners = new Map<string, ServiceName>();

/**
 * Declares the message patterns one service answers. Names follow `<area>[.<sub>].<verb>`;
 * the owning service is recorded so a client can route a pattern to its stream.
 */
export function definePatterns<const T extends Record<string, string>>(service: ServiceName, patterns: T): Readonly<T> {
  for (const pattern of Object.values(patterns)) {
    const existing = owners.get(pattern);
    if (existing && existing !== service) throw new Error(`pattern ${pattern} declared by ${existing} and ${service}`);
    owners.set(pattern, service);
  }
  return Object.freeze(patterns);
}

/** The service that answers `pattern`, or undefined for an unknown pattern. */
export function serviceOfPattern(pattern: string): ServiceName | undefined {
  return owners.get(pattern) ?? ServiceNames.find((s) => pattern === healthPattern(s));
}

/** Every service answers its own health pattern (database ping). */
export const healthPattern = (service: ServiceName): string => `${service}.health`;

export const AuthPatterns = definePatterns('org', {
  /** Verify credentials (password or token) and answer the Actor, or unauthenticated. */
  authenticate: 'auth.authenticate',
});

export const UserPatterns = definePatterns('org', {
  getSelf: 'users.getSelf',
  get: 'users.get',
  /** Batched lookup by id for other services (one call per page, never per row). */
  getMany: 'users.getMany',
  /** Resolve an owner name (user or organization) to its id and kind. */
  resolveOwner: 'users.resolveOwner',
  adminCreate: 'users.adminCreate',
});

export const TokenPatterns = definePatterns('org', {
  create: 'users.tokens.create',
  list: 'users.tokens.list',
  delete: 'users.tokens.delete',
});

export const OrgPatterns = definePatterns('org', {
  create: 'orgs.create',
  get: 'orgs.get',
  /** How an actor relates to an organization (owner, member, team access to a repository). */
  access: 'orgs.access',
  /** `orgs.access` for several owners at once (one call for a page of repositories). */
  accessMany: 'orgs.accessMany',
  /** Which organization repositories the actor reaches through teams. */
  reachableRepos: 'orgs.reachableRepos',
});

export const RepoPatterns = definePatterns('repo', {
  createForActor: 'repos.createForActor',
  createForOrg: 'repos.createForOrg',
  get: 'repos.get',
  edit: 'repos.edit',
  delete: 'repos.delete',
  listForActor: 'repos.listForActor',
  listForUser: 'repos.listForUser',
  listForOrg: 'repos.listForOrg',
});

/** `/repos/{owner}/{repo}/collaborators`. */
export const CollaboratorPatterns = definePatterns('repo', {
  list: 'repos.collaborators.list',
  check: 'repos.collaborators.check',
  add: 'repos.collaborators.add',
  remove: 'repos.collaborators.remove',
  permission: 'repos.collaborators.permission',
});

/** `/repos/{owner}/{repo}/branch_protections`. */
export const BranchProtectionPatterns = definePatterns('repo', {
  list: 'repos.branchProtections.list',
  get: 'repos.branchProtections.get',
  create: 'repos.branchProtections.create',
  edit: 'repos.branchProtections.edit',
  delete: 'repos.branchProtections.delete',
});

/** `/repos/{owner}/{repo}/tag_protections`. */
export const TagProtectionPatterns = definePatterns('repo', {
  list: 'repos.tagProtections.list',
  get: 'repos.tagProtections.get',
  create: 'repos.tagProtections.create',
  edit: 'repos.tagProtections.edit',
  delete: 'repos.tagProtections.delete',
});

/**
 * Batched lookups of accounts and teams for other services (answered by org-service, not on the
 * wire): names and e-mails to accounts, team names to ids and back, a user's teams.
 */
export const DirectoryPatterns = definePatterns('org', {
  /** body `{ names }` → AccountRef[] of the names that exist (users and organizations). */
  accountsByNames: 'directory.accountsByNames',
  /** body `{ ids }` → AccountRef[] of the ids that exist. */
  accountsByIds: 'directory.accountsByIds',
  /** body `{ emails }` → AccountRef[] of the individual users whose e-mail matches (case-insensitive). */
  usersByEmails: 'directory.usersByEmails',
  /** body `{ orgId, names?, ids? }` → TeamRef[] of the organization's teams that match. */
  teams: 'directory.teams',
  /** body `{ orgId, userId }` → ids of the user's teams in that organization. */
  teamIdsOfUser: 'directory.teamIdsOfUser',
});
