import { Injectable } from '@nestjs/common';
import { notFound, pageOf, type Actor, type ListOptions, type Page, type User } from '@gitforge/contracts';
import { Database, PlatformConfig } from '@gitforge/platform';
import { requireActor } from '../auth/actor.js';
import type { UserEntity } from '../users/user.entity.js';
import { toUser } from '../users/user.mapper.js';
import { UsersRepository } from '../users/users.repository.js';
import { UsersService } from '../users/users.service.js';
import { FollowsRepository } from './follows.repository.js';

/** Followers and following (Gitea's routers/api/v1/user/follower.go). */
@Injectable()
export class FollowsService {
  constructor(
    private readonly db: Database,
    private readonly follows: FollowsRepository,
    private readonly users: UsersRepository,
    private readonly usersService: UsersService,
    private readonly config: PlatformConfig,
  ) {}

  /** The named account (any visibility, as Gitea's user assignment), or the actor itself. */
  private async subject(actor: Actor, username: string | undefined): Promise<UserEntity> {
    return username === undefined ? this.usersService.requireSelf(actor) : this.usersService.requireInPath(actor, username);
  }

  async list(actor: Actor | null, direction: 'followers' | 'following', username: string | undefined, options: ListOptions): Promise<Page<User>> {
    const a = requireActor(actor);
    const subject = await this.subject(a, username);
    const viewer = await this.usersService.viewerOf(a);
    const [rows, total] = await this.users.follows(direction, subject.id, viewer, options);
    return pageOf(
      rows.map((u) => toUser(u, a, this.config.rootUrl)),
      total,
      options,
    );
  }

  /** Resolves when `username` (or the actor) follows `target`; not_found otherwise. */
  async check(actor: Actor | null, username: string | undefined, target: string): Promise<void> {
    const a = requireActor(actor);
    const subject = await this.subject(a, username);
    // `/user/following/{target}` assigns the target from the path as Gitea's UserAssignmentAPI (an old login redirects); `/users/{u}/following/{target}` does not.
    const followed = username === undefined ? await this.usersService.requireInPath(a, target) : await this.usersService.requireByName(target);
    if (!(await this.users.isFollowing(subject.id, followed.id))) throw notFound();
  }

  /** Following oneself, or someone already followed, changes nothing (Gitea's FollowUser). */
  async follow(actor: Actor | null, username: string): Promise<void> {
    const a = requireActor(actor);
    const target = await this.usersService.requireInPath(a, username);
    if (target.id === a.id) return;
    await this.db.transaction(async (m) => {
      if (await this.users.isFollowing(a.id, target.id, m)) return;
      await this.follows.add(m, a.id, target.id);
    });
  }

  async unfollow(actor: Actor | null, username: string): Promise<void> {
    const a = requireActor(actor);
    const target = await this.usersService.requireInPath(a, username);
    await this.db.transaction((m) => this.follows.remove(m, a.id, target.id));
  }
}
