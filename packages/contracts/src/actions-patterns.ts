import { definePatterns } from './patterns.js';

/**
 * Gitea Actions (actions-service): runners and their registration tokens, workflow runs, jobs
 * and tasks, variables and secrets. Params carry an ActionsScope (`scope`) plus the resource's key.
 */
export const ActionsPatterns = definePatterns('actions', {
  runnersList: 'actions.runners.list',
  runnerGet: 'actions.runners.get',
  runnerEdit: 'actions.runners.edit',
  runnerDelete: 'actions.runners.delete',
  /** `GET|POST …/runners/registration-token`: the scope's current token (a new one when asked to reset). */
  registrationToken: 'actions.runners.registrationToken',
  runsList: 'actions.runs.list',
  runGet: 'actions.runs.get',
  runDelete: 'actions.runs.delete',
  runJobs: 'actions.runs.jobs',
  runCancel: 'actions.runs.cancel',
  runRerun: 'actions.runs.rerun',
  jobsList: 'actions.jobs.list',
  jobGet: 'actions.jobs.get',
  /** A job's log as plain text (`{ text }`). */
  jobLogs: 'actions.jobs.logs',
  tasksList: 'actions.tasks.list',
  dispatch: 'actions.workflows.dispatch',
  /** The workflow files of the default branch (`…/actions/workflows`), one of them, and turning one off or on. */
  workflowsList: 'actions.workflows.list',
  workflowGet: 'actions.workflows.get',
  workflowDisable: 'actions.workflows.disable',
  workflowEnable: 'actions.workflows.enable',
  variablesList: 'actions.variables.list',
  variableGet: 'actions.variables.get',
  variableCreate: 'actions.variables.create',
  variableUpdate: 'actions.variables.update',
  variableDelete: 'actions.variables.delete',
  secretsList: 'actions.secrets.list',
  secretPut: 'actions.secrets.put',
  secretDelete: 'actions.secrets.delete',
});

/** The runner protocol (runner.v1), forwarded by the gateway's connect handlers. */
export const RunnerProtocolPatterns = definePatterns('actions', {
  register: 'actions.runner.register',
  declare: 'actions.runner.declare',
  fetchTask: 'actions.runner.fetchTask',
  updateTask: 'actions.runner.updateTask',
  updateLog: 'actions.runner.updateLog',
  /** body `{ token }` → ActionsTaskGrant of the running task with that token, or null (org-service's authentication asks it). */
  taskByToken: 'actions.runner.taskByToken',
});

/**
 * Gitea's actions cron tasks, each a plain request with no actor; the scheduler of the admin work
 * calls them (`{ body: {} }`) and records what they answer (`{ affected }`).
 */
export const ActionsCronPatterns = definePatterns('actions', {
  stopZombieTasks: 'actions.cron.stopZombieTasks',
  stopEndlessTasks: 'actions.cron.stopEndlessTasks',
  cancelAbandonedJobs: 'actions.cron.cancelAbandonedJobs',
  startScheduleTasks: 'actions.cron.startScheduleTasks',
  cleanupActions: 'actions.cron.cleanup',
});

/** repo-service's side of actions: git reads at a pushed commit. */
export const RepoActionsPatterns = definePatterns('repo', {
  /** body WorkflowFilesRequest → WorkflowFiles. */
  workflowFiles: 'repos.actions.workflowFiles',
});
