import { compileGlob, parseYamlDocument } from '@gitforge/contracts';
import { parseDocument, stringify } from 'yaml';
import { escapeExpressions, hasExpression, interpolate } from './expression.js';
import { matrixCombinations, matrixNameSuffix, sortCombinations, type MatrixValues } from './matrix.js';
import { WorkflowError } from './workflow-error.js';

/**
 * A job as the run needs it: its key, display name, runs-on labels, needs, step names and payload.
 * A matrix job is one of these per combination, all with the job's key.
 */
/**
 * Most jobs one run may have, matrix combinations included: each matrix keeps GitHub's 256
 * (MAX_MATRIX_COMBINATIONS), and Gitea sets no limit on a run, but a workflow file of many large
 * matrices must not make hundreds of thousands of jobs.
 */
export const MAX_RUN_JOBS = 1024;

export interface WorkflowJob {
  jobId: string;
  name: string;
  /** The labels a runner needs, with the combination's values in place of `${{ matrix.* }}`. */
  runsOn: string[];
  /** This combination's matrix values; null for a job without a matrix. */
  matrix: MatrixValues | null;
  needs: string[];
  /** The job's `if:` as written: with one, a job whose needs did not all succeed goes to act_runner to judge. */
  condition: string;
  stepNames: string[];
  /** The workflow act_runner receives for this job: top-level settings and this one job (its matrix pinned to one combination). */
  payload: string;
}

export interface ParsedWorkflow {
  name: string;
  /** Event name → its filter map (empty when the event has no filters). */
  on: Map<string, Record<string, unknown>>;
  jobs: WorkflowJob[];
}

export { WorkflowError };

/** What a trigger brings to the `on:` filters. */
export interface TriggerFacts {
  event: string;
  /** Full ref name: `refs/heads/main`, `refs/tags/v1`. */
  ref: string;
  /** Paths the push changed; null when unknown (paths filters then pass, as Gitea does without a diff). */
  changedPaths: string[] | null;
  /** pull_request: the activity (`opened`, `synchronize`, `reopened`), matched against `types`. */
  action?: string;
}

/** The pull_request activities a workflow without `types` takes (GitHub's default). */
const DEFAULT_PULL_TYPES = ['opened', 'synchronize', 'reopened'];

const stringList = (value: unknown, what: string): string[] => {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.map(String);
  throw new WorkflowError(`${what} must be a string or a list of strings`);
};

/**
 * Parses a workflow file (`on:`, `jobs.*.runs-on`, `needs`, step names) with the yaml library.
 * Throws WorkflowError with a readable reason for anything act_runner could not run.
 */
export function parseWorkflow(content: string, fileName: string): ParsedWorkflow {
  const doc = parseYamlDocument(content);
  if (doc.errors.length > 0) throw new WorkflowError(`invalid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  let root: unknown;
  try {
    root = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    // The library refuses an unresolved alias or an alias bomb only here, with its own errors.
    throw new WorkflowError(`invalid YAML: ${(err as Error).message}`);
  }
  if (!root || typeof root !== 'object' || Array.isArray(root)) throw new WorkflowError('a workflow must be a mapping');
  const wf = root as Record<string, unknown>;
  const name = typeof wf.name === 'string' && wf.name !== '' ? wf.name : fileName;
  const on = parseOn(wf.on);
  try {
    return { name, on, jobs: parseJobs(wf) };
  } catch (err) {
    if (err instanceof WorkflowError) err.on = on;
    throw err;
  }
}

function parseJobs(wf: Record<string, unknown>): WorkflowJob[] {
  const jobsValue = wf.jobs;
  if (!jobsValue || typeof jobsValue !== 'object' || Array.isArray(jobsValue)) throw new WorkflowError('`jobs` must be a mapping of jobs');
  const jobsMap = jobsValue as Record<string, unknown>;
  const keys = Object.keys(jobsMap);
  if (keys.length === 0) throw new WorkflowError('the workflow has no jobs');
  const jobs: WorkflowJob[] = [];
  const needsOf = new Map<string, string[]>();
  let runJobs = 0;
  for (const key of keys) {
    const raw = jobsMap[key];
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new WorkflowError(`job ${key} must be a mapping`);
    const job = raw as Record<string, unknown>;
    const runsOn = runsOnLabels(job['runs-on'], key);
    const needs = stringList(job.needs, `jobs.${key}.needs`);
    for (const need of needs) {
      if (!(need in jobsMap)) throw new WorkflowError(`job ${key} needs unknown job ${need}`);
    }
    needsOf.set(key, needs);
    const steps = job.steps === undefined ? [] : job.steps;
    if (!Array.isArray(steps)) throw new WorkflowError(`jobs.${key}.steps must be a list`);
    const stepNames = steps.map((s: unknown, i: number) => stepName(s, i));
    const written = typeof job.name === 'string' ? job.name : '';
    const base = { jobId: key, needs, condition: job.if === undefined || job.if === null ? '' : String(job.if), stepNames };
    const combos = matrixCombinations(job.strategy, key);
    runJobs += combos?.length ?? 1;
    // Judged before the jobs are made: many matrix jobs of 256 each must not make a run of hundreds of thousands.
    if (runJobs > MAX_RUN_JOBS) throw new WorkflowError(`the workflow has more than ${MAX_RUN_JOBS} jobs, matrix combinations included`);
    if (!combos) {
      jobs.push({ ...base, name: written !== '' ? written : key, runsOn, matrix: null, payload: stringify({ ...wf, jobs: { [key]: job } }) });
      continue;
    }
    // Gitea's jobparser: one job per combination, its matrix pinned so act runs just that one.
    for (const matrix of sortCombinations(combos)) {
      const name = matrixJobName(written, key, matrix);
      const labels = runsOn.map((label) => interpolate(label, matrix));
      const pinned: Record<string, unknown> = { ...job, name: escapeExpressions(name) };
      if ('runs-on' in job) pinned['runs-on'] = labels.length === 1 ? escapeExpressions(labels[0]!) : labels.map(escapeExpressions);
      pinned.strategy = { ...(job.strategy as Record<string, unknown>), matrix: Object.fromEntries(Object.entries(matrix).map(([k, v]) => [k, [v]])) };
      jobs.push({ ...base, name, runsOn: labels, matrix, payload: stringify({ ...wf, jobs: { [key]: pinned } }) });
    }
  }
  assertAcyclic(needsOf);
  return jobs;
}

/**
 * A matrix job's display name as Gitea gives it: a name with an expression is evaluated against the
 * combination; a plain one (or the job's key) gets the combination's values as a suffix.
 */
function matrixJobName(written: string, key: string, matrix: MatrixValues): string {
  const name = written.trim();
  if (!hasExpression(name)) return `${name !== '' ? name : key}${matrixNameSuffix(matrix)}`;
  const evaluated = interpolate(name, matrix).trim();
  return evaluated !== '' ? evaluated : key;
}

function runsOnLabels(value: unknown, key: string): string[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    // `runs-on: { labels: [...] }` (GitHub's group form): the labels decide.
    return stringList((value as Record<string, unknown>).labels, `jobs.${key}.runs-on.labels`);
  }
  const labels = stringList(value, `jobs.${key}.runs-on`);
  if (labels.length === 0) throw new WorkflowError(`job ${key} has no runs-on`);
  return labels;
}

function stepName(step: unknown, index: number): string {
  if (!step || typeof step !== 'object') return `step ${index + 1}`;
  const s = step as Record<string, unknown>;
  for (const key of ['name', 'uses', 'run', 'id']) {
    if (typeof s[key] === 'string' && s[key] !== '') return (s[key] as string).split('\n')[0]!.slice(0, 255);
  }
  return `step ${index + 1}`;
}

function parseOn(value: unknown): Map<string, Record<string, unknown>> {
  const on = new Map<string, Record<string, unknown>>();
  if (typeof value === 'string') on.set(value, {});
  else if (Array.isArray(value)) {
    for (const v of value) {
      if (typeof v !== 'string') throw new WorkflowError('`on` must name events');
      on.set(v, {});
    }
  } else if (value && typeof value === 'object') {
    for (const [event, filters] of Object.entries(value as Record<string, unknown>)) {
      if (filters === null || filters === undefined) on.set(event, {});
      else if (event === 'schedule' && Array.isArray(filters)) on.set(event, { cron: filters });
      else if (typeof filters === 'object' && !Array.isArray(filters)) on.set(event, filters as Record<string, unknown>);
      else throw new WorkflowError(`on.${event} must be a mapping`);
    }
  } else {
    throw new WorkflowError('the workflow has no `on`');
  }
  return on;
}

function assertAcyclic(needsOf: Map<string, string[]>): void {
  const state = new Map<string, 1 | 2>();
  const visit = (id: string): void => {
    if (state.get(id) === 2) return;
    if (state.get(id) === 1) throw new WorkflowError(`jobs depend on each other in a cycle (at ${id})`);
    state.set(id, 1);
    for (const need of needsOf.get(id)!) visit(need);
    state.set(id, 2);
  };
  for (const id of needsOf.keys()) visit(id);
}

/** Glob filters of `on.push`: `*` stops at `/`, `**` does not (Gitea's workflowpattern). */
function matchesAny(patterns: string[], value: string): boolean {
  return patterns.some((p) => {
    try {
      return compileGlob(p, '/').test(value);
    } catch {
      return false;
    }
  });
}

/**
 * GitHub's include/exclude lists, as Gitea evaluates them: with `!pattern` entries the last
 * matching pattern decides; a `-ignore` list excludes what it matches.
 */
function included(value: string, include: string[] | null, ignore: string[] | null): boolean {
  if (include) {
    let ok = false;
    for (const p of include) {
      if (p.startsWith('!')) {
        if (matchesAny([p.slice(1)], value)) ok = false;
      } else if (matchesAny([p], value)) ok = true;
    }
    return ok;
  }
  if (ignore) return !matchesAny(ignore, value);
  return true;
}

const optionalList = (filters: Record<string, unknown>, key: string): string[] | null =>
  key in filters ? stringList(filters[key], `on.*.${key}`) : null;

/** Whether a workflow's `on:` takes the trigger (event, then its branch, tag and path filters). */
export function workflowMatches(workflow: Pick<ParsedWorkflow, 'on'>, facts: TriggerFacts): boolean {
  const filters = workflow.on.get(facts.event);
  if (!filters) return false;
  if (facts.event !== 'push' && facts.event !== 'pull_request') return true;
  if (facts.event === 'pull_request') {
    const types = optionalList(filters, 'types') ?? DEFAULT_PULL_TYPES;
    if (!types.includes(facts.action ?? '')) return false;
  }
  const branches = optionalList(filters, 'branches');
  const branchesIgnore = optionalList(filters, 'branches-ignore');
  const tags = optionalList(filters, 'tags');
  const tagsIgnore = optionalList(filters, 'tags-ignore');
  const paths = optionalList(filters, 'paths');
  const pathsIgnore = optionalList(filters, 'paths-ignore');
  if (facts.ref.startsWith('refs/tags/')) {
    const tag = facts.ref.slice('refs/tags/'.length);
    // A push filter with only branch lists ignores tag pushes, and the other way round (GitHub's rule).
    if (!tags && !tagsIgnore && (branches || branchesIgnore)) return false;
    if (!included(tag, tags, tagsIgnore)) return false;
  } else {
    const branch = facts.ref.replace(/^refs\/heads\//, '');
    if (!branches && !branchesIgnore && (tags || tagsIgnore)) return false;
    if (!included(branch, branches, branchesIgnore)) return false;
  }
  if ((paths || pathsIgnore) && facts.changedPaths) {
    if (!facts.changedPaths.some((p) => included(p, paths, pathsIgnore))) return false;
  }
  return true;
}

/** The `inputs` a workflow_dispatch declares (name → default), to fill what the caller left out. */
export function dispatchInputDefaults(workflow: ParsedWorkflow): Record<string, string> {
  const inputs = workflow.on.get('workflow_dispatch')?.inputs;
  const out: Record<string, string> = {};
  if (inputs && typeof inputs === 'object' && !Array.isArray(inputs)) {
    for (const [key, spec] of Object.entries(inputs as Record<string, unknown>)) {
      const def = spec && typeof spec === 'object' ? (spec as Record<string, unknown>).default : undefined;
      if (def !== undefined && def !== null) out[key] = String(def);
    }
  }
  return out;
}

/** A workflow's `name:` (the file name when it has none), read without judging the rest of the file. */
export function workflowName(content: string, fileName: string): string {
  try {
    // Duplicate keys do not matter for reading the name, and the library's own check of them is quadratic.
    const doc = parseDocument(content, { uniqueKeys: false }).toJS({ maxAliasCount: 100 }) as unknown;
    const name = doc && typeof doc === 'object' ? (doc as Record<string, unknown>).name : undefined;
    return typeof name === 'string' && name !== '' ? name : fileName;
  } catch {
    return fileName;
  }
}
