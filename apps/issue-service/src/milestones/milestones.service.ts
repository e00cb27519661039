import { Injectable } from '@nestjs/common';
import {
  notFound,
  pageOf,
  type Actor,
  type CreateMilestoneOption,
  type EditMilestoneOption,
  type ListOptions,
  type Milestone,
  type Page,
  type RepoAccess,
  idFrom,
} from '@gitforge/contracts';
import { Database } from '@gitforge/platform';
import { RepoGate } from '../access/repo-gate.js';
import type { MilestoneEntity } from './milestone.entity.js';
import { toMilestone } from './milestone.mapper.js';
import { MilestonesRepository } from './milestones.repository.js';

/** Query parameters of `GET /repos/{o}/{r}/milestones`. */
export interface MilestoneListQuery {
  state?: string;
  name?: string;
}

/**
 * A number in a milestone path; 0 when it is not one, which makes Gitea look the parameter up as
 * a title. (Gitea's ParseInt also reads 0x/0o/0b prefixes; only decimal ids are read here.)
 */
export function milestoneIdOf(raw: string): number {
  return idFrom(raw);
}

/** Repository milestones (Gitea's routers/api/v1/repo/milestone.go); issue counts are counted, never stored. */
@Injectable()
export class MilestonesService {
  constructor(
    private readonly db: Database,
    private readonly gate: RepoGate,
    private readonly milestones: MilestonesRepository,
  ) {}

  /** `GET /repos/{o}/{r}/milestones`: open ones unless `state` is `closed` or `all`; `name` matches part of the title. */
  async list(actor: Actor | null, owner: string, repoName: string, query: MilestoneListQuery, options: ListOptions): Promise<Page<Milestone>> {
    const repo = await this.gate.assign(actor, owner, repoName);
    const isClosed = query.state === 'all' ? undefined : query.state === 'closed';
    const [rows, total] = await this.milestones.list(repo.id, { isClosed, name: query.name }, options);
    return pageOf(await this.toApi(rows), total, options);
  }

  async get(actor: Actor | null, owner: string, repoName: string, id: string): Promise<Milestone> {
    const repo = await this.gate.assign(actor, owner, repoName);
    const [milestone] = await this.toApi([await this.find(repo, id)]);
    return milestone!;
  }

  /** `POST /repos/{o}/{r}/milestones` (201): created closed (with `closed_at`) when `state` says so. */
  async create(actor: Actor | null, owner: string, repoName: string, body: CreateMilestoneOption): Promise<Milestone> {
    const repo = await this.repoForWrite(actor, owner, repoName);
    const now = new Date();
    const closed = body.state === 'closed';
    // Transactions answer plain values (a retried request gets its first answer back as JSON).
    const id = await this.db.transaction(async (m) => {
      const inserted = await this.milestones.insert(m, {
        repoId: repo.id,
        name: body.title ?? '',
        content: body.description ?? '',
        deadline: body.due_on ? new Date(body.due_on) : null,
        isClosed: closed,
        closedAt: closed ? now : null,
        createdAt: now,
        updatedAt: now,
      });
      return inserted.id;
    });
    return toMilestone((await this.milestones.findInRepo(repo.id, id))!, { open: 0, closed: 0 });
  }

  /**
   * `PATCH /repos/{o}/{r}/milestones/{id}`: an empty title and an absent due date are left alone;
   * closing stamps `closed_at`.
   */
  async edit(actor: Actor | null, owner: string, repoName: string, id: string, body: EditMilestoneOption): Promise<Milestone> {
    const repo = await this.repoForWrite(actor, owner, repoName);
    const milestone = await this.find(repo, id);
    const changes: Partial<MilestoneEntity> = { updatedAt: new Date() };
    if (body.title) changes.name = body.title;
    if (body.description !== undefined) changes.content = body.description;
    if (body.due_on) changes.deadline = new Date(body.due_on);
    // A null state is no state (Gitea's *string): only a given one opens or closes.
    if (body.state !== undefined && body.state !== null) {
      changes.isClosed = body.state === 'closed';
      if (changes.isClosed && !milestone.isClosed) changes.closedAt = changes.updatedAt;
    }
    await this.db.transaction((m) => this.milestones.update(m, milestone.id, changes));
    const [api] = await this.toApi([{ ...milestone, ...changes }]);
    return api!;
  }

  /** `DELETE /repos/{o}/{r}/milestones/{id}` (204): its issues keep going without one. */
  async delete(actor: Actor | null, owner: string, repoName: string, id: string): Promise<void> {
    const repo = await this.repoForWrite(actor, owner, repoName);
    const milestone = await this.find(repo, id);
    await this.db.transaction((m) => this.milestones.delete(m, milestone.id));
  }

  /** Gitea's order: the repository (404), a token (401), writers of issues or pulls (403), then not archived (423). */
  private async repoForWrite(actor: Actor | null, owner: string, repoName: string): Promise<RepoAccess> {
    return this.gate.assignForManaging(actor, owner, repoName);
  }

  /** Gitea's getMilestoneByIDOrName: the id first, then the exact title. */
  private async find(repo: RepoAccess, raw: string): Promise<MilestoneEntity> {
    const id = milestoneIdOf(raw);
    const byId = id !== 0 ? await this.milestones.findInRepo(repo.id, id) : null;
    const milestone = byId ?? (await this.milestones.findByName(repo.id, raw));
    if (!milestone) throw notFound();
    return milestone;
  }

  private async toApi(rows: MilestoneEntity[]): Promise<Milestone[]> {
    const counts = await this.milestones.counts(rows.map((r) => r.id));
    return rows.map((r) => toMilestone(r, counts.get(r.id)!));
  }
}
