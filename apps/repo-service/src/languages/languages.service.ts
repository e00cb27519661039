import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  forbidden,
  QueueNames,
  type Actor,
  type EventEnvelope,
  type LanguageStatistics,
} from '@gitforge/contracts';
import { createLogger, Database, isUniqueViolation, QueueDriver, type QueueJob } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { Refs } from '../git/refs.js';
import { defaultBranchPushed } from '../pushes/default-branch-push.js';
import { KeyedLock } from '../pushes/keyed-lock.js';
import { ReposRepository } from '../records/repos.repository.js';
import type { RepositoryEntity } from '../records/repository.entity.js';
import { LanguageStatEntity } from './language-stat.entity.js';
import { LanguageStatsReader } from './language-stats.reader.js';

const log = createLogger('languages');

/**
 * `GET /repos/{owner}/{repo}/languages`: bytes per language of the default branch, as Gitea's
 * stats indexer keeps them. A push to the default branch recomputes them in the background
 * (the repo-languages queue); a request for a commit not yet computed computes it then.
 */
@Injectable()
export class LanguagesService implements OnApplicationBootstrap {
  /** One computation per repository at a time: a push and a request arriving together share the work. */
  private readonly locks = new KeyedLock();

  constructor(
    private readonly db: Database,
    private readonly access: RepoAccessService,
    private readonly repos: ReposRepository,
    private readonly refs: Refs,
    private readonly reader: LanguageStatsReader,
    private readonly queue: QueueDriver,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.process<EventEnvelope>(QueueNames.repoLanguages, (job) => this.handle(job), {
      concurrency: 1,
    });
  }

  async get(actor: Actor | null, owner: string, repo: string): Promise<LanguageStatistics> {
    const ctx = await this.access.assign(actor, owner, repo);
    if (!ctx.permission.canRead('repo.code'))
      throw forbidden('user should have specific read permission or be a repo admin or a site admin');
    // Largest first, as Gitea lists them (its statistics ordered by size).
    return Object.fromEntries(Object.entries(await this.statsOf(ctx.repo)).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
  }

  /** A push event: recompute when it moved the default branch. Replays find the stats current and do nothing. */
  async handle(job: QueueJob<EventEnvelope>): Promise<void> {
    const repo = await defaultBranchPushed(job.data, this.repos);
    if (!repo) return;
    const sizes = await this.statsOf(repo);
    log.debug({ repoId: repo.id, languages: Object.keys(sizes).length }, 'language statistics computed');
  }

  private async statsOf(repo: RepositoryEntity): Promise<LanguageStatistics> {
    if (repo.isEmpty) return {};
    const head = await this.refs.branchHead(repo.id, repo.defaultBranch);
    if (!head) return {};
    return this.locks.run(repo.id, async () => {
      const row = await this.db.manager.findOne(LanguageStatEntity, { where: { repoId: repo.id } });
      if (row?.commitId === head) {
        // Statistics computed before the repository kept its language give it on their next read.
        const primary = primaryOf(row.sizes);
        if (primary !== repo.primaryLanguage) await this.db.transaction((m) => this.repos.update(m, repo.id, { primaryLanguage: primary }));
        return row.sizes;
      }
      const sizes = await this.reader.compute(repo.id, head);
      await this.db
        .transaction(async (m) => {
          // The repository's `language` follows (Gitea's UpdateLanguageStats marks the largest primary).
          await this.repos.update(m, repo.id, { primaryLanguage: primaryOf(sizes) });
          return m.save(LanguageStatEntity, m.create(LanguageStatEntity, { repoId: repo.id, commitId: head, sizes, updatedAt: new Date() }));
        })
        .catch((err: unknown) => {
          // Another replica stored the same commit's statistics first: theirs are as good.
          if (!isUniqueViolation(err)) throw err;
        });
      return sizes;
    });
  }
}

/** The largest language (the first by name among equals), '' when there is none. */
export function primaryOf(sizes: LanguageStatistics): string {
  let best = '';
  for (const [language, size] of Object.entries(sizes)) {
    if (!best || size > sizes[best]! || (size === sizes[best] && language < best)) best = language;
  }
  return best;
}
