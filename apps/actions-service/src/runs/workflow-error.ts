/** A workflow file act_runner could not run, with a reason readable in the run's error. */
export class WorkflowError extends Error {
  /** The triggers, when the file got as far as a readable `on:` (then only matching events fail a run). */
  on: Map<string, Record<string, unknown>> | null = null;
}
