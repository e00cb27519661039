import { Injectable } from '@nestjs/common';
import {
  requireSiteAdmin,
  type UserStarCount,
  ActionsUser,
  CollaboratorPatterns,
  ContractError,
  EventNames,
  invalid,
  isPublicOnly,
  notFound,
  ownerMoved,
  ownerNameProblem,
  pageOf,
  RepoPatterns,
  unprocessable,
  type ActivityActor,
  type Actor,
  type CreateUserOption,
  type EditUserOption,
  type ListOptions,
  type Page,
  type User,
  type UserSettings,
  type UserSettingsOptions,
  type OwnerFilter,
  type RetentionResult,
  isRowIdRange,
  searchKeyword,
} from '@gitforge/contracts';
import { createLogger, Database, isUniqueViolation, OutboxService, PlatformConfig, RpcClient } from '@gitforge/platform';
import { rejectPublicOnly, rejectPublicOnlyUser } from '../auth/actor.js';
import { EmailsRepository } from '../emails/emails.repository.js';
import { emailProblem, emailProblemMessage } from '../emails/email-validation.js';
import { EmailsService } from '../emails/emails.service.js';
import { FollowsRepository } from '../follows/follows.repository.js';
import { OrgsRepository } from '../orgs/orgs.repository.js';
import { TokensRepository } from '../tokens/tokens.repository.js';
import { parseAdminUserFilter } from './admin-user-filter.js';
import { hashPassword, MIN_PASSWORD_LENGTH } from './password.js';
import { renameProblem } from './account-names.js';
import { UserEntity, UserType } from './user.entity.js';
import { pseudoUser, toUser, toUserSettings } from './user.mapper.js';
import { UsersRepository } from './users.repository.js';
import { canSeeProfile, hasOrgOrUserVisible, type Viewer } from './visibility.js';

const log = createLogger('users');

/** Who the scheduled account cleanup acts as: the forge itself, with a site administrator's rights. */
const MAINTENANCE_ACTOR: Actor = { id: 0, login: 'gitforge', isAdmin: true, scopes: null };

const userNotFound = (name: string): ContractError => notFound(`user redirect does not exist [name: ${name}]`);



@Injectable()
export class UsersService {
  constructor(
    private readonly db: Database,
    private readonly users: UsersRepository,
    private readonly orgs: OrgsRepository,
    private readonly emails: EmailsService,
    private readonly emailRows: EmailsRepository,
    private readonly follows: FollowsRepository,
    private readonly tokens: TokensRepository,
    private readonly outbox: OutboxService,
    private readonly rpc: RpcClient,
    private readonly config: PlatformConfig,
  ) {}

  /** The actor's own account; unauthenticated when there is none (or it was deleted). */
  async requireSelf(actor: Actor | null): Promise<UserEntity> {
    const me = actor ? await this.users.findById(actor.id) : null;
    if (!me) throw new ContractError('unauthenticated', 'token is required');
    return me;
  }

  /** Gitea's user assignment: the account of that name, whatever its visibility; not_found otherwise. */
  async requireByName(name: string): Promise<UserEntity> {
    const user = await this.users.findByName(name);
    if (!user) throw userNotFound(name);
    return user;
  }

  /**
   * Gitea's userAssignment of the account named in the request's path (`/users/{username}…`,
   * `/admin/users/{username}…`, `/orgs/{org}…`): the account of that name; for an old login of a
   * renamed one, `moved` (the gateway's 307 to the same path at the new login, Gitea's
   * RedirectToUser) when the actor may see where it leads, `fallback` (404) otherwise.
   */
  async requireInPath(actor: Actor | null, name: string): Promise<UserEntity> {
    const user = await this.users.findByName(name);
    if (user) return user;
    throw await this.unknownInPath(actor, name, userNotFound(name));
  }

  /** The error for a name in the request's path that names no account now (see {@link requireInPath}). */
  async unknownInPath(actor: Actor | null, name: string, fallback: ContractError): Promise<ContractError> {
    const target = await this.users.renamedTo(name);
    if (!target || !(await this.ownerVisibleTo(target, actor))) return fallback;
    return ownerMoved({ from_owner: name, to_owner: target.name });
  }

  /** The actor as visibility rules see it, read fresh (admin and restricted flags may have changed). */
  async viewerOf(actor: Actor | null): Promise<Viewer> {
    if (!actor) return null;
    const me = await this.users.findById(actor.id);
    return me ? { id: me.id, isAdmin: me.isAdmin, isRestricted: me.isRestricted } : null;
  }

  /** Gitea's HasOrgOrUserVisible for an owner (an organization's members count as its viewers). */
  async ownerVisibleTo(owner: UserEntity, actor: Actor | null): Promise<boolean> {
    // An account sees itself; its row is the one in hand, no fresh read of the viewer needed.
    if (actor && actor.id === owner.id) return true;
    const viewer = await this.viewerOf(actor);
    return hasOrgOrUserVisible(owner, viewer, async () => owner.isOrganization && viewer !== null && this.orgs.isMember(owner.id, viewer.id));
  }

  /**
   * `ownerVisibleTo` for every owner at once: anonymous callers see public owners; site admins all;
   * restricted users only themselves and their organizations; others all but the private owners
   * they are not (members of).
   */
  async ownerFilter(actor: Actor | null): Promise<OwnerFilter> {
    const viewer = await this.viewerOf(actor);
    if (!viewer) return { hidden: await this.users.idsWithVisibility(['limited', 'private'], []) };
    if (viewer.isAdmin) return { all: true };
    const mine = [viewer.id, ...(await this.users.orgIdsOfMember(viewer.id))];
    if (viewer.isRestricted) return { only: mine };
    return { hidden: await this.users.idsWithVisibility(['private'], mine) };
  }

  /** `GET /user`; the Actions user, signed in with a task's token, is answered as itself though no row holds it (as Gitea). */
  async getSelf(actor: Actor | null): Promise<User> {
    const me = actor?.id === ActionsUser.id ? pseudoUser(ActionsUser.id)! : await this.requireSelf(actor);
    return toUser(me, actor, this.config.rootUrl);
  }

  /**
   * `GET /users/{username}`: hidden accounts answer the same 404 as unknown ones; a public-only
   * token gets 403 for a user that is not public (checkTokenPublicOnly runs before the visibility check).
   */
  async get(actor: Actor | null, username: string): Promise<User> {
    const user = await this.requireInPath(actor, username);
    rejectPublicOnlyUser(actor, user);
    const viewer = await this.viewerOf(actor);
    const visible = await canSeeProfile(user, viewer, async () => ({
      followsViewer: await this.users.isFollowing(user.id, viewer!.id),
      sharesTeam: await this.users.sharesTeam(user.id, viewer!.id),
    }));
    // Gitea answers a user the caller may not see with a bare "not found" (individualPermsChecker, GetInfo).
    if (!visible) throw notFound();
    return toUser(user, actor, this.config.rootUrl);
  }

  /** Users by id; the pseudo users (-1 the ghost of deleted accounts, -2 Actions) when asked for. */
  async getMany(actor: Actor | null, ids: number[]): Promise<User[]> {
    const users = await this.users.findByIds(ids.filter((id) => id > 0));
    const pseudo = ids.map((id) => (id < 0 ? pseudoUser(id) : undefined)).filter((u): u is UserEntity => u !== undefined);
    return [...users, ...pseudo].map((u) => toUser(u, actor, this.config.rootUrl));
  }

  /** repo-service's star counts (User.starred_repos_count), each applied when newer than the one kept. */
  async setStarCounts(counts: UserStarCount[]): Promise<void> {
    await this.db.transaction(async (m) => {
      for (const c of counts) await this.users.setStarCount(m, c);
    });
  }

  async activityActors(actor: Actor | null, ids: number[]): Promise<ActivityActor[]> {
    const users = await this.users.findByIds(ids);
    return users.map((u) => ({ user: toUser(u, actor, this.config.rootUrl), hideActivity: u.keepActivityPrivate }));
  }

  /** `GET /users/search`: individuals matching `q` (login, full name, visible e-mail) or `uid`, as the caller may see them. */
  async search(actor: Actor | null, query: { q?: string; uid?: number }, options: ListOptions): Promise<Page<User>> {
    const pseudo = query.uid !== undefined ? pseudoUser(query.uid) : undefined;
    if (pseudo) return pageOf([toUser(pseudo, actor, this.config.rootUrl)], 1, options);
    // A uid no row can have (beyond the id column) is nobody.
    if (query.uid !== undefined && !isRowIdRange(query.uid)) return pageOf([], 0, options);
    const viewer = await this.viewerOf(actor);
    const [rows, total] = await this.users.search(
      viewer,
      { keyword: searchKeyword(query.q), uid: query.uid, type: UserType.individual, byEmail: true, visibilities: actor && isPublicOnly(actor.scopes) ? ['public'] : undefined },
      options,
    );
    return pageOf(
      rows.map((u) => toUser(u, actor, this.config.rootUrl)),
      total,
      options,
    );
  }

  async getSettings(actor: Actor | null): Promise<UserSettings> {
    const me = await this.requireSelf(actor);
    rejectPublicOnly(actor!);
    return toUserSettings(me);
  }

  async updateSettings(actor: Actor | null, body: UserSettingsOptions): Promise<UserSettings> {
    const me = await this.requireSelf(actor);
    rejectPublicOnly(actor!);
    const changes: Partial<UserEntity> = {};
    if (body.full_name !== undefined) changes.fullName = body.full_name;
    if (body.website !== undefined) changes.website = body.website;
    if (body.description !== undefined) changes.description = body.description;
    if (body.location !== undefined) changes.location = body.location;
    if (body.language !== undefined) changes.language = body.language;
    if (body.theme !== undefined) changes.theme = body.theme;
    if (body.diff_view_style !== undefined) changes.diffViewStyle = body.diff_view_style;
    if (body.hide_email !== undefined) changes.keepEmailPrivate = body.hide_email;
    if (body.hide_activity !== undefined) changes.keepActivityPrivate = body.hide_activity;
    if (Object.keys(changes).length > 0) {
      await this.db.transaction((m) => this.users.update(m, me.id, { ...changes, updatedAt: new Date() }));
    }
    return toUserSettings((await this.users.findById(me.id))!);
  }

  /** `GET /admin/users` (Gitea's admin SearchUsers): individuals only, every visibility. */
  async adminSearch(actor: Actor | null, query: Record<string, unknown>, options: ListOptions): Promise<Page<User>> {
    requireSiteAdmin(actor);
    const [rows, total] = await this.users.adminSearch(parseAdminUserFilter(query), options);
    return pageOf(
      rows.map((u) => toUser(u, actor, this.config.rootUrl)),
      total,
      options,
    );
  }

  async adminCreate(actor: Actor | null, body: CreateUserOption): Promise<User> {
    requireSiteAdmin(actor);
    const loginSource = body.source_id ?? 0;
    // gitforge has no external authentication sources, so any other source is unknown (Gitea's parseAuthSource).
    if (loginSource !== 0) throw unprocessable(`login source does not exist [id: ${loginSource}]`);
    if ((body.password ?? '').length < MIN_PASSWORD_LENGTH) {
      throw new ContractError('invalid_argument', 'PasswordIsRequired');
    }
    const problem = ownerNameProblem(body.username);
    if (problem) throw unprocessable(problem);
    const emailInvalid = emailProblem(body.email);
    if (emailInvalid) throw unprocessable(emailProblemMessage(emailInvalid, body.email));
    const passwordHash = body.password ? await hashPassword(body.password) : null;
    const id = await this.db.transaction(async (m) => {
      if (await this.users.findByName(body.username, m)) throw unprocessable(`user already exists [name: ${body.username}]`);
      if (await this.emails.isTaken(body.email, m)) throw unprocessable(`e-mail already in use [email: ${body.email}]`);
      const now = body.created_at ? new Date(body.created_at) : new Date();
      const user = await this.users.insert(m, {
        lowerName: body.username.toLowerCase(),
        name: body.username,
        fullName: body.full_name ?? '',
        email: body.email,
        passwordHash,
        mustChangePassword: body.must_change_password ?? true,
        loginSource,
        loginName: body.login_name ?? '',
        type: UserType.individual,
        visibility: body.visibility ?? 'public',
        isActive: true,
        isRestricted: body.restricted ?? false,
        createdAt: now,
        updatedAt: now,
      });
      await this.emails.addPrimary(m, user.id, body.email);
      await this.outbox.add(m, EventNames.userCreated, { user: toUser(user, null, this.config.rootUrl) }, { actor });
      return user.id;
    });
    return toUser((await this.users.findById(id))!, actor, this.config.rootUrl);
  }

  /**
   * `PATCH /admin/users/{username}`, in Gitea's order: authentication fields (source, login name,
   * password, must-change-password, prohibit-login), then the primary e-mail, then the profile and
   * flags. The last site administrator cannot lose the flag.
   */
  async adminEdit(actor: Actor | null, username: string, body: EditUserOption): Promise<User> {
    requireSiteAdmin(actor);
    const target = await this.requireInPath(actor, username);
    if (target.isOrganization) throw unprocessable(`${target.name} is an organization not a user`);
    if (body.source_id) throw unprocessable(`login source does not exist [id: ${body.source_id}]`);
    const changes: Partial<UserEntity> = { loginName: body.login_name };
    if (body.password) {
      if (body.password.length < MIN_PASSWORD_LENGTH) throw invalid(`password must be at least ${MIN_PASSWORD_LENGTH} characters`);
      changes.passwordHash = await hashPassword(body.password);
    }
    if (body.must_change_password !== undefined) changes.mustChangePassword = body.must_change_password;
    if (body.prohibit_login !== undefined) changes.prohibitLogin = body.prohibit_login;
    if (body.full_name !== undefined) changes.fullName = body.full_name;
    if (body.website !== undefined) changes.website = body.website;
    if (body.location !== undefined) changes.location = body.location;
    if (body.description !== undefined) changes.description = body.description;
    if (body.active !== undefined) changes.isActive = body.active;
    if (body.admin !== undefined) changes.isAdmin = body.admin;
    // Gitea reads the visibility with optional.FromNonDefault, and `public` is the zero value:
    // sending "public" leaves the visibility as it is.
    if (body.visibility === 'limited' || body.visibility === 'private') changes.visibility = body.visibility;
    if (body.allow_create_organization !== undefined) changes.allowCreateOrganization = body.allow_create_organization;
    if (body.restricted !== undefined) changes.isRestricted = body.restricted;
    await this.db.transaction(async (m) => {
      if (body.email !== undefined) await this.emails.setPrimary(m, target, body.email);
      if (changes.isAdmin === false && target.isAdmin && (await this.users.countAdmins(m)) <= 1) {
        throw invalid(`can not delete the last admin user [uid: ${target.id}]`);
      }
      await this.users.update(m, target.id, { ...changes, updatedAt: new Date() });
    });
    return toUser((await this.users.findById(target.id))!, actor, this.config.rootUrl);
  }

  /**
   * `POST /admin/users/{username}/rename` (Gitea's admin RenameUser): individuals only; 422 with
   * the error's words when the name is taken or not allowed.
   */
  async adminRename(actor: Actor | null, username: string, newName: string): Promise<void> {
    requireSiteAdmin(actor);
    const target = await this.requireInPath(actor, username);
    if (target.isOrganization) throw unprocessable('target is an organization but not user');
    await this.rename(target, newName);
  }

  /**
   * Gitea's user_service.RenameUser for users and organizations: the same name changes nothing, a
   * change of case only is allowed, otherwise the name must be usable and free (422 with the
   * error's words). Repositories, teams and memberships follow by id.
   */
  async rename(account: UserEntity, newName: string): Promise<void> {
    if (newName === account.name) return;
    const problem = renameProblem(newName);
    if (problem) throw unprocessable(problem);
    await this.db.transaction(async (m) => {
      const clash = await this.users.findByName(newName, m);
      if (clash && clash.id !== account.id) throw unprocessable(`user already exists [name: ${newName}]`);
      await this.users.update(m, account.id, { name: newName, lowerName: newName.toLowerCase(), updatedAt: new Date() });
      // The old login keeps leading to the account's repositories (Gitea's NewUserRedirect).
      await this.users.addRedirect(m, account.id, account.name, newName);
      // Repositories keep their owner's name (Gitea's repository.owner_name, which search matches and sorts by).
      await this.outbox.add(m, EventNames.accountRenamed, { ownerId: account.id, oldName: account.name, newName }, { actor: null });
    });
  }

  /**
   * `DELETE /admin/users/{username}`: refused (422) for organizations, oneself, the last site
   * administrator, and users that still own repositories or belong to organizations. With `purge`
   * those repositories and memberships go first (Gitea's DeleteUser(purge)).
   */
  async adminDelete(caller: Actor | null, username: string, purge: boolean): Promise<void> {
    const actor = requireSiteAdmin(caller);
    const target = await this.requireInPath(actor, username);
    if (target.isOrganization) throw unprocessable('target is an organization but not user');
    if (target.id === actor.id) throw unprocessable('you cannot delete yourself');
    if (target.isAdmin && (await this.users.countAdmins()) <= 1) throw unprocessable(`can not delete the last admin user [uid: ${target.id}]`);
    if (purge) await this.purge(actor, target);
    await this.removeAccount(actor, target);
  }

  /**
   * Gitea's delete_inactive_accounts: individuals never activated, created more than `olderThanMs`
   * ago, go as an administrator's delete would take them; one that owns repositories or belongs
   * to an organization is left (as Gitea's DeleteInactiveUsers skips them). Answers how many went.
   */
  async deleteInactive(olderThanMs: number): Promise<RetentionResult> {
    const candidates = await this.users.findInactiveIndividualsBefore(new Date(Date.now() - olderThanMs));
    let removed = 0;
    for (const user of candidates) {
      try {
        await this.removeAccount(MAINTENANCE_ACTOR, user);
        removed++;
      } catch (err) {
        if (!(err instanceof ContractError) || err.code !== 'unprocessable') throw err;
        log.info({ userId: user.id, reason: err.message }, 'inactive account kept');
      }
    }
    return { removed };
  }

  /** The account and what hangs on it, once nothing refuses it (repositories, memberships). */
  private async removeAccount(actor: Actor, target: UserEntity): Promise<void> {
    await this.refuseWhileOwningRepositories(actor, target);
    if ((await this.orgs.countMemberships(target.id)) > 0) {
      throw unprocessable(`user still has membership of organizations [uid: ${target.id}]`);
    }
    // repo-service owns collaborations: they go before the account, so no list shows a ghost.
    await this.rpc.call<void, Record<string, string>, { userId: number }>(CollaboratorPatterns.removeUser, { actor, body: { userId: target.id } });
    await this.db.transaction(async (m) => {
      await this.follows.removeAllOf(m, target.id);
      await this.emailRows.deleteOfUser(m, target.id);
      await this.tokens.deleteOfUser(m, target.id);
      await this.users.delete(m, target.id);
    });
  }

  /**
   * The purge part of Gitea's DeleteUser: the user's repositories (repo-service deletes them), then
   * its memberships; an organization whose last owner it is goes too, with its repositories.
   */
  private async purge(actor: Actor, user: UserEntity): Promise<void> {
    await this.deleteRepositoriesOf(actor, user.id);
    for (const orgId of await this.users.orgIdsOfMember(user.id)) {
      if (await this.orgs.isLastOwner(orgId, user.id)) {
        await this.deleteRepositoriesOf(actor, orgId);
        await this.db.transaction(async (m) => {
          await this.orgs.deleteOrganizationData(m, orgId);
          await this.users.delete(m, orgId);
        });
      } else {
        await this.db.transaction((m) => this.orgs.removeMember(m, orgId, user.id));
      }
    }
  }

  private async deleteRepositoriesOf(actor: Actor, ownerId: number): Promise<void> {
    await this.rpc.call<void, Record<string, string>, { ownerId: number }>(RepoPatterns.deleteAllOfOwner, { actor, body: { ownerId } });
  }

  /** Gitea's ErrUserOwnRepos, asked of repo-service (which owns repositories). */
  async refuseWhileOwningRepositories(actor: Actor, owner: UserEntity): Promise<void> {
    const count = await this.rpc.call<number, Record<string, string>, { ownerId: number }>(RepoPatterns.countForOwner, {
      actor,
      body: { ownerId: owner.id },
    });
    if (count > 0) throw unprocessable(`user still has ownership of repositories [uid: ${owner.id}]`);
  }

  /**
   * Makes sure the administrator named in the environment exists and is a site admin.
   * The password is only set when the account is created; changes made since are kept.
   */
  async ensureAdmin(username: string, password: string, email: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    const ensure = this.db.transaction(async (m) => {
      const existing = await this.users.findByName(username, m);
      if (existing) {
        if (existing.isOrganization) throw new Error(`GITFORGE_ADMIN_USER ${username} names an organization`);
        if (!existing.isAdmin || !existing.isActive || existing.prohibitLogin) {
          await this.users.update(m, existing.id, { isAdmin: true, isActive: true, prohibitLogin: false, updatedAt: new Date() });
        }
        return;
      }
      const now = new Date();
      const user = await this.users.insert(m, {
        lowerName: username.toLowerCase(),
        name: username,
        email,
        passwordHash,
        mustChangePassword: false,
        type: UserType.individual,
        visibility: 'public',
        isActive: true,
        isAdmin: true,
        createdAt: now,
        updatedAt: now,
      });
      await this.emails.addPrimary(m, user.id, email);
    });
    // Two replicas starting together: the one that lost the insert race finds the admin made.
    await ensure.catch((err: unknown) => {
      if (!isUniqueViolation(err)) throw err;
    });
  }
}

