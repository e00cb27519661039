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
  /** Batched lookup of individual users by e-mail (commit authors): `{ email (lower case): User }`. */
  getManyByEmail: 'users.getManyByEmail',
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

/** Reading and writing a repository's tree: contents, raw files, git objects, file changes. */
export const RepoContentPatterns = definePatterns('repo', {
  /** `contents`: a file's object, or a directory's entries. */
  get: 'repos.contents.get',
  /** `contents-ext`: `file_contents` or `dir_contents`, with the fields `includes` asks for. */
  getExt: 'repos.contents.getExt',
  raw: 'repos.contents.raw',
  media: 'repos.contents.media',
  blob: 'repos.git.blob',
  tree: 'repos.git.tree',
  createFile: 'repos.contents.create',
  updateFile: 'repos.contents.update',
  deleteFile: 'repos.contents.delete',
  changeFiles: 'repos.contents.change',
});

export const BranchPatterns = definePatterns('repo', {
  list: 'repos.branches.list',
  get: 'repos.branches.get',
  create: 'repos.branches.create',
  delete: 'repos.branches.delete',
});

export const CommitPatterns = definePatterns('repo', {
  list: 'repos.commits.list',
  get: 'repos.commits.get',
  /** A commit's raw `.diff` or `.patch`. */
  raw: 'repos.commits.raw',
  compare: 'repos.commits.compare',
});

export const CommitStatusPatterns = definePatterns('repo', {
  create: 'repos.statuses.create',
  /** Statuses of one commit sha (`/statuses/{sha}`). */
  list: 'repos.statuses.list',
  /** Statuses of a branch, tag or commit (`/commits/{ref}/statuses`). */
  listByRef: 'repos.statuses.listByRef',
  combined: 'repos.statuses.combined',
});
