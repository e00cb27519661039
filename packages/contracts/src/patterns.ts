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

/** Webhook configuration (admin-service). Params are a HookScope plus the hook id. */
export const HookPatterns = definePatterns('admin', {
  list: 'hooks.list',
  create: 'hooks.create',
  get: 'hooks.get',
  edit: 'hooks.edit',
  delete: 'hooks.delete',
  /** For the webhook worker: the active hooks an event reaches (repository, owner, system hooks). */
  matching: 'hooks.matching',
  /** For the webhook worker: one hook's delivery settings, secret included (null when gone). */
  target: 'hooks.target',
  /** For the webhook worker: copy the default hooks to a new repository (idempotent). */
  copyDefaults: 'hooks.copyDefaults',
  /** For the webhook worker: deactivate a hook that keeps failing. */
  autoDisable: 'hooks.autoDisable',
});

/** Webhook deliveries (webhook-worker): GitHub's deliveries API and Gitea's test delivery. */
export const HookDeliveryPatterns = definePatterns('webhook', {
  list: 'webhooks.deliveries.list',
  get: 'webhooks.deliveries.get',
  redeliver: 'webhooks.deliveries.redeliver',
  test: 'webhooks.test',
});

/** Activity feeds (webhook-worker's projection). */
export const FeedPatterns = definePatterns('webhook', {
  org: 'feeds.org',
  user: 'feeds.user',
  repo: 'feeds.repo',
  team: 'feeds.team',
});

/** Repository facts other services guard their resources with. */
export const RepoFactPatterns = definePatterns('repo', {
  /** One repository and the actor's permission (404 when invisible). */
  access: 'repos.access',
  /** Several repositories by id: those the actor can see, with permissions (one call per page). */
  accessMany: 'repos.accessMany',
  /** The commit at a ref (default branch) as a webhook PayloadCommit, for test deliveries. */
  hookCommit: 'repos.hookCommit',
});

/** Team facts for team activity feeds. */
export const TeamFactPatterns = definePatterns('org', {
  feedScope: 'orgs.teams.feedScope',
});
