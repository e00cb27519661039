import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import { HookDeliveryEntity, HookHealthEntity, HookTaskEntity, type HookTaskState } from './hook-task.entity.js';

export type NewTask = Pick<HookTaskEntity, 'hookId' | 'eventId' | 'uuid' | 'eventType' | 'payload' | 'repoId'>;
export type AttemptStart = Pick<
  HookDeliveryEntity,
  'taskId' | 'hookId' | 'attemptKey' | 'guid' | 'eventType' | 'action' | 'repoId' | 'redelivery' | 'url' | 'requestHeaders' | 'requestBody'
>;
export type AttemptEnd = Pick<
  HookDeliveryEntity,
  'responseStatus' | 'responseHeaders' | 'responseBody' | 'durationMs' | 'outcome' | 'statusText'
>;

@Injectable()
export class HookTasksRepository {
  constructor(private readonly db: Database) {}

  private p(i: number): string {
    return this.db.isPostgres ? `$${i}` : '?';
  }

  /**
   * Creates the tasks of one event that do not exist yet (unique on hook and event, so a
   * replayed event adds nothing) and answers all of the event's tasks for those hooks.
   */
  async insertTasks(manager: EntityManager, tasks: NewTask[]): Promise<HookTaskEntity[]> {
    if (tasks.length === 0) return [];
    const now = new Date();
    await manager
      .createQueryBuilder()
      .insert()
      .into(HookTaskEntity)
      .values(tasks.map((t) => ({ ...t, state: 'pending' as const, createdAt: now })))
      .orIgnore()
      .execute();
    return manager.find(HookTaskEntity, {
      where: { eventId: tasks[0]!.eventId, hookId: In(tasks.map((t) => t.hookId)) },
      order: { id: 'ASC' },
    });
  }

  findTask(id: number): Promise<HookTaskEntity | null> {
    return this.db.manager.findOne(HookTaskEntity, { where: { id } });
  }

  findPendingTasks(afterId: number, limit: number): Promise<HookTaskEntity[]> {
    return this.db.manager
      .createQueryBuilder(HookTaskEntity, 't')
      .select(['t.id', 't.eventType'])
      .where('t.state = :state AND t.id > :afterId', { state: 'pending', afterId })
      .orderBy('t.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  async setTaskState(manager: EntityManager, id: number, state: HookTaskState): Promise<void> {
    await manager.update(HookTaskEntity, { id }, { state });
  }

  /** The record of one attempt, created before sending; a re-run of the same attempt reuses it. */
  async beginAttempt(manager: EntityManager, attempt: AttemptStart): Promise<HookDeliveryEntity> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(HookDeliveryEntity)
      .values({ ...attempt, outcome: 'pending', responseStatus: 0, responseHeaders: '{}', responseBody: null, durationMs: 0, statusText: '', deliveredAt: new Date() })
      .orIgnore()
      .execute();
    const row = (await manager.findOne(HookDeliveryEntity, { where: { taskId: attempt.taskId, attemptKey: attempt.attemptKey } }))!;
    if (row.outcome === 'pending') {
      await manager.update(
        HookDeliveryEntity,
        { id: row.id },
        { url: attempt.url, requestHeaders: attempt.requestHeaders, requestBody: attempt.requestBody, deliveredAt: new Date() },
      );
    }
    return row;
  }

  async finishAttempt(manager: EntityManager, id: number, end: AttemptEnd): Promise<void> {
    await manager.update(HookDeliveryEntity, { id }, end);
  }

  listDeliveries(hookId: number, options: ListOptions): Promise<[HookDeliveryEntity[], number]> {
    return this.db.manager.findAndCount(HookDeliveryEntity, {
      where: { hookId },
      order: { id: 'DESC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
  }

  findDelivery(hookId: number, id: number): Promise<HookDeliveryEntity | null> {
    return this.db.manager.findOne(HookDeliveryEntity, { where: { hookId, id } });
  }

  /** Counts a hook's consecutive failures (a success resets them) and answers the new count. */
  async recordOutcome(manager: EntityManager, hookId: number, success: boolean): Promise<number> {
    const sql = `INSERT INTO hook_health (hook_id, consecutive_failures, updated_at) VALUES (${this.p(1)}, ${this.p(2)}, ${this.p(3)})
       ON CONFLICT (hook_id) DO UPDATE SET
         consecutive_failures = CASE WHEN ${this.p(4)} = 1 THEN 0 ELSE hook_health.consecutive_failures + 1 END,
         updated_at = excluded.updated_at
       RETURNING consecutive_failures`;
    type Row = { consecutive_failures: number | string };
    const raw = (await manager.query(sql, [hookId, success ? 0 : 1, Date.now(), success ? 1 : 0])) as Row[] | [Row[], number];
    // pg answers some statements with RETURNING as [rows, count] through TypeORM.
    const rows = (Array.isArray(raw[0]) ? raw[0] : raw) as Row[];
    return Number(rows[0]?.consecutive_failures ?? 0);
  }

  async resetHealth(manager: EntityManager, hookId: number): Promise<void> {
    await manager.update(HookHealthEntity, { hookId }, { consecutiveFailures: 0, updatedAt: new Date() });
  }
}
