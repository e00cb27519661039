import { Injectable } from '@nestjs/common';
import {
  ContractError,
  DirectoryPatterns,
  OrgPatterns,
  organizationNotAssignable,
  ownerMoved,
  UserPatterns,
  type AccountRef,
  type Actor,
  type OwnerAccess,
  type OwnerFilter,
  type ReachableRepos,
  type TeamRef,
  type User,
  type UserOwnerAccess,
} from '@gitforge/contracts';
import { Lru } from '../cache/lru.js';
import { RpcClient } from '../transport/rpc-client.js';

type Body<B> = { actor: Actor | null; body: B };

/** What a process keeps of the answers it reuses, in characters of their JSON (see {@link DirectoryClient.reuse}). */
const KEPT_CHARACTERS = 8 * 1024 * 1024;

/**
 * The longest an answer is reused, whatever the version says: the gateway's credential cache has
 * the same bound (GITFORGE_AUTH_CACHE_TTL_MS). It only matters where the version cannot tell, as
 * when Redis comes back from a crash with its data of a second earlier.
 */
const KEPT_MS = 5_000;

/**
 * org-service as the other services ask it (its directory, and how actors relate to owners): one
 * call per list, never per row. The answers most requests start with (how the actor relates to an
 * owner) are kept and reused while the directory's version stays the same (see {@link reuse}).
 */
@Injectable()
export class DirectoryClient {
  private readonly kept = new Lru<string, { epoch: string; at: number; json: string }>(KEPT_CHARACTERS, (v) => v.json.length);

  constructor(private readonly rpc: RpcClient) {}

  private ask<R, B>(pattern: string, call: Body<B>): Promise<R> {
    return this.rpc.call<R, Record<string, string>, B>(pattern, call);
  }

  /**
   * A read of the directory, answered from what this process kept when it was read at the version
   * the directory has now (for at most {@link KEPT_MS}), else asked and kept. org-service announces
   * each write of its own before it begins and after it ends, both times with a new version, and
   * while one is under way the version reads as unknown: nothing is reused or kept then. So an
   * answer is kept only under a version no write has begun since it was read, and whatever a
   * caller saw of a write before it sent this request had ended, with a new version, by then.
   * Failures are not kept; an unknown or unreadable version reuses nothing.
   */
  private async reuse<R, B>(pattern: string, call: Body<B>): Promise<R> {
    const epoch = await this.rpc.directoryEpoch().catch(() => null);
    const ask = (): Promise<R> => this.rpc.call<R, Record<string, string>, B>(pattern, call, { directoryRead: true });
    if (epoch === null) return ask();
    const key = `${pattern}\n${JSON.stringify(call)}`;
    const kept = this.kept.get(key);
    // A copy each time: callers may change what they are given.
    if (kept?.epoch === epoch && Date.now() - kept.at < KEPT_MS) return JSON.parse(kept.json) as R;
    const at = Date.now();
    const answer = await ask();
    this.kept.set(key, { epoch, at, json: JSON.stringify(answer) });
    return answer;
  }

  accountsByNames(actor: Actor | null, names: string[]): Promise<AccountRef[]> {
    if (names.length === 0) return Promise.resolve([]);
    return this.ask(DirectoryPatterns.accountsByNames, { actor, body: { names } });
  }

  accountsByIds(actor: Actor | null, ids: number[]): Promise<AccountRef[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.ask(DirectoryPatterns.accountsByIds, { actor, body: { ids } });
  }

  /** The account an old login of a renamed user or organization leads to, null when none does. */
  renamedAccount(actor: Actor | null, name: string): Promise<AccountRef | null> {
    return this.ask(DirectoryPatterns.renamedAccount, { actor, body: { name } });
  }

  /**
   * The error for an owner named in the request's path (`/users/{username}…`, `/orgs/{org}…`) that
   * is no account now: for an old login of a renamed one the actor may see, `moved` (the gateway's
   * 307 to the same path at the new login, Gitea's RedirectToUser); `fallback` otherwise.
   */
  async unknownOwner(actor: Actor | null, name: string, fallback: ContractError): Promise<ContractError> {
    const account = await this.renamedAccount(actor, name);
    return account ? ownerMoved({ from_owner: name, to_owner: account.login }) : fallback;
  }

  /** How the actor relates to an owner, by login or id (organization membership, team access, visibility); not_found when there is none. */
  ownerAccess(actor: Actor | null, owner: { owner: string } | { ownerId: number }): Promise<OwnerAccess> {
    return this.reuse(OrgPatterns.access, { actor, body: owner });
  }

  /**
   * {@link ownerAccess} of the owner named in the request's path; an old login of a renamed one
   * answers `moved` to those who may see where it leads ({@link unknownOwner}), `fallback` (by
   * default org-service's own not_found) otherwise.
   */
  ownerInPath(actor: Actor | null, name: string, fallback?: ContractError): Promise<OwnerAccess> {
    return this.ownerAccess(actor, { owner: name }).catch(async (err: unknown) => {
      if (!(err instanceof ContractError && err.code === 'not_found')) throw err;
      throw await this.unknownOwner(actor, name, fallback ?? err);
    });
  }

  /** {@link ownerAccess} for several owners at once (a page of repositories); unknown ones are left out. */
  ownersAccess(actor: Actor | null, ownerIds: number[]): Promise<OwnerAccess[]> {
    if (ownerIds.length === 0) return Promise.resolve([]);
    return this.ask(OrgPatterns.accessMany, { actor, body: { ownerIds } });
  }

  /** The per-user part of {@link ownerAccess} for many users of one owner (who a notification may reach). */
  accessForUsers(ownerId: number, userIds: number[]): Promise<UserOwnerAccess[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.ask(OrgPatterns.accessForUsers, { actor: null, body: { ownerId, userIds } });
  }

  /** The organizations and team repositories the actor reaches. */
  reachableRepos(actor: Actor): Promise<ReachableRepos> {
    return this.rpc.call<ReachableRepos>(OrgPatterns.reachableRepos, { actor });
  }

  /** {@link reachableRepos} of another user (repository search's `uid`): ids only, which the caller's own access bounds. */
  reachableReposOf(userId: number): Promise<ReachableRepos> {
    return this.rpc.call<ReachableRepos, Record<string, string>, { userId: number }>(OrgPatterns.reachableRepos, { actor: null, body: { userId } });
  }

  /** Which owners' repositories the actor may list at all (visibility of users and organizations). */
  ownerFilter(actor: Actor | null): Promise<OwnerFilter> {
    return this.rpc.call<OwnerFilter>(OrgPatterns.ownerFilter, { actor });
  }

  usersByEmails(actor: Actor | null, emails: string[]): Promise<AccountRef[]> {
    if (emails.length === 0) return Promise.resolve([]);
    return this.ask(DirectoryPatterns.usersByEmails, { actor, body: { emails } });
  }

  /** An organization's teams by name or id; `withOrganization` fills each one's organization. */
  teams(orgId: number, filter: { names?: string[]; ids?: number[]; withOrganization?: boolean }): Promise<TeamRef[]> {
    if ((filter.names && filter.names.length === 0) || (filter.ids && filter.ids.length === 0)) return Promise.resolve([]);
    return this.ask(DirectoryPatterns.teams, { actor: null, body: { orgId, ...filter } });
  }

  teamIdsOfUser(orgId: number, userId: number): Promise<number[]> {
    return this.ask(DirectoryPatterns.teamIdsOfUser, { actor: null, body: { orgId, userId } });
  }

  /** Who may create repositories in an organization (its owners, and members of teams allowed to). */
  repoCreatorIds(orgId: number): Promise<number[]> {
    return this.ask(DirectoryPatterns.repoCreators, { actor: null, body: { orgId } });
  }

  /** Members of the organization's teams that reach the repository, one call. */
  teamMemberIdsOfRepo(orgId: number, repoId: number): Promise<number[]> {
    return this.ask(DirectoryPatterns.teamMemberIdsOfRepo, { actor: null, body: { orgId, repoId } });
  }

  /** Users by id as `viewer` sees them (null: as anyone does, Gitea's ToUser without a viewer), one call; unknown ids are left out. */
  usersByIds(viewer: Actor | null, ids: number[]): Promise<User[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.ask(UserPatterns.getMany, { actor: viewer, body: { ids } });
  }

  /** A user as anyone sees them: pushers and senders in event payloads, which leave the forge. */
  async publicUser(id: number): Promise<User> {
    const [user] = await this.usersByIds(null, [id]);
    if (!user) throw new ContractError('not_found', `user does not exist [uid: ${id}, name: ]`);
    return user;
  }

  /** The actor as a User in its own view (with its real e-mail): commit identities. */
  async actorUser(actor: Actor): Promise<User> {
    const [user] = await this.usersByIds(actor, [actor.id]);
    if (!user) throw new ContractError('unauthenticated', 'token is required');
    return user;
  }

  /**
   * Individual users by name, in the order given; the first unknown name (or an organization)
   * answers Gitea's 422 `user does not exist [uid: 0, name: …]`.
   */
  async requireUsers(actor: Actor | null, names: string[]): Promise<AccountRef[]> {
    const found = await this.accountsByNames(actor, names);
    return names.map((name) => {
      const account = found.find((a) => a.login.toLowerCase() === name.toLowerCase() && a.kind === 'user');
      if (!account) throw userDoesNotExist(name);
      return account;
    });
  }

  /**
   * The user a check names as an assignee (Gitea's checkAssignableUser): an unknown name is 404
   * `user does not exist`, an organization 400, as it can never be assigned. Whether the user
   * may be assigned in the repository is the caller's to check (canBeAssigned).
   */
  async assigneeByName(actor: Actor | null, name: string, repoId: number): Promise<AccountRef> {
    const [account] = await this.accountsByNames(actor, [name]);
    if (!account) throw new ContractError('not_found', userDoesNotExist(name).message);
    if (account.kind !== 'user') throw organizationNotAssignable(account.id, repoId);
    return account;
  }

  /** An organization's teams by name; the first unknown one answers Gitea's 422. */
  async requireTeams(orgId: number, names: string[]): Promise<TeamRef[]> {
    const found = await this.teams(orgId, { names });
    return names.map((name) => {
      const team = found.find((t) => t.name.toLowerCase() === name.toLowerCase());
      if (!team) throw new ContractError('unprocessable', `team does not exist [org_id ${orgId}, team_id 0, name: ${name}]`);
      return team;
    });
  }
}

export const userDoesNotExist = (name: string): ContractError =>
  new ContractError('unprocessable', `user does not exist [uid: 0, name: ${name}]`);

/** The actor a user would be when signed in with a password: for "what may this user do" questions. */
export function actorOf(account: AccountRef): Actor {
  return { id: account.id, login: account.login, isAdmin: account.isAdmin, scopes: null };
}
