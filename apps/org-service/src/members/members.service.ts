import { Injectable } from '@nestjs/common';
import {
  forbidden,
  notFound,
  pageOf,
  unprocessable,
  type Actor,
  type ListOptions,
  type MemberCheck,
  type Page,
  type User,
} from '@gitforge/contracts';
import { Database, PlatformConfig } from '@gitforge/platform';
import { requireActor } from '../auth/actor.js';
import { OrgsRepository } from '../orgs/orgs.repository.js';
import { OrgsService } from '../orgs/orgs.service.js';
import type { UserEntity } from '../users/user.entity.js';
import { toUser } from '../users/user.mapper.js';
import { UsersService } from '../users/users.service.js';

/** Organization members and public members (Gitea's routers/api/v1/org/member.go). */
@Injectable()
export class MembersService {
  constructor(
    private readonly db: Database,
    private readonly orgs: OrgsRepository,
    private readonly orgsService: OrgsService,
    private readonly usersService: UsersService,
    private readonly config: PlatformConfig,
  ) {}

  /** Gitea checks the organization's visibility (404) before asking for a token. */
  private async visibleOrg(actor: Actor | null, org: string, requireSignIn: boolean): Promise<UserEntity> {
    const entity = await this.orgsService.requireVisibleOrg(actor, org);
    if (requireSignIn) requireActor(actor);
    return entity;
  }

  /** `GET /orgs/{org}/members`: every member for members and site admins, public members for others. */
  async list(actor: Actor | null, org: string, options: ListOptions): Promise<Page<User>> {
    const entity = await this.visibleOrg(actor, org, true);
    const viewer = await this.usersService.viewerOf(actor);
    const seesAll = viewer !== null && (viewer.isAdmin || (await this.orgs.isMember(entity.id, viewer.id)));
    return this.page(actor, entity.id, !seesAll, options);
  }

  /**
   * `GET /orgs/{org}/public_members`. Gitea's FindOrgMembers shows site admins every member here
   * too (its public-only test is "not a member and not an admin"); kept for compatibility.
   */
  async listPublic(actor: Actor | null, org: string, options: ListOptions): Promise<Page<User>> {
    const entity = await this.visibleOrg(actor, org, false);
    const viewer = await this.usersService.viewerOf(actor);
    return this.page(actor, entity.id, !viewer?.isAdmin, options);
  }

  private async page(actor: Actor | null, orgId: number, publicOnly: boolean, options: ListOptions): Promise<Page<User>> {
    const [rows, total] = await this.orgs.listMembers(orgId, publicOnly, options);
    return pageOf(
      rows.map((u) => toUser(u, actor, this.config.rootUrl)),
      total,
      options,
    );
  }

  /**
   * `GET /orgs/{org}/members/{username}`: members and site admins learn the answer (204 or 404);
   * others are sent to the public member check (303), except when asking about themselves (404).
   */
  async check(actor: Actor | null, org: string, username: string): Promise<MemberCheck> {
    const entity = await this.visibleOrg(actor, org, true);
    const user = await this.usersService.requireByName(username);
    const viewer = (await this.usersService.viewerOf(actor))!;
    if (viewer.isAdmin || (await this.orgs.isMember(entity.id, viewer.id))) {
      if (await this.orgs.isMember(entity.id, user.id)) return { redirect: null };
      throw notFound();
    }
    if (viewer.id === user.id) throw notFound();
    const prefix = new URL(this.config.rootUrl).pathname.replace(/\/+$/, '');
    return { redirect: `${prefix}/api/v1/orgs/${encodeURIComponent(entity.name)}/public_members/${encodeURIComponent(user.name)}` };
  }

  async checkPublic(actor: Actor | null, org: string, username: string): Promise<void> {
    const entity = await this.visibleOrg(actor, org, false);
    const user = await this.usersService.requireByName(username);
    if (!(await this.orgs.isPublicMember(entity.id, user.id))) throw notFound();
  }

  /**
   * `PUT`/`DELETE /orgs/{org}/public_members/{username}`: members change their own membership,
   * the organization's owners and site admins anyone's (Gitea's checkCanChangeOrgUserStatus).
   */
  async setPublic(actor: Actor | null, org: string, username: string, isPublic: boolean): Promise<void> {
    const entity = await this.visibleOrg(actor, org, true);
    const a = await this.orgsService.requireMember(actor, entity);
    const user = await this.usersService.requireByName(username);
    if (user.id !== a.id && !a.isAdmin && !(await this.orgsService.isOwner(entity.id, a.id))) throw forbidden('Cannot change member visibility');
    await this.db.transaction((m) => this.orgs.setPublic(m, entity.id, user.id, isPublic));
  }

  /** `DELETE /orgs/{org}/members/{username}` for owners: the user leaves the organization and all its teams. */
  async remove(actor: Actor | null, org: string, username: string): Promise<void> {
    const entity = await this.visibleOrg(actor, org, true);
    await this.orgsService.requireOwner(actor, entity);
    const user = await this.usersService.requireByName(username);
    await this.db.transaction(async (m) => {
      if (!(await this.orgs.isMember(entity.id, user.id, m))) return;
      await this.refuseLastOwner(entity.id, user.id);
      await this.orgs.removeMember(m, entity.id, user.id);
    });
  }

  /** Gitea's ErrLastOrgOwner: an organization keeps at least one owner. */
  async refuseLastOwner(orgId: number, userId: number): Promise<void> {
    if (await this.orgs.isLastOwner(orgId, userId)) throw unprocessable(`user is the last member of owner team [uid: ${userId}]`);
  }
}
