import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  ContractError,
  forbidden,
  notFound,
  type Actor,
  type IssueLabelsOption,
  type Label,
  type RepoAccess,
  idFrom,
} from '@gitforge/contracts';
import { Database, PlatformConfig } from '@gitforge/platform';
import { canWriteIssuesOrPulls } from '../access/repo-gate.js';
import { CommentType } from '../comments/comment-type.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import { IssueEvents } from '../issues/issue-events.js';
import { IssueLoader } from '../issues/issue-loader.js';
import { IssuesRepository } from '../issues/issues.repository.js';
import { IssuesService, type IssueContext } from '../issues/issues.service.js';
import { addKeepingScopes, keepOnePerScope } from './label-scope.js';
import type { LabelEntity } from './label.entity.js';
import { LabelResolver } from './label-resolver.js';
import { repoLabelHome, toLabel } from './label.mapper.js';
import { LabelsRepository } from './labels.repository.js';

/** A label id in a path as Go's ParseInt reads it; anything else is 0, which names no label. */
function labelId(raw: string): number {
  return idFrom(raw);
}

/** Gitea's removals refuse with a bare 403 (ctx.Status): no body. */
const bareForbidden = (): ContractError => ContractError.empty('permission_denied', 'user should have permission to change the labels');

/** The labels of one issue (Gitea's routers/api/v1/repo/issue_label.go). */
@Injectable()
export class IssueLabelsService {
  constructor(
    private readonly db: Database,
    private readonly issuesService: IssuesService,
    private readonly issues: IssuesRepository,
    private readonly labels: LabelsRepository,
    private readonly loader: IssueLoader,
    private readonly events: IssueEvents,
    private readonly config: PlatformConfig,
    private readonly resolver: LabelResolver,
    private readonly comments: CommentsRepository,
  ) {}

  /** `GET …/issues/{index}/labels`: by name. */
  async list(actor: Actor | null, owner: string, repo: string, index: string): Promise<Label[]> {
    const { repo: access, issue } = await this.issuesService.issueFor(actor, owner, repo, index);
    return this.toLabels(access, await this.current(issue.id));
  }

  /**
   * `POST …/issues/{index}/labels` (200): adds labels one at a time, each new exclusive one
   * taking the place of the issue's other labels of its scope; answers the issue's labels.
   */
  async add(actor: Actor | null, owner: string, repo: string, index: string, body: IssueLabelsOption): Promise<Label[]> {
    const ctx = await this.writable(actor, owner, repo, index, forbidden('write permission is required'));
    const wanted = await this.resolver.resolve(ctx.repo, body.labels);
    return this.apply(ctx, (current) => addKeepingScopes(current, wanted), 'label_updated');
  }

  /** `PUT …/issues/{index}/labels` (200): the given labels, one per exclusive scope, replace the issue's. */
  async replace(actor: Actor | null, owner: string, repo: string, index: string, body: IssueLabelsOption): Promise<Label[]> {
    const ctx = await this.writable(actor, owner, repo, index, forbidden('write permission is required'));
    const wanted = await this.resolver.resolve(ctx.repo, body.labels);
    return this.apply(ctx, () => keepOnePerScope(wanted), 'label_updated');
  }

  /**
   * `DELETE …/issues/{index}/labels/{id}` (204): a label of the repository, or of its organization
   * (Gitea's GetLabelInRepoOrOrgByID), else its 404.
   */
  async remove(actor: Actor | null, owner: string, repo: string, index: string, rawId: string): Promise<void> {
    const ctx = await this.writable(actor, owner, repo, index, bareForbidden());
    const id = labelId(rawId);
    const [label] = id > 0 ? await this.labels.findByIds([id]) : [];
    const inOrg = ctx.repo.ownerKind === 'organization';
    if (!label || (label.repoId !== ctx.repo.id && !(inOrg && label.orgId === ctx.repo.ownerId))) {
      throw notFound(inOrg ? `label does not exist [label_id: ${id}, org_id: ${ctx.repo.ownerId}]` : `label does not exist [label_id: ${id}, repo_id: ${ctx.repo.id}]`);
    }
    await this.apply(ctx, (current) => current.filter((l) => l.id !== label.id), 'label_updated');
  }

  /** `DELETE …/issues/{index}/labels` (204). */
  async clear(actor: Actor | null, owner: string, repo: string, index: string): Promise<void> {
    const ctx = await this.writable(actor, owner, repo, index, bareForbidden());
    await this.apply(ctx, () => [], 'label_cleared');
  }

  /** The issue if the actor may change its labels: writers of its unit (Gitea's CanWriteIssuesOrPulls). */
  private async writable(actor: Actor | null, owner: string, repo: string, index: string, denied: ContractError): Promise<IssueContext & { actor: Actor }> {
    const ctx = await this.issuesService.issueForWrite(actor, owner, repo, index);
    if (!canWriteIssuesOrPulls(ctx.repo, ctx.issue.isPull)) throw denied;
    return ctx;
  }

  private async current(issueId: number, m?: EntityManager): Promise<LabelEntity[]> {
    return (await this.labels.labelsOfIssues([issueId], m)).get(issueId) ?? [];
  }

  /**
   * Makes `decide(current)` the issue's labels, deciding on the labels as they are under the
   * issue's row lock, so concurrent changes take turns. A change bumps the issue's `updated_at`
   * and writes `issue.labeled` in the same transaction; no change writes nothing. Answers the
   * labels after.
   */
  private async apply(
    ctx: IssueContext & { actor: Actor },
    decide: (current: LabelEntity[]) => LabelEntity[],
    action: 'label_updated' | 'label_cleared',
  ): Promise<Label[]> {
    const { repo, issue, actor } = ctx;
    const sender = (await this.loader.users([actor.id])).get(actor.id)!;
    await this.db.transaction(async (m) => {
      if (!(await this.issues.lock(m, issue.id))) throw notFound();
      const current = await this.current(issue.id, m);
      const next = decide(current);
      const added = next.filter((l) => !current.some((c) => c.id === l.id));
      const removed = current.filter((c) => !next.some((l) => l.id === c.id));
      if (added.length === 0 && removed.length === 0) return;
      await this.labels.removeFromIssue(m, issue.id, removed.map((l) => l.id));
      await this.labels.addToIssue(m, issue.id, added.map((l) => l.id));
      const now = new Date();
      await this.issues.update(m, issue.id, { updatedAt: now });
      // One history row per label, as Gitea: content "1" for an added one, empty for a removed one.
      for (const [label, content] of [...removed.map((l) => [l, ''] as const), ...added.map((l) => [l, '1'] as const)]) {
        await this.comments.addEvent(m, { issueId: issue.id, posterId: actor.id, type: CommentType.label, at: now, content, refs: { labelId: label.id } });
      }
      const row = (await this.issues.findById(issue.id, m))!;
      const api = await this.loader.one(row, repo, { m, known: [sender] });
      const changes = action === 'label_updated' ? { changes: { added_labels: this.toLabels(repo, added), removed_labels: this.toLabels(repo, removed) } } : {};
      await this.events.issue(m, 'issue.labeled', { actor, action, issue: api, repo, sender, ...changes });
    });
    return this.toLabels(repo, await this.current(issue.id));
  }

  private toLabels(repo: RepoAccess, labels: LabelEntity[]): Label[] {
    const home = repoLabelHome(this.config.rootUrl, repo);
    return labels.map((l) => toLabel(l, home));
  }
}
