import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import { HookDeliveryEntity, HookTaskEntity, type HookTaskState } from './hook-task.entity.js';

export type NewTask = Pick<HookTaskEntity, 'hookId' | 'eventId' | 'uuid' | 'eventType' | 'payload' | 'repoId'>;
export type AttemptRecord = Omit<HookDeliveryEntity, 'id'>;

const TASK_COLUMNS = 'id, hook_id, event_id, uuid, event_type, payload, repo_id, state, created_at';
type TaskRow = Record<string, string | number | null>;

/** A hook_task row read with raw SQL (the hot paths skip TypeORM's query building). */
function toTask(r: TaskRow): HookTaskEntity {
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
   * replayed event adds nothing) and answers all of the event's tasks for those hooks. On
   * PostgreSQL one statement (its outer SELECT sees the rows that existed before it, the CTE
   * those it inserted); SQLite needs an insert and a read in one transaction.
   */
  async insertTasks(tasks: NewTask[]): Promise<HookTaskEntity[]> {
    if (tasks.length === 0) return [];
    const now = Date.now();
    const values: unknown[] = [];
    const rows = tasks.map((t) => {
      values.push(t.hookId, t.eventId, t.uuid, t.eventType, t.payload, t.repoId, 'pending', now);
      return `(${Array.from({ length: 8 }, (_, i) => this.p(values.length - 7 + i)).join(', ')})`;
    });
    const insert = `INSERT INTO hook_task (hook_id, event_id, uuid, event_type, payload, repo_id, state, created_at) VALUES ${rows.join(', ')}
       ON CONFLICT (hook_id, event_id) DO NOTHING`;
    values.push(tasks[0]!.eventId);
    const eventParam = this.p(values.length);
    const hookParams = tasks.map((t) => {
      values.push(t.hookId);
      return this.p(values.length);
    });
    const existing = `SELECT ${TASK_COLUMNS} FROM hook_task WHERE event_id = ${eventParam} AND hook_id IN (${hookParams.join(', ')})`;
    const insertAndRead = async (m: EntityManager): Promise<TaskRow[]> => {
      if (this.db.isPostgres) return (await m.query(`WITH inserted AS (${insert} RETURNING ${TASK_COLUMNS}) SELECT * FROM inserted UNION ALL ${existing}`, values)) as TaskRow[];
      await m.query(insert, values.slice(0, tasks.length * 8));
      return (await m.query(existing, values.slice(tasks.length * 8))) as TaskRow[];
    };
    const found = this.db.isPostgres ? await insertAndRead(this.db.manager) : await this.db.transaction(insertAndRead);
    return found.map(toTask).sort((a, b) => a.id - b.id);
  }

  /** Tasks by id, for a batch of delivery jobs (the hot path: one plain query); absent ids are left out. */
  async findTasks(ids: number[]): Promise<HookTaskEntity[]> {
    if (ids.length === 0) return [];
    const rows = (await this.db.manager.query(
      `SELECT ${TASK_COLUMNS} FROM hook_task WHERE id IN (${ids.map((_, i) => this.p(i + 1)).join(', ')})`,
      ids,
    )) as TaskRow[];
    return rows.map(toTask);
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
   * Writes the records of several attempts and, for those that settle their task, the task's new
   * state, all or nothing. Keyed by task and attempt key, so an attempt that ran again after its
   * worker died replaces its own record instead of adding a second one. On PostgreSQL the whole
   * batch is one statement (atomic on its own: one round trip, one commit); SQLite needs two in a
   * transaction.
   */
  async recordAttempts(entries: Array<{ attempt: AttemptRecord; taskState: HookTaskState | null }>): Promise<void> {
    // One statement may not write the same row twice: the later attempt of a key wins, as it would one after the other.
    const byKey = new Map(entries.map((e) => [`${e.attempt.taskId}#${e.attempt.attemptKey}`, e]));
    const unique = [...byKey.values()];
    if (unique.length === 0) return;
    const columns = ATTEMPT_COLUMNS.map(([c]) => c);
    const values: unknown[] = [];
    const rows = unique.map(({ attempt }) => {
      const placeholders = ATTEMPT_COLUMNS.map(([, k]) => {
        const v = attempt[k];
        values.push(v instanceof Date ? v.getTime() : typeof v === 'boolean' ? (this.db.isPostgres ? v : v ? 1 : 0) : v);
        return this.p(values.length);
      });
      return `(${placeholders.join(', ')})`;
    });
    const updates = columns.filter((c) => c !== 'task_id' && c !== 'attempt_key').map((c) => `${c} = excluded.${c}`);
    const insert = `INSERT INTO hook_delivery (${columns.join(', ')}) VALUES ${rows.join(', ')}
       ON CONFLICT (task_id, attempt_key) DO UPDATE SET ${updates.join(', ')}`;
    const settled = unique.filter((e) => e.taskState !== null);
    if (this.db.isPostgres) {
      if (settled.length === 0) {
        await this.db.manager.query(insert, values);
        return;
      }
      const states = settled.map((e) => {
        values.push(e.attempt.taskId, e.taskState);
        return `(${this.p(values.length - 1)}::integer, ${this.p(values.length)}::varchar)`;
      });
      await this.db.manager.query(
        `WITH attempt AS (${insert} RETURNING id)
         UPDATE hook_task SET state = s.state FROM (VALUES ${states.join(', ')}) AS s(id, state) WHERE hook_task.id = s.id`,
        values,
      );
      return;
    }
    await this.db.transaction(async (m) => {
      await m.query(insert, values);
      for (const e of settled) await this.setTaskState(m, e.attempt.taskId, e.taskState!);
    });
  }

  /** Outcomes of attempts by task and attempt key (`taskId#attemptKey`); keys without a record are absent. */
  async findOutcomes(keys: Array<{ taskId: number; attemptKey: string }>): Promise<Map<string, AttemptRecord['outcome']>> {
    if (keys.length === 0) return new Map();
    const values: unknown[] = [];
    const pairs = keys.map((k) => {
      values.push(k.taskId, k.attemptKey);
      return `(task_id = ${this.p(values.length - 1)} AND attempt_key = ${this.p(values.length)})`;
    });
    const rows = (await this.db.manager.query(
      `SELECT task_id, attempt_key, outcome FROM hook_delivery WHERE ${pairs.join(' OR ')}`,
      values,
    )) as Array<{ task_id: number | string; attempt_key: string; outcome: AttemptRecord['outcome'] }>;
    return new Map(rows.map((r) => [`${Number(r.task_id)}#${r.attempt_key}`, r.outcome]));
  }

  /** Outcomes of a hook's latest finished attempts since `sinceMs`, newest first. */
  async recentOutcomes(hookId: number, sinceMs: number, limit: number): Promise<string[]> {
    const rows = (await this.db.manager.query(
      `SELECT outcome FROM hook_delivery WHERE hook_id = ${this.p(1)} AND delivered_at > ${this.p(2)} AND outcome <> 'sending' ORDER BY id DESC LIMIT ${Number(limit)}`,
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
