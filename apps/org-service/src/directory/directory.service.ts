import { Injectable } from '@nestjs/common';
import type { AccountRef, Actor, TeamRef } from '@gitforge/contracts';
import { PlatformConfig } from '@gitforge/platform';
import type { UserEntity } from '../users/user.entity.js';
import { toTeam } from '../teams/team.mapper.js';
import { toOrganization, toUser } from '../users/user.mapper.js';
import { hasOrgOrUserVisible } from '../users/visibility.js';
import { UsersRepository } from '../users/users.repository.js';
import { DirectoryRepository } from './directory.repository.js';

/** Lets other services turn names, ids and e-mails into accounts and teams, a list at a time. */
@Injectable()
export class DirectoryService {
  constructor(
    private readonly directory: DirectoryRepository,
    private readonly users: UsersRepository,
    private readonly config: PlatformConfig,
  ) {}

  private ref(actor: Actor | null, u: UserEntity): AccountRef {
    return {
      id: u.id,
      login: u.name,
      kind: u.isOrganization ? 'organization' : 'user',
      isAdmin: u.isAdmin,
      isActive: u.isActive && !u.prohibitLogin,
      email: u.email,
      user: toUser(u, actor, this.config.rootUrl),
    };
  }

  async accountsByNames(actor: Actor | null, names: string[]): Promise<AccountRef[]> {
    const rows = await this.directory.accountsByLowerNames([...new Set(names.map((n) => n.toLowerCase()))]);
    return rows.map((u) => this.ref(actor, u));
  }

  async accountsByIds(actor: Actor | null, ids: number[]): Promise<AccountRef[]> {
    const rows = await this.directory.accountsByIds([...new Set(ids)]);
    return rows.map((u) => this.ref(actor, u));
  }

  /**
   * The account an old login leads to since its rename, null when none does (or an account has
   * that login now), or when the actor may not see that account (Gitea's HasOrgOrUserVisible: a
   * private organization's new name is not told to outsiders).
   */
  async renamedAccount(actor: Actor | null, name: string): Promise<AccountRef | null> {
    if (await this.directory.accountsByLowerNames([name.toLowerCase()]).then((r) => r.length > 0)) return null;
    const account = await this.users.renamedTo(name);
    if (!account) return null;
    const [me] = actor ? await this.directory.accountsByIds([actor.id]) : [];
    const viewer = me ? { id: me.id, isAdmin: me.isAdmin, isRestricted: me.isRestricted } : null;
    const visible = await hasOrgOrUserVisible(account, viewer, async () => account.isOrganization && viewer !== null && this.directory.isOrgMember(account.id, viewer.id));
    return visible ? this.ref(actor, account) : null;
  }

  async usersByEmails(actor: Actor | null, emails: string[]): Promise<AccountRef[]> {
    const rows = await this.directory.usersByLowerEmails([...new Set(emails.map((e) => e.toLowerCase()))]);
    return rows.map((u) => this.ref(actor, u));
  }

  /** `withOrganization`: each team shows its organization (Gitea's ToTeam with loadOrg, as a pull's requested teams). */
  async teams(orgId: number, filter: { names?: string[]; ids?: number[]; withOrganization?: boolean }): Promise<TeamRef[]> {
    const [rows, org] = await Promise.all([
      this.directory.teams(orgId, {
        lowerNames: filter.names ? [...new Set(filter.names.map((n) => n.toLowerCase()))] : undefined,
        ids: filter.ids ? [...new Set(filter.ids)] : undefined,
      }),
      filter.withOrganization ? this.users.findById(orgId) : null,
    ]);
    const organization = org ? toOrganization(org, this.config.rootUrl) : null;
    return rows.map((t) => ({ id: t.id, orgId: t.orgId, name: t.name, team: toTeam(t, organization) }));
  }

  teamIdsOfUser(orgId: number, userId: number): Promise<number[]> {
    return this.directory.teamIdsOfUser(orgId, userId);
  }

  repoCreatorIds(orgId: number): Promise<number[]> {
    return this.directory.repoCreatorIds(orgId);
  }

  teamMemberIdsOfRepo(orgId: number, repoId: number): Promise<number[]> {
    return this.directory.teamMemberIdsOfRepo(orgId, repoId);
  }
}
