import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  AccessMode,
  ActionsUser,
  ContractError,
  EventNames,
  forbidden,
  isActingUserId,
  formatTime,
  notFound,
  pageOf,
  type Actor,
  type CombinedStatus,
  type CommitStatus,
  type ActionsCommitStatus,
  type CreateStatusOption,
  type ListOptions,
  type Page,
} from '@gitforge/contracts';
import { Database, DirectoryClient, OutboxService, PlatformConfig } from '@gitforge/platform';
import { RepoAccessService, type RepoContext } from '../access/repo-access.service.js';
import { RepoPermission } from '../access/repo-permission.js';
import { codeReader, repoView, type RepoView } from '../contents/repo-view.js';
import { HookCommitReader } from '../facts/hook-commit.reader.js';
import { isLikelyCommitId, Refs } from '../git/refs.js';
import { toRepository } from '../repos/repo.mapper.js';
import type { CommitStatusEntity } from './commit-status.entity.js';
import { toCombinedStatus, toCommitStatus } from './status.mapper.js';
import { StatusesRepository } from './statuses.repository.js';

/** A ref in `/commits/{ref}/status(es)`: a branch, a tag, or a commit id of at least 7 characters. */
const MIN_REF_SHA = 7;

/** Commit statuses: report one, list a commit's, and the combined state per context. */
/** How statuses group by context (Gitea's HashCommitStatusContext). */
const contextHashOf = (context: string): string => createHash('sha1').update(context).digest('hex');

@Injectable()
export class StatusesService {
  constructor(
    private readonly db: Database,
    private readonly access: RepoAccessService,
    private readonly refs: Refs,
    private readonly statuses: StatusesRepository,
    private readonly directory: DirectoryClient,
    private readonly config: PlatformConfig,
    private readonly outbox: OutboxService,
    private readonly commits: HookCommitReader,
  ) {}

  async create(actor: Actor | null, owner: string, repo: string, sha: string, body: CreateStatusOption): Promise<CommitStatus> {
    const ctx = await this.access.assign(actor, owner, repo);
    if (!ctx.permission.canRead('repo.code')) throw forbidden('user should have specific read permission or be a repo admin or a site admin');
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    if (!ctx.permission.canWrite('repo.code')) throw forbidden('user should have a permission to write to a repo');
    return this.write(ctx, actor, sha, body);
  }

  /**
   * A job's status from actions-service, written as the Actions user whoever triggered the run
   * (Gitea's createCommitStatus), so a run its own token started reports too. The run was
   * allowed when it was triggered: the Actions user writes on the job's repository alone.
   */
  async createForActions(request: ActionsCommitStatus): Promise<CommitStatus | null> {
    const actor: Actor = {
      id: ActionsUser.id,
      login: ActionsUser.login,
      isAdmin: false,
      scopes: null,
      actionsTask: { taskId: 0, repoId: request.repoId, readOnly: false },
    };
    const ctx = await this.access.contextById(actor, request.repoId).catch(() => null);
    if (!ctx) return null;
    // Relative, as Gitea's run link; the status webhook makes it absolute.
    const target_url = `/${ctx.owner.owner.login}/${ctx.repo.name}/actions/runs/${request.runId}/jobs/${request.jobId}`;
    const { state, description, context } = request;
    // Gitea's createCommitStatus for a job: nothing new when the context's latest status already
    // says this. The engine reports every job of a run when one changes; without this a matrix of
    // N combinations wrote N statuses (and N webhooks) per finished task.
    const latest = await this.statuses.latestOfContext(request.repoId, request.sha, contextHashOf(context));
    if (latest && latest.state === state && latest.description === description && latest.targetUrl === target_url) {
      return (await this.toApi(repoView(ctx, this.config), [latest]))[0]!;
    }
    return this.write(ctx, actor, request.sha, { state, description, context, target_url });
  }

  private async write(ctx: RepoContext, actor: Actor, sha: string, body: CreateStatusOption): Promise<CommitStatus> {
    const view = repoView(ctx, this.config);
    const commit = await this.refs.anyCommit(view.repoId, sha);
    if (!commit) throw notFound(`commit doesn't exist: ${sha}`);
    const context = body.context ?? '';
    // What the status webhook shows, read before the transaction (Gitea's CreateCommitStatus
    // notifier): the commit as a push shows it, the repository with owner rights, the reporter
    // as anyone sees them (ToUser without a viewer: no e-mail, no private fields).
    const repository = toRepository(ctx.repo, ctx.owner.ownerUser, new RepoPermission(AccessMode.owner), this.config);
    const [payloadCommit, sender] = await Promise.all([
      this.commits.payloadCommit(actor, view.repoId, commit.sha, repository.html_url),
      this.directory.publicUser(actor.id),
    ]);
    if (!payloadCommit) throw notFound(`commit doesn't exist: ${sha}`);
    const id = await this.db.transaction(async (m) => {
      const now = new Date();
      const targetUrl = body.target_url ?? '';
      const row = await this.statuses.insert(m, {
        repoId: view.repoId,
        idx: await this.statuses.nextIndex(m, view.repoId, commit.sha),
        sha: commit.sha,
        state: body.state,
        targetUrl,
        description: body.description ?? '',
        context,
        contextHash: contextHashOf(context),
        creatorId: actor.id,
        createdAt: now,
        updatedAt: now,
      });
      await this.outbox.add(
        m,
        EventNames.statusCreated,
        {
          id: row.id,
          sha: commit.sha,
          state: body.state,
          context,
          description: body.description ?? '',
          // A webhook's receiver cannot resolve a path: Gitea makes a relative target absolute.
          target_url: targetUrl.startsWith('/') ? this.config.rootUrl.replace(/\/$/, '') + targetUrl : targetUrl,
          created_at: formatTime(now),
          updated_at: formatTime(now),
          commit: payloadCommit,
          repository,
          sender,
        },
        { actor, repoId: view.repoId },
      );
      return row.id;
    });
    const saved = (await this.statuses.findById(id))!;
    return (await this.toApi(view, [saved]))[0]!;
  }

  /** `/statuses/{sha}`: the statuses stored for that commit id (a branch or tag name is resolved). */
  async list(actor: Actor | null, owner: string, repo: string, sha: string, filter: { sort?: string; state?: string }, options: ListOptions): Promise<Page<CommitStatus>> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    const full = isLikelyCommitId(sha, view.objectFormat) ? sha : (await this.refs.anyCommit(view.repoId, sha))?.sha;
    if (!full) return pageOf([], 0, options);
    return this.page(view, full, filter, options);
  }

  /** `/commits/{ref}/statuses`. */
  async listByRef(actor: Actor | null, owner: string, repo: string, ref: string, filter: { sort?: string; state?: string }, options: ListOptions): Promise<Page<CommitStatus>> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    return this.page(view, await this.refSha(view, ref), filter, options);
  }

  /** `/commits/{ref}/status`: the latest status per context and Gitea's combined state. */
  async combined(actor: Actor | null, owner: string, repo: string, ref: string, options: ListOptions): Promise<Page<CombinedStatus>> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    const sha = await this.refSha(view, ref);
    const [rows, total] = await this.statuses.latestPerContext(view.repoId, sha, options);
    const repository = toRepository(view.ctx.repo, view.ctx.owner.ownerUser, view.ctx.permission, this.config);
    return pageOf([toCombinedStatus(sha, await this.toApi(view, rows), repository)], total, options);
  }

  private async refSha(view: RepoView, ref: string): Promise<string> {
    const resolved = await this.refs.resolve(view.repoId, ref, view.objectFormat, MIN_REF_SHA);
    if (!resolved) throw notFound(`object does not exist [id: ${ref}, rel_path: ]`);
    return resolved.commit.sha;
  }

  private async page(view: RepoView, sha: string, filter: { sort?: string; state?: string }, options: ListOptions): Promise<Page<CommitStatus>> {
    const [rows, total] = await this.statuses.list(view.repoId, sha, filter, options);
    return pageOf(await this.toApi(view, rows), total, options);
  }

  /** Creators as anyone sees them (Gitea's ToUser without a viewer), one lookup per page. */
  private async toApi(view: RepoView, rows: CommitStatusEntity[]): Promise<CommitStatus[]> {
    const users = await this.directory.usersByIds(null, [...new Set(rows.map((r) => r.creatorId).filter(isActingUserId))]);
    return rows.map((r) => toCommitStatus(r, view.urls, users.find((u) => u.id === r.creatorId) ?? null));
  }
}
