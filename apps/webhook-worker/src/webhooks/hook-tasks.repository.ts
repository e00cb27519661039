import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import { HookDeliveryEntity, HookTaskEntity, type HookTaskState } from './hook-task.entity.js';

export type NewTask = Pick<HookTaskEntity, 'hookId' | 'eventId' | 'uuid' | 'eventType' | 'payload' | 'repoId'>;
export type AttemptRecord = Omit<HookDeliveryEntity, 'id'>;

/** Columns of hook_delivery in insert order. */
const ATTEMPT_COLUMNS: Array<[column: string, key: keyof AttemptRecord]> = [
  ['task_id', 'taskId'],
  ['hook_id', 'hookId'],
  ['attempt_key', 'attemptKey'],
  ['guid', 'guid'],
  ['event_type', 'eventType'],
  ['action', 'action'],
  ['repo_id', 'repoId'],
  ['redelivery', 'redelivery'],
  ['url', 'url'],
  ['request_headers', 'requestHeaders'],
  ['request_body', 'requestBody'],
  ['response_status', 'responseStatus'],
  ['response_headers', 'responseHeaders'],
  ['response_body', 'responseBody'],
  ['duration_ms', 'durationMs'],
  ['outcome', 'outcome'],
  ['status_text', 'statusText'],
  ['delivered_at', 'deliveredAt'],
];

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

  /** One task by id (the delivery hot path: one plain query). */
  async findTask(id: number): Promise<HookTaskEntity | null> {
    const rows = (await this.db.manager.query(
      `SELECT id, hook_id, event_id, uuid, event_type, payload, repo_id, state, created_at FROM hook_task WHERE id = ${this.p(1)}`,
      [id],
    )) as Array<Record<string, string | number | null>>;
    const r = rows[0];
    if (!r) return null;
    return {
      id: Number(r.id),
      hookId: Number(r.hook_id),
      eventId: String(r.event_id),
      uuid: String(r.uuid),
      eventType: String(r.event_type),
      payload: String(r.payload),
      repoId: r.repo_id === null ? null : Number(r.repo_id),
      state: r.state as HookTaskState,
      createdAt: new Date(Number(r.created_at)),
    };
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
    await manager.query(`UPDATE hook_task SET state = ${this.p(1)} WHERE id = ${this.p(2)}`, [state, id]);
  }

  /**
   * Writes one attempt's record and, when the attempt settles the task, the task's new state.
   * Keyed by task and attempt key, so an attempt that ran again after its worker died replaces
   * its own record instead of adding a second one. On PostgreSQL both writes are one statement.
   */
  async recordAttempt(manager: EntityManager, attempt: AttemptRecord, taskState: HookTaskState | null): Promise<void> {
    const columns = ATTEMPT_COLUMNS.map(([c]) => c);
    const values = ATTEMPT_COLUMNS.map(([, k]) => {
      const v = attempt[k];
      if (v instanceof Date) return v.getTime();
      if (typeof v === 'boolean') return this.db.isPostgres ? v : v ? 1 : 0;
      return v;
    });
    const updates = columns.filter((c) => c !== 'task_id' && c !== 'attempt_key').map((c) => `${c} = excluded.${c}`);
    const insert = `INSERT INTO hook_delivery (${columns.join(', ')}) VALUES (${columns.map((_, i) => this.p(i + 1)).join(', ')})
       ON CONFLICT (task_id, attempt_key) DO UPDATE SET ${updates.join(', ')}`;
    if (taskState && this.db.isPostgres) {
      const n = values.length;
      await manager.query(`WITH attempt AS (${insert} RETURNING id) UPDATE hook_task SET state = $${n + 1} WHERE id = $${n + 2}`, [
        ...values,
        taskState,
        attempt.taskId,
      ]);
      return;
    }
    await manager.query(insert, values);
    if (taskState) await this.setTaskState(manager, attempt.taskId, taskState);
  }

  /** Outcomes of a hook's latest attempts since `sinceMs`, newest first. */
  async recentOutcomes(hookId: number, sinceMs: number, limit: number): Promise<string[]> {
    const rows = (await this.db.manager.query(
      `SELECT outcome FROM hook_delivery WHERE hook_id = ${this.p(1)} AND delivered_at > ${this.p(2)} ORDER BY id DESC LIMIT ${Number(limit)}`,
      [hookId, sinceMs],
    )) as Array<{ outcome: string }>;
    return rows.map((r) => r.outcome);
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
}
