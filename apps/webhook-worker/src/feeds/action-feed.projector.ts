import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { QueueNames, RepoFactPatterns, type Comment, type EventEnvelope, type NotificationAudienceRequest, type RepoUnitKey } from '@gitforge/contracts';
import type { EntityManager } from 'typeorm';
import { Database, PlatformConfig, QueueDriver, RpcClient, type QueueJob } from '@gitforge/platform';
import { commentEntryChangeOf, feedActionsOf, receiversOf, supersedes, watcherUnitOf, type ActionSpec, type CommentEntryChange } from './feed-actions.js';
import { FeedsRepository } from './feeds.repository.js';

const PROJECTOR_CONCURRENCY = 4;

/**
 * Writes feed entries (Gitea's action rows) from domain events: one row per receiver (the actor,
 * the owner, the watchers who may read it), unique on (event, entry, receiver), so a replayed
 * event changes nothing. A deleted repository's entries are removed, as Gitea does; a comment's
 * entries follow its edits and go with it.
 */
@Injectable()
export class ActionFeedProjector implements OnApplicationBootstrap {
  constructor(
    private readonly queue: QueueDriver,
    private readonly db: Database,
    private readonly feeds: FeedsRepository,
    private readonly config: PlatformConfig,
    private readonly rpc: RpcClient,
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
    const change = commentEntryChangeOf(envelope);
    if (change) {
      await this.db.transaction((m) => this.changeCommentEntries(m, change));
      return;
    }
    const specs = feedActionsOf(envelope, this.config.rootUrl);
    if (specs.length === 0) return;
    const createdAt = new Date(envelope.occurredAt);
    const watchers = await this.watchersOf(specs);
    const rows = specs.flatMap((spec, seq) =>
      receiversOf(spec, watchers.get(spec.repo.id)?.get(watcherUnitOf(spec.opType)) ?? []).map((userId) => ({
        eventId: envelope.id,
        eventSeq: seq,
        userId,
        opType: spec.opType,
        actUserId: spec.actUserId,
        repoId: spec.repo.id,
        commentId: spec.commentId,
        commentJson: spec.comment ? JSON.stringify(spec.comment) : null,
        refName: spec.refName,
        isPrivate: spec.repo.private,
        content: spec.content,
        createdAt,
      })),
    );
    await this.db.transaction((m) => this.feeds.insertActions(m, rows));
  }

  /** The watchers of each repository the entries are in who may read each unit asked (repo-service decides), one call per pair. */
  private async watchersOf(specs: ActionSpec[]): Promise<Map<number, Map<RepoUnitKey | null, number[]>>> {
    const out = new Map<number, Map<RepoUnitKey | null, number[]>>();
    for (const spec of specs) {
      const unit = watcherUnitOf(spec.opType);
      const byUnit = out.get(spec.repo.id) ?? new Map<RepoUnitKey | null, number[]>();
      out.set(spec.repo.id, byUnit);
      if (byUnit.has(unit)) continue;
      const request: NotificationAudienceRequest = { repoId: spec.repo.id, userIds: [], unit, withWatchers: true };
      byUnit.set(unit, await this.rpc.call<number[], Record<string, string>, NotificationAudienceRequest>(RepoFactPatterns.notificationAudience, { actor: null, body: request }));
    }
    return out;
  }

  private async changeCommentEntries(m: EntityManager, change: CommentEntryChange): Promise<void> {
    if (change.comment === null) return this.feeds.deleteForComment(m, change.commentId);
    const incoming = change.comment;
    const entries = await this.feeds.commentEntries(m, change.commentId);
    const stale = entries.filter((e) => supersedes(e.commentJson ? (JSON.parse(e.commentJson) as Comment) : null, incoming));
    await this.feeds.storeComment(m, stale.map((e) => e.id), JSON.stringify(incoming));
  }
}
