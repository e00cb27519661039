import { basename, dirname } from 'node:path';
import { Injectable } from '@nestjs/common';
import { escapePathSegments, notFound, pathEscape, queryEscape, ZERO_TIME, type Actor, type ActionsScope, type ActionWorkflow, type ActionWorkflowResponse } from '@gitforge/contracts';
import { Database, isUniqueViolation } from '@gitforge/platform';
import { ActionWorkflowDisabledEntity } from '../entities.js';
import { ScopeService, type ActionsNeed, type ResolvedScope } from '../scope.service.js';
import { RunEngine } from './run-engine.service.js';
import { workflowName } from './workflow.js';

/**
 * Gitea's workflows API (`/repos/{o}/{r}/actions/workflows`): the workflow files of the default
 * branch, and turning one off or on. A workflow turned off starts no runs, whatever the event
 * (RunEngine.trigger), and cannot be dispatched.
 */
@Injectable()
export class WorkflowsService {
  constructor(
    private readonly db: Database,
    private readonly scopes: ScopeService,
    private readonly engine: RunEngine,
  ) {}

  async list(actor: Actor | null, scope: ActionsScope): Promise<ActionWorkflowResponse> {
    const { workflows } = await this.read(actor, scope, 'read');
    return { workflows, total_count: workflows.length };
  }

  async get(actor: Actor | null, scope: ActionsScope, workflowId: string | undefined): Promise<ActionWorkflow> {
    const { workflows } = await this.read(actor, scope, 'read');
    return this.find(workflows, workflowId);
  }

  /** `PUT …/disable` and `…/enable` (Gitea's EnableOrDisableWorkflow): the workflow must be on the default branch. */
  async setEnabled(actor: Actor | null, scope: ActionsScope, workflowId: string | undefined, enabled: boolean): Promise<void> {
    const { s, workflows } = await this.read(actor, scope, 'write');
    const workflow = this.find(workflows, workflowId);
    if (enabled) {
      await this.db.manager.delete(ActionWorkflowDisabledEntity, { repoId: s.repoId, workflowId: workflow.id });
      return;
    }
    await this.db.manager.insert(ActionWorkflowDisabledEntity, { repoId: s.repoId, workflowId: workflow.id, createdAt: new Date() }).catch((err: unknown) => {
      // Turned off already (or by a parallel call): nothing to do, as in Gitea.
      if (!isUniqueViolation(err)) throw err;
    });
  }

  private find(workflows: ActionWorkflow[], workflowId: string | undefined): ActionWorkflow {
    const found = workflows.find((w) => w.id === workflowId);
    if (!found) throw notFound(`workflow ${JSON.stringify(workflowId ?? '')} not found`);
    return found;
  }

  /** The workflows of the repository's default branch as Gitea's ListActionWorkflows shows them. */
  private async read(actor: Actor | null, scope: ActionsScope, need: ActionsNeed): Promise<{ s: ResolvedScope; workflows: ActionWorkflow[] }> {
    const s = await this.scopes.resolve(actor, scope, need);
    const repo = s.repo;
    if (s.kind !== 'repo' || !repo) throw notFound();
    const branch = repo.repository.default_branch;
    const [files, disabled] = await Promise.all([this.engine.workflowFiles({ repoId: s.repoId, ref: `refs/heads/${branch}` }), this.engine.disabledWorkflows(s.repoId)]);
    const { html_url: html, url: api } = repo.repository;
    // Gitea dates a workflow by the default branch's head commit, for want of the file's own history.
    const when = files.authoredAt ?? ZERO_TIME;
    const workflows = files.files.map((file): ActionWorkflow => {
      const id = basename(file.path);
      return {
        id,
        name: workflowName(file.content, id),
        path: file.path,
        state: disabled.has(id) ? 'disabled_manually' : 'active',
        created_at: when,
        updated_at: when,
        url: `${api}/actions/workflows/${pathEscape(id)}`,
        html_url: `${html}/src/branch/${escapePathSegments(branch)}/${escapePathSegments(dirname(file.path))}/${pathEscape(id)}`,
        badge_url: `${html}/actions/workflows/${pathEscape(id)}/badge.svg?branch=${queryEscape(branch)}`,
      };
    });
    return { s, workflows };
  }
}
