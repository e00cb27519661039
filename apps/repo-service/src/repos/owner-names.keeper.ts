import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { QueueNames, type EventEnvelope } from '@gitforge/contracts';
import { createLogger, DirectoryClient, QueueDriver, type QueueJob } from '@gitforge/platform';
import { ReposRepository } from '../records/repos.repository.js';

const log = createLogger('owner-names');
/** Owners whose names are asked for in one directory call when filling rows from before the column. */
const FILL_PAGE = 200;
/** A fill that failed (the directory not up yet) is tried again after this, doubling up to {@link MAX_RETRY_MS}. */
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 10 * 60_000;

/**
 * Keeps each repository's owner name (Gitea's repository.owner_name, which search matches and
 * sorts by) equal to its owner's login: a rename's event makes it ask the directory for the
 * current login (so renames that overtake each other end on the last one, and a replay changes
 * nothing), and at start the rows written before the column get theirs.
 */
@Injectable()
export class OwnerNamesKeeper implements OnApplicationBootstrap {
  constructor(
    private readonly repos: ReposRepository,
    private readonly directory: DirectoryClient,
    private readonly queue: QueueDriver,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.process<EventEnvelope<'account.renamed'>>(QueueNames.repoOwnerNames, (job) => this.handle(job), { concurrency: 1 });
    this.fillSoon(0);
  }

  private fillSoon(delayMs: number): void {
    setTimeout(() => {
      this.fillUnnamed().catch((err: unknown) => {
        const next = Math.min(MAX_RETRY_MS, Math.max(FIRST_RETRY_MS, delayMs * 2));
        log.warn({ err, retryInMs: next }, 'could not fill in the owner names of older repositories yet');
        this.fillSoon(next);
      });
    }, delayMs).unref();
  }

  async handle(job: QueueJob<EventEnvelope<'account.renamed'>>): Promise<void> {
    await this.refresh([job.data.payload.ownerId]);
  }

  /** Sets the owner name of the repositories of `ownerIds` to each owner's login now (gone owners are left as they are). */
  async refresh(ownerIds: number[]): Promise<void> {
    for (const account of await this.directory.accountsByIds(null, ownerIds)) await this.repos.setOwnerName(account.id, account.login);
  }

  /** Names the owners of rows written before the column, a page of owners at a time (one the directory no longer knows stays unnamed). */
  async fillUnnamed(): Promise<void> {
    for (let after = 0; ; ) {
      const ids = await this.repos.ownerIdsWithoutName(after, FILL_PAGE);
      if (ids.length === 0) return;
      await this.refresh(ids);
      after = ids[ids.length - 1]!;
    }
  }
}
