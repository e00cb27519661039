import { Injectable } from '@nestjs/common';
import { Database } from '@gitforge/platform';
import { ActionEntity } from '../feeds/action.entity.js';
import { NotificationEventEntity } from '../notifications/notification.entity.js';
import { HookDeliveryEntity, HookPayloadEntity, HookTaskEntity } from '../webhooks/hook-task.entity.js';

/**
 * Rows per delete statement, so a large backlog never holds one long transaction (or SQLite's lock).
 * Old rows are found along the ids, the oldest first, with no index on their times: every delivery
 * would write to one, for a job that runs once a day.
 */
const CHUNK = 500;

/** What the worker keeps only for a while: delivery records, finished hook tasks, the projectors' event marks, old activity feed entries. */
@Injectable()
export class RetentionRepository {
  constructor(private readonly db: Database) {}

  /** Delivery attempts started before `cutoff`; answers how many went. */
  async deleteDeliveriesBefore(cutoff: Date): Promise<number> {
    return this.inChunks(HookDeliveryEntity, 'd', 'd.delivered_at < :cutoff', cutoff);
  }

  /**
   * Hook tasks created before `cutoff` that are done (delivered, or failed for good) and have no
   * delivery record left; pending ones are still being retried and stay. The delete checks for
   * records again: an attempt recorded meanwhile (a redelivery) reads its body from the task.
   */
  async deleteFinishedTasksBefore(cutoff: Date): Promise<number> {
    return this.inChunks(
      HookTaskEntity,
      't',
      `t.created_at < :cutoff AND t.state IN ('delivered', 'failed') AND NOT EXISTS (SELECT 1 FROM hook_delivery d WHERE d.task_id = t.id)`,
      cutoff,
      'NOT EXISTS (SELECT 1 FROM hook_delivery d WHERE d.task_id = hook_task.id)',
    );
  }

  /**
   * Payloads stored before `cutoff` whose batch has no task left (see {@link deleteFinishedTasksBefore});
   * answers how many went. A batch's tasks are made together with its payload and never later,
   * so a payload found unused stays unused.
   */
  async deleteUnusedPayloadsBefore(cutoff: Date): Promise<number> {
    return this.inChunks(
      HookPayloadEntity,
      'p',
      'p.created_at < :cutoff AND NOT EXISTS (SELECT 1 FROM hook_task t WHERE t.event_id = p.event_id AND t.batch = p.batch)',
      cutoff,
      undefined,
      'batch',
    );
  }

  /** Activity feed entries created before `cutoff` (Gitea's DeleteOldActions); answers how many went. */
  async deleteActionsBefore(cutoff: Date): Promise<number> {
    return this.inChunks(ActionEntity, 'a', 'a.created_at < :cutoff', cutoff);
  }

  /**
   * The notification projector's marks of events applied before `cutoff`. They only stop a replay
   * of the same event from notifying twice; an event is replayed within minutes, not days.
   */
  async deleteNotificationMarksBefore(cutoff: Date): Promise<number> {
    let removed = 0;
    for (;;) {
      const ids = await this.db.manager
        .createQueryBuilder(NotificationEventEntity, 'e')
        .select('e.event_id', 'id')
        .where('e.created_at < :cutoff', { cutoff: cutoff.getTime() })
        .limit(CHUNK)
        .getRawMany<{ id: string }>();
      if (ids.length === 0) return removed;
      await this.db.transaction((m) =>
        m.delete(
          NotificationEventEntity,
          ids.map((r) => ({ eventId: r.id })),
        ),
      );
      removed += ids.length;
    }
  }

  private async inChunks(
    entity: typeof HookDeliveryEntity | typeof HookTaskEntity | typeof HookPayloadEntity | typeof ActionEntity,
    alias: string,
    where: string,
    cutoff: Date,
    /** A condition on the table's own name that the delete checks again, row by row. */
    still?: string,
    /** The table's key, which the rows are found along (the oldest first where it is an id). */
    key: 'id' | 'batch' = 'id',
  ): Promise<number> {
    let removed = 0;
    for (;;) {
      const keys = await this.db.manager
        .createQueryBuilder(entity, alias)
        .select(`${alias}.${key}`, 'key')
        .where(where, { cutoff: cutoff.getTime() })
        .orderBy(`${alias}.${key}`, 'ASC')
        .limit(CHUNK)
        .getRawMany<{ key: number | string }>();
      if (keys.length === 0) return removed;
      const deleted = await this.db.transaction((m) => {
        const del = m
          .createQueryBuilder()
          .delete()
          .from(entity)
          .where(`${key} IN (:...keys)`, { keys: keys.map((r) => (key === 'id' ? Number(r.key) : r.key)) });
        return (still ? del.andWhere(still) : del).execute();
      });
      removed += deleted.affected ?? keys.length;
      // A chunk whose rows all stayed would be read again: what stays is left for the next run.
      if (deleted.affected === 0) return removed;
    }
  }
}
