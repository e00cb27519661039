import { Injectable } from '@nestjs/common';
import {
  forbidden,
  invalid,
  notFound,
  type Actor,
  type CreateTagProtectionOption,
  type EditTagProtectionOption,
  type TagProtection,
  idFrom,
} from '@gitforge/contracts';
import { Database, DirectoryClient } from '@gitforge/platform';
import type { RepoContext } from '../access/repo-access.service.js';
import { ProtectionAccess } from './protection-access.js';
import { toTagProtection } from './protection.mapper.js';
import { ProtectionsRepository } from './protections.repository.js';
import type { TagProtectionEntity } from './tag-protection.entity.js';

/** Gitea's tag protection API (`routers/api/v1/repo/tag.go`). */
@Injectable()
export class TagProtectionsService {
  constructor(
    private readonly db: Database,
    private readonly protections: ProtectionsRepository,
    private readonly guard: ProtectionAccess,
    private readonly directory: DirectoryClient,
  ) {}

  private async toApi(actor: Actor, ctx: RepoContext, rows: TagProtectionEntity[]): Promise<TagProtection[]> {
    const lookup = await this.guard.names(actor, ctx, rows);
    return rows.map((r) => toTagProtection(r, lookup));
  }

  private async one(actor: Actor, ctx: RepoContext, id: number): Promise<TagProtection> {
    const row = await this.protections.tagProtection(ctx.repo.id, id);
    if (!row) throw notFound();
    return (await this.toApi(actor, ctx, [row]))[0]!;
  }

  async list(actor: Actor | null, owner: string, repo: string): Promise<TagProtection[]> {
    const { actor: a, ctx } = await this.guard.admin(actor, owner, repo);
    return this.toApi(a, ctx, await this.protections.tagProtections(ctx.repo.id));
  }

  async get(actor: Actor | null, owner: string, repo: string, rawId: string): Promise<TagProtection> {
    const { actor: a, ctx } = await this.guard.admin(actor, owner, repo);
    return this.one(a, ctx, parseId(rawId));
  }

  async create(actor: Actor | null, owner: string, repo: string, body: CreateTagProtectionOption): Promise<TagProtection> {
    const { actor: a, ctx } = await this.guard.admin(actor, owner, repo, { write: true });
    const namePattern = (body.name_pattern ?? '').trim();
    if (!namePattern) throw invalid('name_pattern are empty');
    if ((body.whitelist_usernames ?? []).length === 0 && (body.whitelist_teams ?? []).length === 0) {
      throw invalid('both whitelist_usernames and whitelist_teams are empty');
    }
    if (await this.protections.tagProtectionByPattern(ctx.repo.id, namePattern)) throw forbidden('Tag protection already exist');
    const users = await this.directory.requireUsers(a, body.whitelist_usernames ?? []);
    const teams = await this.guard.teamIds(ctx, body.whitelist_teams);
    const id = await this.db.transaction(async (m) => {
      if (await this.protections.tagProtectionByPattern(ctx.repo.id, namePattern, m)) throw forbidden('Tag protection already exist');
      const now = new Date();
      return this.protections.insertTagProtection(m, {
        repoId: ctx.repo.id,
        namePattern,
        allowlistUserIds: users.map((u) => u.id),
        allowlistTeamIds: teams,
        createdAt: now,
        updatedAt: now,
      });
    });
    return this.one(a, ctx, id);
  }

  async edit(actor: Actor | null, owner: string, repo: string, rawId: string, body: EditTagProtectionOption): Promise<TagProtection> {
    const { actor: a, ctx } = await this.guard.admin(actor, owner, repo, { write: true });
    const id = parseId(rawId);
    if (!(await this.protections.tagProtection(ctx.repo.id, id))) throw notFound();
    const changes: Partial<TagProtectionEntity> = { updatedAt: new Date() };
    if (body.name_pattern !== undefined) changes.namePattern = body.name_pattern;
    if (body.whitelist_teams !== undefined) changes.allowlistTeamIds = await this.guard.teamIds(ctx, body.whitelist_teams);
    if (body.whitelist_usernames !== undefined) {
      changes.allowlistUserIds = (await this.directory.requireUsers(a, body.whitelist_usernames)).map((u) => u.id);
    }
    await this.db.transaction(async (m) => {
      if (!(await this.protections.tagProtection(ctx.repo.id, id, m))) throw notFound();
      await this.protections.updateTagProtection(m, id, changes);
    });
    return this.one(a, ctx, id);
  }

  async delete(actor: Actor | null, owner: string, repo: string, rawId: string): Promise<void> {
    const { ctx } = await this.guard.admin(actor, owner, repo);
    const id = parseId(rawId);
    await this.db.transaction(async (m) => {
      if (!(await this.protections.tagProtection(ctx.repo.id, id, m))) throw notFound();
      await this.protections.deleteTagProtection(m, id);
    });
  }
}

/** Path ids as Gitea parses them: anything but a positive integer names no protection. */
function parseId(raw: string): number {
  const id = idFrom(raw);
  if (!id) throw notFound();
  return id;
}
