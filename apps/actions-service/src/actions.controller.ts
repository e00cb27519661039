import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ActionsCronPatterns,
  ActionsPatterns,
  normalizeListOptions,
  RunnerProtocolPatterns,
  type ActionRunner,
  type ActionsTaskGrant,
  type ActionRunnersResponse,
  type ActionSecret,
  type ActionsScope,
  type ActionTask,
  type ActionVariable,
  type ActionWorkflow,
  type ActionWorkflowJob,
  type ActionWorkflowResponse,
  type ActionWorkflowRun,
  type CreateActionWorkflowDispatch,
  type CreateOrUpdateSecretOption,
  type CreateVariableOption,
  type EditActionRunnerOption,
  type Page,
  type RegistrationToken,
  type RpcRequest,
  type RunDetails,
  type RunnerCredentials,
  type RunnerFetchAnswer,
  type RunnerLogRow,
  type RunnerMessage,
  type RunnerTaskState,
  type RunnerUpdateTaskAnswer,
  type UpdateVariableOption,
} from '@gitforge/contracts';
import { ActionsCronService } from './cron/actions-cron.service.js';
import { RunnersService } from './runners/runners.service.js';
import { RunsApiService, type JobsQuery, type RunsQuery } from './runs/runs-api.service.js';
import { TasksService } from './tasks/tasks.service.js';
import { VariablesService } from './variables/variables.service.js';
import { WorkflowsService } from './runs/workflows.service.js';

/** Params of every actions API pattern: where, and which resource. */
export interface ActionsParams {
  scope: ActionsScope;
  id?: string;
  name?: string;
}

type Req<B = undefined, Q = Record<string, unknown>> = RpcRequest<ActionsParams, B, Q>;

@Controller()
export class ActionsController {
  constructor(
    private readonly runners: RunnersService,
    private readonly runs: RunsApiService,
    private readonly variables: VariablesService,
    private readonly workflows: WorkflowsService,
  ) {}

  @MessagePattern(ActionsPatterns.runnersList)
  runnersList(@Payload() req: Req<undefined, { disabled?: unknown; page?: unknown; limit?: unknown }>): Promise<ActionRunnersResponse> {
    return this.runners.list(req.actor, req.params.scope, req.query, normalizeListOptions(req.query));
  }

  @MessagePattern(ActionsPatterns.runnerGet)
  runnerGet(@Payload() req: Req): Promise<ActionRunner> {
    return this.runners.get(req.actor, req.params.scope, req.params.id);
  }

  @MessagePattern(ActionsPatterns.runnerEdit)
  runnerEdit(@Payload() req: Req<EditActionRunnerOption>): Promise<ActionRunner> {
    return this.runners.edit(req.actor, req.params.scope, req.params.id, req.body);
  }

  @MessagePattern(ActionsPatterns.runnerDelete)
  runnerDelete(@Payload() req: Req): Promise<void> {
    return this.runners.delete(req.actor, req.params.scope, req.params.id);
  }

  @MessagePattern(ActionsPatterns.registrationToken)
  registrationToken(@Payload() req: Req): Promise<RegistrationToken> {
    return this.runners.registrationToken(req.actor, req.params.scope);
  }

  @MessagePattern(ActionsPatterns.runsList)
  runsList(@Payload() req: Req<undefined, RunsQuery & { page?: unknown; limit?: unknown }>): Promise<Page<ActionWorkflowRun>> {
    return this.runs.listRuns(req.actor, req.params.scope, req.query, normalizeListOptions(req.query), req.params.name);
  }

  @MessagePattern(ActionsPatterns.runGet)
  runGet(@Payload() req: Req): Promise<ActionWorkflowRun> {
    return this.runs.getRun(req.actor, req.params.scope, req.params.id);
  }

  @MessagePattern(ActionsPatterns.runDelete)
  runDelete(@Payload() req: Req): Promise<void> {
    return this.runs.deleteRun(req.actor, req.params.scope, req.params.id);
  }

  @MessagePattern(ActionsPatterns.runJobs)
  runJobs(@Payload() req: Req<undefined, JobsQuery & { page?: unknown; limit?: unknown }>): Promise<Page<ActionWorkflowJob>> {
    return this.runs.listJobs(req.actor, req.params.scope, req.query, normalizeListOptions(req.query), req.params.id ?? '');
  }

  @MessagePattern(ActionsPatterns.runCancel)
  runCancel(@Payload() req: Req): Promise<void> {
    return this.runs.cancel(req.actor, req.params.scope, req.params.id);
  }

  @MessagePattern(ActionsPatterns.runRerun)
  runRerun(@Payload() req: Req): Promise<ActionWorkflowRun> {
    return this.runs.rerun(req.actor, req.params.scope, req.params.id);
  }

  @MessagePattern(ActionsPatterns.jobsList)
  jobsList(@Payload() req: Req<undefined, JobsQuery & { page?: unknown; limit?: unknown }>): Promise<Page<ActionWorkflowJob>> {
    return this.runs.listJobs(req.actor, req.params.scope, req.query, normalizeListOptions(req.query));
  }

  @MessagePattern(ActionsPatterns.jobGet)
  jobGet(@Payload() req: Req): Promise<ActionWorkflowJob> {
    return this.runs.getJob(req.actor, req.params.scope, req.params.id);
  }

  @MessagePattern(ActionsPatterns.jobLogs)
  jobLogs(@Payload() req: Req): Promise<{ text: string }> {
    return this.runs.jobLogs(req.actor, req.params.scope, req.params.id);
  }

  @MessagePattern(ActionsPatterns.tasksList)
  tasksList(@Payload() req: Req<undefined, { page?: unknown; limit?: unknown }>): Promise<Page<ActionTask>> {
    return this.runs.listTasks(req.actor, req.params.scope, normalizeListOptions(req.query));
  }

  @MessagePattern(ActionsPatterns.dispatch)
  dispatch(@Payload() req: Req<CreateActionWorkflowDispatch>): Promise<RunDetails> {
    return this.runs.dispatch(req.actor, req.params.scope, req.params.name, req.body);
  }

  @MessagePattern(ActionsPatterns.workflowsList)
  workflowsList(@Payload() req: Req): Promise<ActionWorkflowResponse> {
    return this.workflows.list(req.actor, req.params.scope);
  }

  @MessagePattern(ActionsPatterns.workflowGet)
  workflowGet(@Payload() req: Req): Promise<ActionWorkflow> {
    return this.workflows.get(req.actor, req.params.scope, req.params.name);
  }

  @MessagePattern(ActionsPatterns.workflowDisable)
  workflowDisable(@Payload() req: Req): Promise<void> {
    return this.workflows.setEnabled(req.actor, req.params.scope, req.params.name, false);
  }

  @MessagePattern(ActionsPatterns.workflowEnable)
  workflowEnable(@Payload() req: Req): Promise<void> {
    return this.workflows.setEnabled(req.actor, req.params.scope, req.params.name, true);
  }

  @MessagePattern(ActionsPatterns.variablesList)
  variablesList(@Payload() req: Req<undefined, { page?: unknown; limit?: unknown }>): Promise<Page<ActionVariable>> {
    return this.variables.listVariables(req.actor, req.params.scope, normalizeListOptions(req.query));
  }

  @MessagePattern(ActionsPatterns.variableGet)
  variableGet(@Payload() req: Req): Promise<ActionVariable> {
    return this.variables.getVariable(req.actor, req.params.scope, req.params.name);
  }

  @MessagePattern(ActionsPatterns.variableCreate)
  variableCreate(@Payload() req: Req<CreateVariableOption>): Promise<void> {
    return this.variables.createVariable(req.actor, req.params.scope, req.params.name, req.body);
  }

  @MessagePattern(ActionsPatterns.variableUpdate)
  variableUpdate(@Payload() req: Req<UpdateVariableOption>): Promise<void> {
    return this.variables.updateVariable(req.actor, req.params.scope, req.params.name, req.body);
  }

  @MessagePattern(ActionsPatterns.variableDelete)
  variableDelete(@Payload() req: Req): Promise<void> {
    return this.variables.deleteVariable(req.actor, req.params.scope, req.params.name);
  }

  @MessagePattern(ActionsPatterns.secretsList)
  secretsList(@Payload() req: Req<undefined, { page?: unknown; limit?: unknown }>): Promise<Page<ActionSecret>> {
    return this.variables.listSecrets(req.actor, req.params.scope, normalizeListOptions(req.query));
  }

  @MessagePattern(ActionsPatterns.secretPut)
  secretPut(@Payload() req: Req<CreateOrUpdateSecretOption>): Promise<{ created: boolean }> {
    return this.variables.putSecret(req.actor, req.params.scope, req.params.name, req.body);
  }

  @MessagePattern(ActionsPatterns.secretDelete)
  secretDelete(@Payload() req: Req): Promise<void> {
    return this.variables.deleteSecret(req.actor, req.params.scope, req.params.name);
  }
}

/** The runner protocol as the gateway forwards it; credentials are the runner's headers. */
type RunnerReq<B> = RpcRequest<Record<string, string>, B & { runner?: RunnerCredentials }>;

@Controller()
export class RunnerProtocolController {
  constructor(
    private readonly runners: RunnersService,
    private readonly tasks: TasksService,
  ) {}

  @MessagePattern(RunnerProtocolPatterns.register)
  register(@Payload() req: RunnerReq<{ name: string; token: string; version: string; labels: string[]; ephemeral: boolean }>): Promise<RunnerMessage> {
    return this.runners.register(req.body);
  }

  @MessagePattern(RunnerProtocolPatterns.declare)
  declare(@Payload() req: RunnerReq<{ version: string; labels: string[] }>): Promise<RunnerMessage> {
    return this.runners.declare(req.body.runner ?? { uuid: '', token: '' }, req.body);
  }

  @MessagePattern(RunnerProtocolPatterns.fetchTask)
  fetchTask(@Payload() req: RunnerReq<{ tasksVersion: number }>): Promise<RunnerFetchAnswer> {
    return this.tasks.fetch(req.body.runner ?? { uuid: '', token: '' }, req.body.tasksVersion);
  }

  @MessagePattern(RunnerProtocolPatterns.updateTask)
  updateTask(@Payload() req: RunnerReq<{ state: RunnerTaskState; outputs: Record<string, string> }>): Promise<RunnerUpdateTaskAnswer> {
    return this.tasks.update(req.body.runner ?? { uuid: '', token: '' }, req.body.state, req.body.outputs);
  }

  /** org-service's authentication: the running task a token belongs to, if any. */
  @MessagePattern(RunnerProtocolPatterns.taskByToken)
  taskByToken(@Payload() req: RpcRequest<Record<string, string>, { token: string }>): Promise<ActionsTaskGrant | null> {
    return this.tasks.grantOfToken(typeof req.body?.token === 'string' ? req.body.token : '');
  }

  @MessagePattern(RunnerProtocolPatterns.updateLog)
  updateLog(@Payload() req: RunnerReq<{ taskId: number; index: number; rows: RunnerLogRow[]; noMore: boolean }>): Promise<number> {
    return this.tasks.log(req.body.runner ?? { uuid: '', token: '' }, req.body.taskId, req.body.index, req.body.rows, req.body.noMore);
  }
}

/** The actions cron tasks, for the admin scheduler (no actor: the scheduler is gitforge itself). */
@Controller()
export class ActionsCronController {
  constructor(private readonly cron: ActionsCronService) {}

  @MessagePattern(ActionsCronPatterns.stopZombieTasks)
  stopZombieTasks(): Promise<{ affected: number }> {
    return this.cron.stopZombieTasks();
  }

  @MessagePattern(ActionsCronPatterns.stopEndlessTasks)
  stopEndlessTasks(): Promise<{ affected: number }> {
    return this.cron.stopEndlessTasks();
  }

  @MessagePattern(ActionsCronPatterns.cancelAbandonedJobs)
  cancelAbandonedJobs(): Promise<{ affected: number }> {
    return this.cron.cancelAbandonedJobs();
  }

  @MessagePattern(ActionsCronPatterns.startScheduleTasks)
  startScheduleTasks(): Promise<{ affected: number }> {
    return this.cron.startScheduleTasks();
  }

  @MessagePattern(ActionsCronPatterns.cleanupActions)
  cleanupActions(): Promise<{ affected: number }> {
    return this.cron.cleanup();
  }
}
