import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { createLogger, Database, RequestContexts } from '@gitforge/platform';
import { GitService } from '../git/git.service.js';
import { RepositoryEntity } from '../records/repository.entity.js';
import { KeyedThrottle } from './keyed-throttle.js';
import { housekeepingAction, type HousekeepingAction, type ObjectStats } from './housekeeping-policy.js';

const log = createLogger('housekeeping');

/** Advisory-lock class of repository housekeeping (PostgreSQL's two-key form: class, repository id). */
const HOUSEKEEPING_LOCK = 0x67666863;

/**
 * Settings of the full repack: a bitmap (with name-hash cache) so clones and fetches reuse the pack
 * instead of walking history. Objects no ref reaches go to a cruft pack, not away (`-a -d` alone
 * would delete them): a push moves its pack in before it updates its refs, and a repack between the
 * two must keep what the push is about to reference. Only cruft a fortnight old expires, as `git gc`.
 */
const FULL_REPACK = [
  '-c',
  'pack.writeBitmapHashCache=true',
  '-c',
  'repack.writeBitmaps=true',
  'repack',
  '-a',
  '--cruft',
  '--cruft-expiration=2.weeks.ago',
  '-d',
  '-l',
  '-q',
  '--write-bitmap-index',
];

/**
 * Housekeepers one process runs at once after pushes: each holds a git repack (CPU and disk) and,
 * on PostgreSQL, a pooled connection for its lock. A push finding them all busy leaves its
 * repository to the next push or to git_gc_repos.
 */
const MAX_AFTER_PUSH = 2;

/** The least time between two looks at one repository after pushes. */
const AFTER_PUSH_INTERVAL_MS = 1000;

/** What one housekeeping run did ('busy': another housekeeper, here or on another replica, had the repository). */
export type HousekeepingOutcome = HousekeepingAction | 'busy';

/**
 * Repository housekeeping (Gitea's git_gc_repos, GitLab's housekeeping): after pushes, from the
 * heuristics of housekeeping-policy.ts, and in full from the admin cron. One housekeeper per
 * repository across replicas: an in-process set, and on PostgreSQL a session advisory lock that
 * dies with its connection if the process does. Git readers are never blocked: repack writes
 * new packs before deleting old ones, and upload-pack copes with packs going away.
 */
@Injectable()
export class Housekeeping implements OnModuleDestroy {
  private readonly running = new Set<number>();
  private readonly looks = new KeyedThrottle(AFTER_PUSH_INTERVAL_MS);

  constructor(
    private readonly git: GitService,
    private readonly db: Database,
  ) {}

  /**
   * After a push: decides and runs in the background, never delaying the push. A repository is
   * looked at (count-objects, a database read) at most once per {@link AFTER_PUSH_INTERVAL_MS}: the
   * first push of a quiet spell at once, later ones together at the end of the interval, so a burst
   * of writes costs one look per interval and its last push is always looked after.
   */
  afterPush(repoId: number): void {
    if (!this.looks.now(repoId, () => this.afterPush(repoId))) return;
    void RequestContexts.detached(() => this.optimize(repoId, 'heuristic')).catch((err: unknown) =>
      log.warn(
        { repoId, err: err instanceof Error ? err.message : String(err) },
        'housekeeping after a push failed',
      ),
    );
  }

  onModuleDestroy(): void {
    this.looks.clear();
  }

  /** `heuristic`: what the repository needs now; `gc`: a full repack, commit graph and prune, as `git gc`. */
  async optimize(repoId: number, mode: 'heuristic' | 'gc'): Promise<HousekeepingOutcome> {
    if (mode === 'heuristic' && this.running.size >= MAX_AFTER_PUSH) return 'busy';
    return this.exclusive(repoId, async () => {
      const action = mode === 'gc' ? 'full' : housekeepingAction(await this.stats(repoId));
      if (action === 'none') return action;
      const started = Date.now();
      if (action === 'full') {
        await this.git.run(repoId, FULL_REPACK);
        await this.git.run(repoId, ['pack-refs', '--all']);
        await this.git.run(repoId, ['commit-graph', 'write', '--reachable', '--changed-paths']);
        // Unreachable loose objects a fortnight old go, as `git gc` prunes them (younger ones may belong to a push in flight).
        if (mode === 'gc') await this.git.run(repoId, ['prune', '--expire=2.weeks.ago']);
      } else {
        await this.git.run(repoId, ['repack', '-d', '-l', '-q']);
        await this.git.run(repoId, ['commit-graph', 'write', '--reachable', '--split', '--changed-paths']);
      }
      log.info({ repoId, action, ms: Date.now() - started }, 'repository housekept');
      return action;
    });
  }

  async stats(repoId: number): Promise<ObjectStats> {
    const out = (await this.git.run(repoId, ['count-objects', '-v'])).stdout.toString();
    const field = (name: string): number => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(out)?.[1] ?? 0);
    const packDir = join(this.git.repoPath(repoId), 'objects', 'pack');
    const files = await readdir(packDir).catch(() => [] as string[]);
    return {
      looseObjects: field('count'),
      packs: field('packs'),
      packKiB: field('size-pack'),
      hasBitmap: files.some((f) => f.endsWith('.bitmap')),
    };
  }

  /**
   * A repository deleted meanwhile is not housekept; and one deleted while its housekeeper ran is
   * removed again once it is done, since git recreates the object directories it writes to (a
   * temporary pack under objects/pack) in a directory the deletion has just removed.
   */
  private async unlessDeleted(
    repoId: number,
    work: () => Promise<HousekeepingAction>,
  ): Promise<HousekeepingAction> {
    const exists = () => this.db.manager.exists(RepositoryEntity, { where: { id: repoId } });
    if (!(await exists())) return 'none';
    try {
      return await work();
    } finally {
      if (!(await exists())) await this.git.remove(repoId);
    }
  }

  private async exclusive(
    repoId: number,
    todo: () => Promise<HousekeepingAction>,
  ): Promise<HousekeepingOutcome> {
    if (this.running.has(repoId)) return 'busy';
    this.running.add(repoId);
    const work = () => this.unlessDeleted(repoId, todo);
    try {
      return await this.db.sql.withSessionLock(this.db.dataSource, [HOUSEKEEPING_LOCK, repoId], 'busy' as const, work);
    } finally {
      this.running.delete(repoId);
    }
  }
}
