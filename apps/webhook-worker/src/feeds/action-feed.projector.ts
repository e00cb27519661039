import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { QueueNames, type EventEnvelope } from '@gitforge/contracts';
import { Database, PlatformConfig, QueueDriver, type QueueJob } from '@gitforge/platform';
import { feedActionsOf, receiversOf } from './feed-actions.js';
import { FeedsRepository } from './feeds.repository.js';

const PROJECTOR_CONCURRENCY = 4;

/**
 * Writes feed entries (Gitea's action rows) from domain events: one row per receiver, unique on
 * (event, entry, receiver), so a replayed event changes nothing. A deleted repository's
 * entries are removed, as Gitea does.
 */
@Injectable()
export class ActionFeedProjector implements OnApplicationBootstrap {
  constructor(
    private readonly queue: QueueDriver,
    private readonly db: Database,
    private readonly feeds: FeedsRepository,
    private readonly config: PlatformConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.process<EventEnvelope>(QueueNames.feeds, (job) => this.handle(job), { concurrency: PROJECTOR_CONCURRENCY });
  }

  async handle(job: QueueJob<EventEnvelope>): Promise<void> {
    const envelope = job.data;
    if (envelope.name === 'repo.deleted' && envelope.repoId !== null) {
      const repoId = envelope.repoId;
      await this.db.transaction((m) => this.feeds.deleteForRepo(m, repoId));
      return;
    }
    const specs = feedActionsOf(envelope, this.config.rootUrl);
    if (specs.length === 0) return;
    const createdAt = new Date(envelope.occurredAt);
    const rows = specs.flatMap((spec, seq) =>
      receiversOf(spec).map((userId) => ({
        eventId: envelope.id,
        eventSeq: seq,
        userId,
        opType: spec.opType,
        actUserId: spec.actUserId,
        repoId: spec.repo.id,
        commentId: spec.commentId,
        refName: spec.refName,
        isPrivate: spec.repo.private,
        content: spec.content,
        createdAt,
      })),
    );
    await this.db.transaction((m) => this.feeds.insertActions(m, rows));
  }
}
