import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  ActionsPatterns,
  CreateActionWorkflowDispatch,
  CreateOrUpdateSecretOption,
  CreateVariableOption,
  EditActionRunnerOption,
  formBool,
  UpdateVariableOption,
  type Actor,
  type ActionRunner,
  type ActionRunnersResponse,
  type ActionSecret,
  type ActionsScope,
  type ActionTask,
  type ActionVariable,
  type ActionWorkflow,
  type ActionWorkflowJob,
  type ActionWorkflowResponse,
  type ActionWorkflowRun,
  type Page,
  type RegistrationToken,
  type RunDetails,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

type ListQuery = Record<string, unknown>;

/** One call shape for every actions route: where (scope), which resource, body and query. */
class ActionsCalls {
  constructor(private readonly rpc: RpcClient) {}

  call<R>(pattern: string, actor: Actor | null, scope: ActionsScope, extra: { id?: string; name?: string; body?: unknown; query?: ListQuery } = {}): Promise<R> {
    return this.rpc.call<R, object, unknown, ListQuery>(pattern, {
      actor,
      params: { scope, id: extra.id, name: extra.name },
      body: extra.body,
      query: extra.query ?? {},
    });
  }
}

/** Runners and registration tokens, the same at every level (Gitea's shared/runners.go). */
abstract class RunnerRoutes {
  protected readonly calls: ActionsCalls;

  constructor(rpc: RpcClient) {
    this.calls = new ActionsCalls(rpc);
  }

  protected abstract scope(params: Record<string, string>): ActionsScope;

  /** Runner lists carry their total in the body and set no paging headers (Gitea's). */
  @Get('runners')
  runners(@CurrentActor() actor: Actor, @Param() p: Record<string, string>, @Query() query: ListQuery): Promise<ActionRunnersResponse> {
    return this.calls.call(ActionsPatterns.runnersList, actor, this.scope(p), { query });
  }

  @Post('runners/registration-token')
  @HttpCode(200)
  createToken(@CurrentActor() actor: Actor, @Param() p: Record<string, string>): Promise<RegistrationToken> {
    return this.calls.call(ActionsPatterns.registrationToken, actor, this.scope(p));
  }

  /** Gitea ≤ 1.25's GET form of the same token. */
  @Get('runners/registration-token')
  getToken(@CurrentActor() actor: Actor, @Param() p: Record<string, string>): Promise<RegistrationToken> {
    return this.calls.call(ActionsPatterns.registrationToken, actor, this.scope(p));
  }

  @Get('runners/:runner_id')
  runner(@CurrentActor() actor: Actor, @Param() p: Record<string, string>): Promise<ActionRunner> {
    return this.calls.call(ActionsPatterns.runnerGet, actor, this.scope(p), { id: p.runner_id });
  }

  @Patch('runners/:runner_id')
  editRunner(@CurrentActor() actor: Actor, @Param() p: Record<string, string>, @Body() body: EditActionRunnerOption): Promise<ActionRunner> {
    return this.calls.call(ActionsPatterns.runnerEdit, actor, this.scope(p), { id: p.runner_id, body });
  }

  @Delete('runners/:runner_id')
  @HttpCode(204)
  async deleteRunner(@CurrentActor() actor: Actor, @Param() p: Record<string, string>): Promise<void> {
    await this.calls.call(ActionsPatterns.runnerDelete, actor, this.scope(p), { id: p.runner_id });
  }

  @Get('runs')
  @Paginated({ envelope: 'workflow_runs' })
  runs(@CurrentActor() actor: Actor, @Param() p: Record<string, string>, @Query() query: ListQuery): Promise<Page<ActionWorkflowRun>> {
    return this.calls.call(ActionsPatterns.runsList, actor, this.scope(p), { query });
  }

  @Get('jobs')
  @Paginated({ envelope: 'jobs' })
  jobs(@CurrentActor() actor: Actor, @Param() p: Record<string, string>, @Query() query: ListQuery): Promise<Page<ActionWorkflowJob>> {
    return this.calls.call(ActionsPatterns.jobsList, actor, this.scope(p), { query });
  }
}

/** Variables and secrets of an organization, a user or a repository. */
abstract class VariableRoutes extends RunnerRoutes {
  @Get('variables')
  @Paginated()
  variables(@CurrentActor() actor: Actor, @Param() p: Record<string, string>, @Query() query: ListQuery): Promise<Page<ActionVariable>> {
    return this.calls.call(ActionsPatterns.variablesList, actor, this.scope(p), { query });
  }

  @Get('variables/:variablename')
  variable(@CurrentActor() actor: Actor, @Param() p: Record<string, string>): Promise<ActionVariable> {
    return this.calls.call(ActionsPatterns.variableGet, actor, this.scope(p), { name: p.variablename });
  }

  @Post('variables/:variablename')
  @HttpCode(201)
  async createVariable(@CurrentActor() actor: Actor, @Param() p: Record<string, string>, @Body() body: CreateVariableOption): Promise<void> {
    await this.calls.call(ActionsPatterns.variableCreate, actor, this.scope(p), { name: p.variablename, body });
  }

  @Put('variables/:variablename')
  @HttpCode(204)
  async updateVariable(@CurrentActor() actor: Actor, @Param() p: Record<string, string>, @Body() body: UpdateVariableOption): Promise<void> {
    await this.calls.call(ActionsPatterns.variableUpdate, actor, this.scope(p), { name: p.variablename, body });
  }

  @Delete('variables/:variablename')
  @HttpCode(204)
  async deleteVariable(@CurrentActor() actor: Actor, @Param() p: Record<string, string>): Promise<void> {
    await this.calls.call(ActionsPatterns.variableDelete, actor, this.scope(p), { name: p.variablename });
  }

  @Get('secrets')
  @Paginated()
  secrets(@CurrentActor() actor: Actor, @Param() p: Record<string, string>, @Query() query: ListQuery): Promise<Page<ActionSecret>> {
    return this.calls.call(ActionsPatterns.secretsList, actor, this.scope(p), { query });
  }

  /** 201 when the secret is new, 204 when it replaced one. */
  @Put('secrets/:secretname')
  async putSecret(
    @CurrentActor() actor: Actor,
    @Param() p: Record<string, string>,
    @Body() body: CreateOrUpdateSecretOption,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const { created } = await this.calls.call<{ created: boolean }>(ActionsPatterns.secretPut, actor, this.scope(p), { name: p.secretname, body });
    void reply.code(created ? 201 : 204);
  }

  @Delete('secrets/:secretname')
  @HttpCode(204)
  async deleteSecret(@CurrentActor() actor: Actor, @Param() p: Record<string, string>): Promise<void> {
    await this.calls.call(ActionsPatterns.secretDelete, actor, this.scope(p), { name: p.secretname });
  }
}

/** `/admin/actions`: the instance's runners, every job and run (site administrators). */
@Controller('api/v1/admin/actions')
@Access({ signIn: true, admin: true, scope: 'admin' })
export class AdminActionsController extends RunnerRoutes {
  constructor(rpc: RpcClient) {
    super(rpc);
  }

  protected scope(): ActionsScope {
    return { kind: 'admin' };
  }
}

/** `/orgs/{org}/actions`: an organization's runners, runs, jobs, variables and secrets (its owners). */
@Controller('api/v1/orgs/:org/actions')
@Access({ signIn: true, scope: 'organization', orgOwner: true })
export class OrgActionsController extends VariableRoutes {
  constructor(rpc: RpcClient) {
    super(rpc);
  }

  protected scope(p: Record<string, string>): ActionsScope {
    return { kind: 'org', org: p.org! };
  }
}

/** `/user/actions`: the signed-in user's runners, runs, jobs, variables and secrets. */
@Controller('api/v1/user/actions')
@Access({ signIn: true, scope: 'user', rejectPublicOnly: true })
export class UserActionsController extends VariableRoutes {
  constructor(rpc: RpcClient) {
    super(rpc);
  }

  protected scope(): ActionsScope {
    return { kind: 'user' };
  }
}

/**
 * `/repos/{owner}/{repo}/actions`: runs, jobs and tasks (readers of the actions unit), cancel,
 * rerun and dispatch (writers), runners, variables and secrets (repository administrators).
 */
@Controller('api/v1/repos/:owner/:repo/actions')
// Runners, variables and secrets are Gitea's reqOwner routes.
@Access({ scope: 'repository', repoRight: 'owner' })
export class RepoActionsController extends VariableRoutes {
  constructor(rpc: RpcClient) {
    super(rpc);
  }

  protected scope(p: Record<string, string>): ActionsScope {
    return { kind: 'repo', owner: p.owner!, repo: p.repo! };
  }

  @Get('tasks')
  @Paginated({ envelope: 'workflow_runs' })
  tasks(@CurrentActor() actor: Actor | null, @Param() p: Record<string, string>, @Query() query: ListQuery): Promise<Page<ActionTask>> {
    return this.calls.call(ActionsPatterns.tasksList, actor, this.scope(p), { query });
  }

  @Get('runs/:run')
  run(@CurrentActor() actor: Actor | null, @Param() p: Record<string, string>): Promise<ActionWorkflowRun> {
    return this.calls.call(ActionsPatterns.runGet, actor, this.scope(p), { id: p.run });
  }

  @Delete('runs/:run')
  @HttpCode(204)
  @Access({ signIn: true, repoRight: { write: ['repo.actions'] } })
  async deleteRun(@CurrentActor() actor: Actor, @Param() p: Record<string, string>): Promise<void> {
    await this.calls.call(ActionsPatterns.runDelete, actor, this.scope(p), { id: p.run });
  }

  @Get('runs/:run/jobs')
  @Paginated({ envelope: 'jobs' })
  runJobs(@CurrentActor() actor: Actor | null, @Param() p: Record<string, string>, @Query() query: ListQuery): Promise<Page<ActionWorkflowJob>> {
    return this.calls.call(ActionsPatterns.runJobs, actor, this.scope(p), { id: p.run, query });
  }

  /** GitHub's cancel of a run (Gitea's web UI action): unfinished jobs become cancelled. */
  @Post('runs/:run/cancel')
  @HttpCode(202)
  @Access({ signIn: true, repoRight: { write: ['repo.actions'] } })
  async cancel(@CurrentActor() actor: Actor, @Param() p: Record<string, string>): Promise<void> {
    await this.calls.call(ActionsPatterns.runCancel, actor, this.scope(p), { id: p.run });
  }

  @Post('runs/:run/rerun')
  @HttpCode(201)
  @Access({ signIn: true, repoRight: { write: ['repo.actions'] } })
  rerun(@CurrentActor() actor: Actor, @Param() p: Record<string, string>): Promise<ActionWorkflowRun> {
    return this.calls.call(ActionsPatterns.runRerun, actor, this.scope(p), { id: p.run });
  }

  @Get('jobs/:job_id')
  job(@CurrentActor() actor: Actor | null, @Param() p: Record<string, string>): Promise<ActionWorkflowJob> {
    return this.calls.call(ActionsPatterns.jobGet, actor, this.scope(p), { id: p.job_id });
  }

  @Get('jobs/:job_id/logs')
  async jobLogs(@CurrentActor() actor: Actor | null, @Param() p: Record<string, string>, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { text } = await this.calls.call<{ text: string }>(ActionsPatterns.jobLogs, actor, this.scope(p), { id: p.job_id });
    void reply.type('text/plain; charset=utf-8');
    return text;
  }

  @Get('workflows')
  @Access({ signIn: true })
  workflows(@CurrentActor() actor: Actor, @Param() p: Record<string, string>): Promise<ActionWorkflowResponse> {
    return this.calls.call(ActionsPatterns.workflowsList, actor, this.scope(p));
  }

  @Get('workflows/:workflow_id')
  @Access({ signIn: true })
  workflow(@CurrentActor() actor: Actor, @Param() p: Record<string, string>): Promise<ActionWorkflow> {
    return this.calls.call(ActionsPatterns.workflowGet, actor, this.scope(p), { name: p.workflow_id });
  }

  @Put('workflows/:workflow_id/disable')
  @HttpCode(204)
  @Access({ signIn: true, repoRight: { write: ['repo.actions'] } })
  async disableWorkflow(@CurrentActor() actor: Actor, @Param() p: Record<string, string>): Promise<void> {
    await this.calls.call(ActionsPatterns.workflowDisable, actor, this.scope(p), { name: p.workflow_id });
  }

  @Put('workflows/:workflow_id/enable')
  @HttpCode(204)
  @Access({ signIn: true, repoRight: { write: ['repo.actions'] } })
  async enableWorkflow(@CurrentActor() actor: Actor, @Param() p: Record<string, string>): Promise<void> {
    await this.calls.call(ActionsPatterns.workflowEnable, actor, this.scope(p), { name: p.workflow_id });
  }

  @Get('workflows/:workflow_id/runs')
  @Paginated({ envelope: 'workflow_runs' })
  workflowRuns(@CurrentActor() actor: Actor | null, @Param() p: Record<string, string>, @Query() query: ListQuery): Promise<Page<ActionWorkflowRun>> {
    return this.calls.call(ActionsPatterns.runsList, actor, this.scope(p), { name: p.workflow_id, query });
  }

  /** 204, or with `return_run_details` the run it started (200), as Gitea answers. */
  @Post('workflows/:workflow_id/dispatches')
  @Access({ signIn: true, repoRight: { write: ['repo.actions'] } })
  async dispatch(
    @CurrentActor() actor: Actor,
    @Param() p: Record<string, string>,
    @Body() body: CreateActionWorkflowDispatch,
    @Query('return_run_details') details: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RunDetails | undefined> {
    const run = await this.calls.call<RunDetails>(ActionsPatterns.dispatch, actor, this.scope(p), { name: p.workflow_id, body });
    const wanted = formBool(details);
    void reply.code(wanted ? 200 : 204);
    return wanted ? run : undefined;
  }
}
