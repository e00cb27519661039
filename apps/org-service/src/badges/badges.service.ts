import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  conflict,
  isValidBadgeSlug,
  notFound,
  pageOf,
  wholeOrPageOf,
  requireSiteAdmin,
  type Actor,
  type Badge,
  type ContractError,
  type CreateBadgeOption,
  type EditBadgeOption,
  type ListOptions,
  type Page,
  type UserBadgeOption,
} from '@gitforge/contracts';
import { Database, isUniqueViolation } from '@gitforge/platform';
import { UsersService } from '../users/users.service.js';
import type { BadgeEntity } from './badge.entity.js';
import { toBadge } from './badge.mapper.js';
import { BadgesRepository } from './badges.repository.js';

// Gitea's util.NewNotExistErrorf / NewAlreadyExistErrorf messages (models/user/badge.go), which its
// generic error mapping answers 404 and 409; its badge routes answer 500 for them.
const badgeNotFound = (slug: string): ContractError => notFound(`badge does not exist [slug: ${slug}]`);
const userBadgeExists = (userId: number, badgeId: number): ContractError =>
  conflict(`user badge already exists [user_id: ${userId}, badge_id: ${badgeId}]`);

/**
 * User badges: Gitea's `/admin/users/{username}/badges`, and gitforge's own `/admin/badges` for the
 * catalogue Gitea edits in its web UI only. Site administrators only.
 */
@Injectable()
export class BadgesService {
  constructor(
    private readonly db: Database,
    private readonly badges: BadgesRepository,
    private readonly users: UsersService,
  ) {}

  async list(actor: Actor | null, options: ListOptions): Promise<Page<Badge>> {
    requireSiteAdmin(actor);
    const [rows, total] = await this.badges.list(options);
    return pageOf(rows.map(toBadge), total, options);
  }

  /** A slug in use is a conflict (409). */
  async create(actor: Actor | null, body: CreateBadgeOption): Promise<Badge> {
    requireSiteAdmin(actor);
    const exists = (): ContractError => conflict(`badge already exists [slug: ${body.slug}]`);
    return this.db
      .transaction(async (m) => {
        if (await this.badges.findBySlug(body.slug, m)) throw exists();
        const row = await this.badges.insert(m, {
          slug: body.slug,
          description: body.description,
          imageUrl: body.image_url ?? '',
        });
        return toBadge(row);
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw exists();
        throw err;
      });
  }

  async edit(actor: Actor | null, slug: string, body: EditBadgeOption): Promise<Badge> {
    requireSiteAdmin(actor);
    return this.db.transaction(async (m) => {
      const badge = await this.requireBadge(slug, m);
      const changes: Partial<Pick<BadgeEntity, 'description' | 'imageUrl'>> = {};
      if (typeof body.description === 'string') changes.description = body.description;
      if (typeof body.image_url === 'string') changes.imageUrl = body.image_url;
      await this.badges.update(m, badge.id, changes);
      return toBadge({ ...badge, ...changes });
    });
  }

  /** Gitea's DeleteBadge: the users who had it lose it in the same transaction. */
  async delete(actor: Actor | null, slug: string): Promise<void> {
    requireSiteAdmin(actor);
    await this.db.transaction(async (m) => {
      const badge = await this.requireBadge(slug, m);
      await this.badges.delete(m, badge.id);
    });
  }

  /** Gitea's GetUserBadges: every badge, whole, with its count (no paging). */
  async listForUser(actor: Actor | null, username: string): Promise<Page<Badge>> {
    requireSiteAdmin(actor);
    const user = await this.users.requireInPath(actor, username);
    const rows = await this.badges.ofUser(user.id);
    return wholeOrPageOf(rows.map(toBadge), rows.length);
  }

  /**
   * Gitea's AddUserBadges: all or nothing, in one transaction; the first slug (in the order given)
   * that names no badge is 404, the first badge the user already has (or that is named twice) 409.
   */
  async addToUser(actor: Actor | null, username: string, body: UserBadgeOption): Promise<void> {
    requireSiteAdmin(actor);
    const user = await this.users.requireInPath(actor, username);
    const slugs = body.badge_slugs ?? [];
    if (slugs.length === 0) return;
    await this.db
      .transaction(async (m) => {
        const found = await this.bySlug(m, slugs);
        const held = await this.badges.heldBy(
          m,
          user.id,
          [...found.values()].map((b) => b.id),
        );
        const adding = new Set<number>();
        for (const slug of slugs) {
          const badge = found.get(slug);
          if (!badge) throw badgeNotFound(slug);
          if (held.has(badge.id) || adding.has(badge.id)) throw userBadgeExists(user.id, badge.id);
          adding.add(badge.id);
        }
        await this.badges.give(m, user.id, [...adding]);
      })
      .catch((err: unknown) => {
        // Another request gave one of these badges meanwhile (PostgreSQL): the unique index refused it.
        if (isUniqueViolation(err)) throw conflict(`user badge already exists [user_id: ${user.id}]`);
        throw err;
      });
  }

  /** Gitea's RemoveUserBadges: the badges named that the user has go; other slugs are ignored. */
  async removeFromUser(actor: Actor | null, username: string, body: UserBadgeOption): Promise<void> {
    requireSiteAdmin(actor);
    const user = await this.users.requireInPath(actor, username);
    const slugs = body.badge_slugs ?? [];
    if (slugs.length === 0) return;
    await this.db.transaction(async (m) => {
      const found = await this.bySlug(m, slugs);
      await this.badges.take(
        m,
        user.id,
        [...found.values()].map((b) => b.id),
      );
    });
  }

  /** The badges `slugs` name, by slug; a string no slug can be is looked up nowhere. */
  private async bySlug(m: EntityManager, slugs: string[]): Promise<Map<string, BadgeEntity>> {
    const rows = await this.badges.findBySlugs(m, [...new Set(slugs.filter(isValidBadgeSlug))]);
    return new Map(rows.map((b) => [b.slug, b]));
  }

  private async requireBadge(slug: string, m: EntityManager): Promise<BadgeEntity> {
    const badge = isValidBadgeSlug(slug) ? await this.badges.findBySlug(slug, m) : null;
    if (!badge) throw badgeNotFound(slug);
    return badge;
  }
}
