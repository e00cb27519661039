/** Gitea's `Cron`: one scheduled task as `GET /admin/cron` lists it. */
export class Cron {
  name!: string;
  /** The schedule spec (`@midnight`, `@every 72h`, a cron line), or `-` while the task is disabled. */
  schedule!: string;
  /** RFC 3339; Go's zero time when the task is not scheduled. */
  next!: string;
  /** RFC 3339; Go's zero time when the task has never run (manual runs count). */
  prev!: string;
  exec_times!: number;
}

/** What one repository maintenance pass over a batch of repositories did (repo-service, for the admin cron). */
export interface RepoSweepResult {
  /** The id to continue after, or null when the last repository was done. */
  nextAfterId: number | null;
  processed: number;
  /** Repositories the pass failed on, with git's message (repo_health_check reports them as system notices). */
  failures: Array<{ repoId: number; fullName: string; message: string }>;
}

/**
 * The maintenance passes repo-service runs over every repository (`licenses` reads every license
 * file again; `reinit` gives a repository whose directory is gone an empty one).
 */
export type RepoSweepTask = 'fsck' | 'stats' | 'gc' | 'licenses' | 'reinit';

/** Body of a repository sweep call. */
export interface RepoSweepRequest {
  task: RepoSweepTask;
  afterId: number;
  limit: number;
}

/** Body of the retention calls of the admin cron (archives, hook deliveries, inactive accounts). */
export interface RetentionRequest {
  olderThanMs: number;
}

/** What a retention call removed. */
export interface RetentionResult {
  removed: number;
}
