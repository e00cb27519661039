import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { createLogger, Database, RequestContexts } from '@gitforge/platform';
import { GitService } from '../git/git.service.js';
import { ReposRepository } from '../records/repos.repository.js';

/** How often each replica looks at the staging area besides at start (a replica that died may never restart). */
const SWEEP_MS = 60_000;

/**
 * Settles repositories left in the staging area ({@link GitService.stagedPath}) by a create that
 * did not finish: one whose row committed is moved into place, one whose row never committed is
 * removed (an adoption's goes back where the operator dropped it, {@link GitService.discardStaged}). A staged id whose create is still in flight on any replica sharing the volume is left
 * alone: the creating transaction holds the id's creation mark, and the sweep only decides under
 * that mark. Repositories in place are never touched.
 */
@Injectable()
export class RepoStaging implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = createLogger('repo-staging');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly db: Database,
    private readonly repos: ReposRepository,
    private readonly git: GitService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.sweep();
    this.timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /**
   * Settles every staged repository that no create holds; failures are logged and retried next
   * time. One that cannot be settled (an adoption whose drop location is taken again) does not
   * hold up the others.
   */
  sweep(): Promise<void> {
    this.running ??= RequestContexts.detached(async () => {
      try {
        for (const id of await this.git.stagedIds()) {
          await this.settle(id).catch((err: unknown) => this.log.warn({ err, repoId: id }, 'could not settle a staged repository'));
        }
      } catch (err) {
        this.log.warn({ err }, 'staging sweep failed');
      } finally {
        this.running = undefined;
      }
    });
    return this.running;
  }

  /** Settles one staged repository unless its create is in flight; 'busy' when it is. */
  async settle(id: number): Promise<'promoted' | 'discarded' | 'busy'> {
    // Outside any request: a request's transactions are recorded by their order, and this is none of them.
    const outcome = await RequestContexts.detached(() =>
      this.db.transaction(async (m) => {
        if (!(await this.repos.tryHoldCreation(m, id))) return 'busy' as const;
        if (await this.repos.findById(id, m)) {
          await this.git.promote(id);
          return 'promoted' as const;
        }
        await this.git.discardStaged(id);
        return 'discarded' as const;
      }),
    );
    if (outcome !== 'busy')
      this.log.info({ repoId: id, outcome }, 'settled a repository left in staging by an unfinished create');
    return outcome;
  }
}
