import type { Team } from './api/org.js';
import type { Repository } from './api/repo.js';

/** The services that answer on the transport; each has one request stream. */
export const ServiceNames = ['org', 'repo', 'issue', 'admin', 'webhook', 'actions'] as const;
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
  /** As getMany, for activity feeds: each user with whether they keep their activity private (`hide_activity`). */
  activityActors: 'users.activityActors',
  /** Resolve an owner name (user or organization) to its id and kind. */
  resolveOwner: 'users.resolveOwner',
  /** repo-service's counts of users' stars (UserStarCount[]), each applied when newer. */
  setStarCounts: 'users.starCounts.set',
  /** `GET /admin/users`: individuals matching the admin filters, by name unless sorted otherwise. */
  adminSearch: 'users.adminSearch',
  adminCreate: 'users.adminCreate',
  /** `PATCH /admin/users/{username}`. */
  adminEdit: 'users.adminEdit',
  /**
   * `DELETE /admin/users/{username}`: refused while the user owns repositories or belongs to
   * organizations, unless `purge` (query) deletes those repositories and memberships first.
   */
  adminDelete: 'users.adminDelete',
  /** `POST /admin/users/{username}/rename`. */
  adminRename: 'users.adminRename',
  /** `GET /users/search`: answers a Page; the gateway wraps it in `{data, ok}`. */
  search: 'users.search',
  getSettings: 'users.settings.get',
  updateSettings: 'users.settings.update',
  listEmails: 'users.emails.list',
  addEmails: 'users.emails.add',
  deleteEmails: 'users.emails.delete',
  /** `GET /admin/emails` and `/admin/emails/search` (`q`): every individual's addresses, by address. */
  searchEmails: 'users.emails.search',
  /** Followers of `params.username`, or of the actor when it is absent. */
  listFollowers: 'users.followers.list',
  /** Whom `params.username` follows, or the actor when it is absent. */
  listFollowing: 'users.following.list',
  /** 204 when `params.username` (or the actor) follows `params.target`, else not_found. */
  checkFollowing: 'users.following.check',
  follow: 'users.follow',
  unfollow: 'users.unfollow',
});

export const TokenPatterns = definePatterns('org', {
  create: 'users.tokens.create',
  list: 'users.tokens.list',
  delete: 'users.tokens.delete',
  /** `GET /token`: body `{ token }`, the secret of the request's `Authorization: token|Bearer` header (404 without one). */
  current: 'tokens.current.get',
  /** `DELETE /token`: deletes that token. */
  deleteCurrent: 'tokens.current.delete',
});

/** Params of `/users/{username}/tokens` routes; the gateway says whether the caller used HTTP Basic. */
export interface TokenParams {
  username: string;
  /** Gitea manages tokens over Basic only (password, or a token as Basic credentials). */
  basicAuth: boolean;
}

export const OrgPatterns = definePatterns('org', {
  create: 'orgs.create',
  get: 'orgs.get',
  /** How an actor relates to an organization (owner, member, team access to a repository). */
  access: 'orgs.access',
  /** The owners whose repositories the actor may see at all (repository search). */
  ownerFilter: 'orgs.ownerFilter',
  /** `orgs.access` for several owners at once (one call for a page of repositories). */
  accessMany: 'orgs.accessMany',
  /** What several users reach of one owner (body `{ownerId, userIds}`): UserOwnerAccess per known user, one call per list. */
  accessForUsers: 'orgs.accessForUsers',
  /** Which organization repositories the actor reaches through teams. */
  reachableRepos: 'orgs.reachableRepos',
  /** `GET /orgs`: every organization the actor may see, by name. */
  list: 'orgs.list',
  /** `GET /admin/orgs`: every organization, by name. */
  adminList: 'orgs.adminList',
  /** `POST /admin/users/{username}/orgs`: a site administrator creates an organization owned by a user. */
  createForUser: 'orgs.createForUser',
  /** `POST /orgs/{org}/rename`. */
  rename: 'orgs.rename',
  /** `GET /users/{username}/orgs/{org}/permissions`. */
  userPermissions: 'orgs.userPermissions',
  /** `GET /user/orgs` (no `params.username`) and `GET /users/{username}/orgs`. */
  listForUser: 'orgs.listForUser',
  edit: 'orgs.edit',
  /** Refused while the organization owns repositories (asks repo-service). */
  delete: 'orgs.delete',
  listMembers: 'orgs.members.list',
  /** Answers a MemberCheck: null redirect for a member, a redirect for callers who may only see public members. */
  checkMember: 'orgs.members.check',
  removeMember: 'orgs.members.remove',
  listPublicMembers: 'orgs.publicMembers.list',
  checkPublicMember: 'orgs.publicMembers.check',
  publicizeMember: 'orgs.publicMembers.publicize',
  concealMember: 'orgs.publicMembers.conceal',
});

export const TeamPatterns = definePatterns('org', {
  create: 'teams.create',
  /** `GET /orgs/{org}/teams`: the teams the actor may list (team visibility). */
  listForOrg: 'teams.listForOrg',
  /** `GET /orgs/{org}/teams/search`: a Page; the gateway wraps it in `{data, ok}`. */
  search: 'teams.search',
  /** `GET /user/teams`. */
  listForActor: 'teams.listForActor',
  get: 'teams.get',
  edit: 'teams.edit',
  delete: 'teams.delete',
  listMembers: 'teams.members.list',
  getMember: 'teams.members.get',
  addMember: 'teams.members.add',
  removeMember: 'teams.members.remove',
  listRepos: 'teams.repos.list',
  getRepo: 'teams.repos.get',
  addRepo: 'teams.repos.add',
  removeRepo: 'teams.repos.remove',
  /** Which repositories a team reaches, for repository search by `team_id` (404 when the actor may not read the team). */
  repoScope: 'teams.repos.scope',
  /** A team's repository links for repository search by `team_id`, unchecked as Gitea's team_repo subquery (the search applies visibility); null for no such team. */
  repoLinks: 'teams.repos.links',
  /**
   * For repo-service's `/repos/{owner}/{repo}/teams`, which has checked the caller: the
   * organization's teams that reach a repository (all-repository teams and linked ones), Owners first.
   */
  listForRepo: 'teams.forRepo.list',
  /** For repo-service: one team of the organization by name (404 when unknown) and whether it reaches the repository. */
  getForRepo: 'teams.forRepo.get',
  /** For repo-service: link (`link: true`) or unlink a repository; 422 when it already is or is not linked. */
  linkRepo: 'teams.forRepo.link',
  /**
   * For repo-service's transfers (body RepoTeamMove): the repository leaves every team it was
   * linked to and joins `teamIds` of its new organization (idempotent).
   */
  moveRepo: 'teams.forRepo.move',
});

/** Body of `teams.forRepo.move`. */
export interface RepoTeamMove {
  repoId: number;
  /** The new owner when it is an organization, else null (no team joins). */
  orgId: number | null;
  teamIds: number[];
}

/** Body of the `teams.forRepo.*` patterns. */
export interface RepoTeamRequest {
  orgId: number;
  repoId: number;
  /** The team's name (any case); absent for the list. */
  team?: string;
  link?: boolean;
}

/** Answer of `teams.forRepo.get`. */
export interface RepoTeamLink {
  team: Team;
  /** The team reaches the repository (it includes every repository, or it is linked). */
  linked: boolean;
}

export const RepoPatterns = definePatterns('repo', {
  createForActor: 'repos.createForActor',
  createForOrg: 'repos.createForOrg',
  /** `POST /admin/users/{username}/repos`: a site administrator creates a repository for any account. */
  createForUser: 'repos.createForUser',
  get: 'repos.get',
  /** `GET /repositories/{id}`. */
  getById: 'repos.getById',
  edit: 'repos.edit',
  delete: 'repos.delete',
  listForActor: 'repos.listForActor',
  listForUser: 'repos.listForUser',
  listForOrg: 'repos.listForOrg',
  /** `GET /repos/search`. */
  search: 'repos.search',
  /**
   * Repositories of one owner as the actor would see them (Repository shapes with its permissions),
   * by name, one page: those with `ids`, or named `names`, or all of them. For other services
   * (team repositories); the caller decides whether the actor may see the list at all.
   */
  findMany: 'repos.findMany',
  /** How many repositories an owner has (user and organization deletion are refused while any remain). */
  countForOwner: 'repos.countForOwner',
  /** body `{ ownerId }`: delete every repository of an owner (a site administrator purging a user). */
  deleteAllOfOwner: 'repos.deleteAllOfOwner',
  /** `POST /repos/{o}/{r}/forks` (CreateForkOption): 202 with the new fork. */
  fork: 'repos.fork',
  /** `GET /repos/{o}/{r}/forks`: the forks the actor may see. */
  listForks: 'repos.forks.list',
});

/** Body of `repos.findMany`; `page` and `limit` travel in the query. */
export interface FindReposRequest {
  ownerId: number;
  ids?: number[];
  names?: string[];
}

/**
 * `/repos/{owner}/{repo}/teams`: repo-service checks the repository and the caller, org-service
 * (which owns teams) answers and links through TeamPatterns' `forRepo` patterns.
 */
export const RepoTeamPatterns = definePatterns('repo', {
  list: 'repos.teams.list',
  get: 'repos.teams.get',
  add: 'repos.teams.add',
  remove: 'repos.teams.remove',
});

/** `/repos/{owner}/{repo}/transfer[/accept|/reject]` (TransferRepoOption for the first). */
export const RepoTransferPatterns = definePatterns('repo', {
  /** 201 with the Repository when the transfer waits for its recipient, 202 when it completed at once. */
  start: 'repos.transfer.start',
  accept: 'repos.transfer.accept',
  reject: 'repos.transfer.reject',
});

/**
 * `/admin/unadopted` (site administrators): directories an operator dropped into the repositories
 * volume in Gitea's layout, `<owner>/<name>.git`, that no repository of that owner is named after.
 */
export const UnadoptedPatterns = definePatterns('repo', {
  /** query `page`, `limit` and `query` (Gitea's; `pattern` in its swagger): `<owner glob>[/<name glob>]` → Page of `owner/name`. */
  list: 'repos.unadopted.list',
  /** params `{ owner, repo }`: the directory becomes a private repository of the owner. */
  adopt: 'repos.unadopted.adopt',
  /** params `{ owner, repo }`: the directory is removed from disk. */
  delete: 'repos.unadopted.delete',
});

/** Answer of `repos.transfer.start`: the repository and whether the transfer is still pending. */
export interface RepoTransferStarted {
  pending: boolean;
  repository: Repository;
}

/** `/repos/{owner}/{repo}/collaborators`. */
export const CollaboratorPatterns = definePatterns('repo', {
  list: 'repos.collaborators.list',
  check: 'repos.collaborators.check',
  add: 'repos.collaborators.add',
  remove: 'repos.collaborators.remove',
  permission: 'repos.collaborators.permission',
  /** `GET /repos/{o}/{r}/assignees`: who issues and pull requests may be assigned to (Gitea's GetRepoAssignees). */
  assignees: 'repos.assignees.list',
  /** `GET /repos/{o}/{r}/assignees/{assignee}`: answers when that user may be assigned, else 404 (Gitea's CheckRepoIssueAssignee). */
  checkAssignee: 'repos.assignees.check',
  /** `GET /repos/{o}/{r}/reviewers`: who may be asked for a review (Gitea's GetReviewers). */
  reviewers: 'repos.reviewers.list',
  /** body `{ userId }`: every collaboration of a user being deleted (site administrators only). */
  removeUser: 'repos.collaborators.removeUser',
});

/** `/repos/{owner}/{repo}/branch_protections`. */
export const BranchProtectionPatterns = definePatterns('repo', {
  list: 'repos.branchProtections.list',
  get: 'repos.branchProtections.get',
  create: 'repos.branchProtections.create',
  edit: 'repos.branchProtections.edit',
  delete: 'repos.branchProtections.delete',
  /** `POST branch_protections/priority`: the rules' order, first to last. */
  prioritize: 'repos.branchProtections.prioritize',
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
  /** body `{ name }` → the AccountRef an old login of a renamed user or organization leads to, or null. */
  renamedAccount: 'directory.renamedAccount',
  /** body `{ emails }` → AccountRef[] of the individual users whose e-mail matches (case-insensitive). */
  usersByEmails: 'directory.usersByEmails',
  /** body `{ orgId, names?, ids? }` → TeamRef[] of the organization's teams that match (orgId 0: of any organization). */
  teams: 'directory.teams',
  /** body `{ orgId, userId }` → ids of the user's teams in that organization. */
  teamIdsOfUser: 'directory.teamIdsOfUser',
  /** body `{ orgId }` → ids of the users who may create repositories in the organization (Gitea's GetUsersWhoCanCreateOrgRepo). */
  repoCreators: 'directory.repoCreators',
  /** body `{ orgId, repoId }` → ids of the members of the organization's teams that reach the repository (all-repository teams and linked ones). */
  teamMemberIdsOfRepo: 'directory.teamMemberIdsOfRepo',
});

/** Reading and writing a repository's tree: contents, raw files, git objects, file changes. */
export const RepoContentPatterns = definePatterns('repo', {
  /** `contents`: a file's object, or a directory's entries. */
  get: 'repos.contents.get',
  /** `contents-ext`: `file_contents` or `dir_contents`, with the fields `includes` asks for. */
  getExt: 'repos.contents.getExt',
  /** `file-contents`: several paths at once, each with its content and last commit. */
  getFiles: 'repos.contents.getFiles',
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
  rename: 'repos.branches.rename',
  update: 'repos.branches.update',
  delete: 'repos.branches.delete',
  /** `POST /repos/{owner}/{repo}/merge-upstream` (body MergeUpstreamRequest → MergeUpstreamResponse). */
  mergeUpstream: 'repos.branches.mergeUpstream',
});

/** `/repos/{owner}/{repo}/topics`. */
export const TopicPatterns = definePatterns('repo', {
  list: 'repos.topics.list',
  replace: 'repos.topics.replace',
  add: 'repos.topics.add',
  delete: 'repos.topics.delete',
});

export const TagPatterns = definePatterns('repo', {
  list: 'repos.tags.list',
  get: 'repos.tags.get',
  create: 'repos.tags.create',
  delete: 'repos.tags.delete',
  /** `git/tags/{sha}`: an annotated tag object. */
  annotated: 'repos.git.tags.get',
});

/** Releases and their assets (repo-service); asset bytes and archives move over repo-service's HTTP listener. */
export const ReleasePatterns = definePatterns('repo', {
  list: 'repos.releases.list',
  get: 'repos.releases.get',
  getByTag: 'repos.releases.get_by_tag',
  latest: 'repos.releases.latest',
  create: 'repos.releases.create',
  edit: 'repos.releases.edit',
  delete: 'repos.releases.delete',
  deleteByTag: 'repos.releases.delete_by_tag',
  listAssets: 'repos.releases.assets.list',
  getAsset: 'repos.releases.assets.get',
  editAsset: 'repos.releases.assets.edit',
  deleteAsset: 'repos.releases.assets.delete',
  /** body `{ uuid }`: whether a release asset has this uuid (`/attachments/{uuid}` serves release assets and issue attachments alike). */
  isAsset: 'repos.releases.assets.is_asset',
});

export const GitRefPatterns = definePatterns('repo', {
  /** `git/refs` and `git/refs/{prefix}`. */
  list: 'repos.git.refs.list',
});

export const CommitPatterns = definePatterns('repo', {
  list: 'repos.commits.list',
  get: 'repos.commits.get',
  /** A commit's raw `.diff` or `.patch`. */
  raw: 'repos.commits.raw',
  compare: 'repos.commits.compare',
  /** A commit's note from refs/notes/commits. */
  note: 'repos.commits.note',
});

/** Files read from a branch for the API: issue templates and config, `.editorconfig`. */
export const RepoFilePatterns = definePatterns('repo', {
  issueTemplates: 'repos.issue_templates.list',
  issueConfig: 'repos.issue_config.get',
  validateIssueConfig: 'repos.issue_config.validate',
  editorconfig: 'repos.editorconfig.get',
});

export const CommitStatusPatterns = definePatterns('repo', {
  create: 'repos.statuses.create',
  /** Statuses of one commit sha (`/statuses/{sha}`). */
  list: 'repos.statuses.list',
  /** Statuses of a branch, tag or commit (`/commits/{ref}/statuses`). */
  listByRef: 'repos.statuses.listByRef',
  combined: 'repos.statuses.combined',
  /** For actions-service: a job's status (body ActionsCommitStatus), answered null when the repository is gone. */
  createForActions: 'repos.statuses.createForActions',
});

/** Webhook configuration (admin-service). Params are a HookScope plus the hook id. */
export const HookPatterns = definePatterns('admin', {
  list: 'hooks.list',
  /** `GET /admin/hooks`: every system and/or default hook (query `type`), unpaged as Gitea answers. */
  listAdmin: 'hooks.listAdmin',
  create: 'hooks.create',
  get: 'hooks.get',
  edit: 'hooks.edit',
  delete: 'hooks.delete',
  /**
   * `/repos/{o}/{r}/hooks/git[/{id}]` (git hooks): after Gitea's repository-admin check, always
   * Gitea's answer with DISABLE_GIT_HOOKS (its default), as gitforge runs no custom git hooks.
   */
  gitHooks: 'hooks.git',
  /**
   * For the webhook worker: the active hooks each of several events reaches (repository, owner,
   * system hooks). Body `{ queries: HookMatchQuery[] }`, answer one `HookTarget[]` per query, in order.
   */
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
  /** `GET /users/{username}/heatmap`: the last year's actions per 15 minutes (UserHeatmapData[]). */
  userHeatmap: 'feeds.user.heatmap',
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
  /** What several users may do in one repository (body `{repoId, userIds}`), one call per list. */
  usersAccess: 'repos.usersAccess',
  /**
   * Every repository the actor reaches (optionally of one `owner`, or one `team` of it), with
   * its access: the repositories `GET /repos/issues/search` looks in.
   */
  reachable: 'repos.reachable',
  /** issue-service's counts of issues and pulls (RepoIssueCounters), applied when newer. */
  setIssueCounters: 'repos.issueCounters.set',
  /**
   * Who a notification reaches (body NotificationAudienceRequest): the users given, with the
   * repository's watchers when asked, who are active and may read the unit; ids only.
   */
  notificationAudience: 'repos.notificationAudience',
});

/** Team facts for team activity feeds. */
export const TeamFactPatterns = definePatterns('org', {
  feedScope: 'orgs.teams.feedScope',
});

/** Stars (repo-service): `/user/starred`, `/users/{username}/starred`, `/repos/{owner}/{repo}/stargazers`. */
export const StarPatterns = definePatterns('repo', {
  star: 'repos.stars.add',
  unstar: 'repos.stars.delete',
  /** Answers nothing when the actor stars the repository, 404 otherwise. */
  check: 'repos.stars.check',
  /** Without `params.username` the actor's own stars. */
  listForUser: 'repos.stars.listForUser',
  stargazers: 'repos.stars.stargazers',
});

/** Watches (repo-service): `/repos/{owner}/{repo}/subscription`, `/subscribers`, `/user/subscriptions`. */
export const WatchPatterns = definePatterns('repo', {
  watch: 'repos.watches.add',
  unwatch: 'repos.watches.delete',
  /** WatchInfo, or 404 when the actor does not watch (as Gitea). */
  get: 'repos.watches.get',
  /** Without `params.username` the actor's own subscriptions. */
  listForUser: 'repos.watches.listForUser',
  subscribers: 'repos.watches.subscribers',
  /** For issue-service (body `{repoId, userId}`): whether the user watches the repository, so follows its issues (Gitea's CheckIssueWatch). */
  isWatching: 'repos.watches.isWatching',
});

/** Notifications (webhook-worker's projection): Gitea's `/notifications` routes. */
export const NotificationPatterns = definePatterns('webhook', {
  /** `GET /notifications`, and `GET /repos/{owner}/{repo}/notifications` with `params.owner`/`params.repo`. */
  list: 'notifications.list',
  /** `PUT /notifications` (and the repository's): answers the threads changed. */
  markMany: 'notifications.markMany',
  /** `GET /notifications/new`. */
  countNew: 'notifications.countNew',
  getThread: 'notifications.threads.get',
  /** `PATCH /notifications/threads/{id}?to-status=`. */
  markThread: 'notifications.threads.mark',
});

/** Scheduled tasks (admin-service): `/admin/cron`. */
export const CronPatterns = definePatterns('admin', {
  /** `GET /admin/cron`: every registered task in Gitea's order (Cron[]; the gateway pages it). */
  list: 'cron.list',
  /** `POST /admin/cron/{task}`: runs the task now and answers when it has run (at once if it is running already). */
  run: 'cron.run',
});

/** Repository maintenance (repo-service), called by the admin cron's tasks. */
export const RepoMaintenancePatterns = definePatterns('repo', {
  /** One batch of a pass over every repository (body RepoSweepRequest, answers RepoSweepResult). */
  sweep: 'repos.maintenance.sweep',
  /** Cached archives older than `olderThanMs` go (body RetentionRequest, answers RetentionResult). */
  cleanArchives: 'repos.maintenance.cleanArchives',
});

/** Webhook-worker housekeeping, called by the admin cron. */
export const WebhookMaintenancePatterns = definePatterns('webhook', {
  /**
   * Hook deliveries and finished hook tasks older than `olderThanMs`, with the projectors' event
   * marks of that age (body RetentionRequest, answers RetentionResult: the deliveries removed).
   */
  cleanupHookTasks: 'webhooks.maintenance.cleanupHookTasks',
  /** Activity feed entries older than `olderThanMs` (body RetentionRequest, answers RetentionResult). */
  deleteOldActions: 'webhooks.maintenance.deleteOldActions',
});

/** Account housekeeping (org-service), called by the admin cron. */
export const AccountMaintenancePatterns = definePatterns('org', {
  /** Never-activated accounts created more than `olderThanMs` ago go (body RetentionRequest, answers RetentionResult). */
  deleteInactive: 'users.maintenance.deleteInactive',
});

/**
 * The package API (`/api/v1/packages/{owner}…`, repo-service, which owns the registry). The
 * registries themselves (`/api/packages/{owner}/{type}/…`) are byte routes on repo-service's HTTP
 * listener, see PackageHttp.
 */
export const PackagePatterns = definePatterns('repo', {
  /** `GET /packages/{owner}`: versions of the owner's packages, `type` and `q` filters. */
  list: 'packages.list',
  /** `GET /packages/{owner}/{type}/{name}/{version}`. */
  get: 'packages.get',
  /** `GET /packages/{owner}/{type}/{name}`: the package's versions, newest first (paginated). */
  listVersions: 'packages.versions.list',
  /** `DELETE /packages/{owner}/{type}/{name}`: the package with every version. */
  deletePackage: 'packages.package.delete',
  /** `GET /packages/{owner}/{type}/{name}/-/latest`: the newest version. */
  latest: 'packages.latest',
  /** `GET /packages/{owner}/{type}/{name}/{version}/files`. */
  listFiles: 'packages.files.list',
  /** `DELETE /packages/{owner}/{type}/{name}/{version}`. */
  delete: 'packages.delete',
  /** `POST /packages/{owner}/{type}/{name}/-/link/{repo_name}`. */
  link: 'packages.link',
  /** `POST /packages/{owner}/{type}/{name}/-/unlink`. */
  unlink: 'packages.unlink',
  /**
   * The `cleanup_packages` cron task: drops package blobs no file references any more (left by
   * deleted versions and files) and upload leftovers older than the task's grace period.
   * Body: `{ olderThanMs?: number }`; answers what it removed.
   */
  cleanup: 'packages.cleanup',
});
