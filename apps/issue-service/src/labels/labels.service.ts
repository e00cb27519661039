import { Injectable } from '@nestjs/common';
import {
  labelTemplate,
  notFound,
  pageOf,
  unprocessable,
  type Actor,
  type CreateLabelOption,
  type EditLabelOption,
  type Label,
  type ListOptions,
  type Page,
  type RepoAccess,
  idFrom,
} from '@gitforge/contracts';
import { Database, PlatformConfig } from '@gitforge/platform';
import { OrgGate, requireOrgOwner, type OrgAccess } from '../access/org-gate.js';
import { RepoGate, requireActor } from '../access/repo-gate.js';
import { parseLabelColor } from './label-color.js';
import type { LabelEntity } from './label.entity.js';
import { repoLabelHome, toLabel, type LabelHome } from './label.mapper.js';
import { LabelsRepository, type LabelOwner } from './labels.repository.js';

/**
 * A label in a path: a number is an id (Go's ParseInt, sign allowed), anything else a name
 * (Gitea's getRepoLabelByIDOrName and getOrgLabelByIDOrName).
 */
export function labelKey(raw: string): { id: number } | { name: string } {
  return /^[+-]?\d+$/.test(raw) ? { id: idFrom(raw) } : { name: raw };
}

/** Where a label is managed: its owner, and how its `url` is written. */
interface LabelScope {
  owner: LabelOwner;
  home: LabelHome;
}

/** Repository and organization labels (Gitea's routers/api/v1/repo/label.go and org/label.go). */
@Injectable()
export class LabelsService {
  constructor(
    private readonly db: Database,
    private readonly gate: RepoGate,
    private readonly orgs: OrgGate,
    private readonly labels: LabelsRepository,
    private readonly config: PlatformConfig,
  ) {}

  /** `GET /repos/{o}/{r}/labels`: anyone who sees the repository. */
  async listForRepo(actor: Actor | null, owner: string, repo: string, options: ListOptions, sort?: string): Promise<Page<Label>> {
    return this.list(this.repoScope(await this.gate.assign(actor, owner, repo)), options, sort);
  }

  async getForRepo(actor: Actor | null, owner: string, repo: string, id: string): Promise<Label> {
    const scope = this.repoScope(await this.gate.assign(actor, owner, repo));
    return toLabel(await this.find(scope, id), scope.home);
  }

  /** `POST /repos/{o}/{r}/labels` (201): `is_archived` is honoured here. */
  async createForRepo(actor: Actor | null, owner: string, repo: string, body: CreateLabelOption): Promise<Label> {
    return this.create(await this.repoScopeForWrite(actor, owner, repo), body, body.is_archived === true);
  }

  async editForRepo(actor: Actor | null, owner: string, repo: string, id: string, body: EditLabelOption): Promise<Label> {
    const scope = await this.repoScopeForWrite(actor, owner, repo);
    return this.edit(scope, await this.find(scope, id), body);
  }

  /** 204 also for a label that is not there, as Gitea's DeleteLabel answers. */
  async deleteForRepo(actor: Actor | null, owner: string, repo: string, id: string): Promise<void> {
    await this.deleteIn(await this.repoScopeForWrite(actor, owner, repo), id);
  }

  /**
   * A new repository's labels from a template (CreateRepoOption's `issue_labels`; Gitea's
   * InitializeLabels), asked by repo-service once the repository exists. Names the repository
   * has already are left alone, so a repeated call adds nothing twice. Answers how many it added.
   */
  async initializeForRepo(repoId: number, template: string): Promise<number> {
    const labels = labelTemplate(template);
    if (!labels) throw unprocessable(`failed to load label template file "${template}": label template does not exist`);
    const owner = { repoId };
    return this.db.transaction(async (m) => {
      const taken = await this.labels.namesOwned(m, owner);
      const now = new Date();
      let added = 0;
      for (const l of labels) {
        if (taken.has(l.name)) continue;
        await this.labels.insert(m, owner, { name: l.name, color: parseLabelColor(l.color), description: l.description, exclusive: l.exclusive, archivedAt: null, createdAt: now, updatedAt: now });
        added++;
      }
      return added;
    });
  }

  /** `GET /orgs/{org}/labels`: anyone who may see the organization, signed in or not. */
  async listForOrg(actor: Actor | null, org: string, options: ListOptions, sort?: string): Promise<Page<Label>> {
    return this.list(this.orgScope(await this.orgs.assign(actor, org)), options, sort);
  }

  /** `GET /orgs/{org}/labels/{id}`: Gitea asks for a token here, unlike the list. */
  async getForOrg(actor: Actor | null, org: string, id: string): Promise<Label> {
    const access = await this.orgs.assign(actor, org);
    requireActor(actor);
    const scope = this.orgScope(access);
    return toLabel(await this.find(scope, id), scope.home);
  }

  /** `POST /orgs/{org}/labels` (201): Gitea creates organization labels unarchived whatever `is_archived` says. */
  async createForOrg(actor: Actor | null, org: string, body: CreateLabelOption): Promise<Label> {
    return this.create(await this.orgScopeForWrite(actor, org), body, false);
  }

  async editForOrg(actor: Actor | null, org: string, id: string, body: EditLabelOption): Promise<Label> {
    const scope = await this.orgScopeForWrite(actor, org);
    return this.edit(scope, await this.find(scope, id), body);
  }

  async deleteForOrg(actor: Actor | null, org: string, id: string): Promise<void> {
    await this.deleteIn(await this.orgScopeForWrite(actor, org), id);
  }

  private async deleteIn(scope: LabelScope, raw: string): Promise<void> {
    const label = await this.labels.findOwned(scope.owner, labelKey(raw));
    if (label) await this.delete(label);
  }

  private repoScope(repo: RepoAccess): LabelScope {
    return { owner: { repoId: repo.id }, home: repoLabelHome(this.config.rootUrl, repo) };
  }

  private orgScope(org: OrgAccess): LabelScope {
    return { owner: { orgId: org.id }, home: { rootUrl: this.config.rootUrl, orgLogin: org.login } };
  }

  /** Gitea's order: the repository (404), a token (401), writers of issues or pulls (403), then not archived (423). */
  private async repoScopeForWrite(actor: Actor | null, owner: string, repoName: string): Promise<LabelScope> {
    return this.repoScope(await this.gate.assignForManaging(actor, owner, repoName));
  }

  /** Gitea's order: the visible organization (404), a token (401), an owner (403). */
  private async orgScopeForWrite(actor: Actor | null, org: string): Promise<LabelScope> {
    const access = await this.orgs.assign(actor, org);
    requireActor(actor);
    requireOrgOwner(access);
    return this.orgScope(access);
  }

  private async list(scope: LabelScope, options: ListOptions, sort?: string): Promise<Page<Label>> {
    const [rows, total] = await this.labels.list(scope.owner, options, sort);
    return pageOf(
      rows.map((l) => toLabel(l, scope.home)),
      total,
      options,
    );
  }

  private async find(scope: LabelScope, raw: string): Promise<LabelEntity> {
    const label = await this.labels.findOwned(scope.owner, labelKey(raw));
    if (!label) throw notFound();
    return label;
  }

  private async create(scope: LabelScope, body: CreateLabelOption, archived: boolean): Promise<Label> {
    const color = parseLabelColor(body.color);
    const now = new Date();
    // Transactions answer plain values (a retried request gets its first answer back as JSON).
    const id = await this.db.transaction(async (m) => {
      const inserted = await this.labels.insert(m, scope.owner, {
        name: body.name,
        color,
        description: body.description ?? '',
        exclusive: body.exclusive === true,
        archivedAt: archived ? now : null,
        createdAt: now,
        updatedAt: now,
      });
      return inserted.id;
    });
    const [row] = await this.labels.findByIds([id]);
    return toLabel(row!, scope.home);
  }

  /** Present fields change; an absent `is_archived` un-archives the label, as Gitea reads it as false. */
  private async edit(scope: LabelScope, label: LabelEntity, body: EditLabelOption): Promise<Label> {
    const changes: Partial<LabelEntity> = { updatedAt: new Date() };
    if (body.name !== undefined) changes.name = body.name;
    if (body.exclusive !== undefined) changes.exclusive = body.exclusive;
    if (body.color !== undefined) changes.color = parseLabelColor(body.color);
    if (body.description !== undefined) changes.description = body.description;
    // An archived label keeps the time it was archived at.
    changes.archivedAt = body.is_archived === true ? (label.archivedAt ?? changes.updatedAt) : null;
    await this.db.transaction((m) => this.labels.update(m, label.id, changes));
    return toLabel({ ...label, ...changes }, scope.home);
  }

  private async delete(label: LabelEntity): Promise<void> {
    await this.db.transaction((m) => this.labels.delete(m, label.id));
  }
}
