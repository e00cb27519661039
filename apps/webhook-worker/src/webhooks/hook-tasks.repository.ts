import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database, type SqlCast } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import type { QueuedTask } from './delivery-queue.js';
import { HookDeliveryEntity, HookTaskEntity, type HookTaskState } from './hook-task.entity.js';

export type NewTask = Pick<HookTaskEntity, 'hookId' | 'eventId' | 'uuid' | 'eventType' | 'payload' | 'repoId'> & { batch: string };
export type AttemptRecord = Omit<HookDeliveryEntity, 'id'>;

/** A task a delivery job is about to attempt, and what is recorded of that attempt already. */
export interface TaskAttempt {
  /** The task with its payload (its own, or its batch's). */
  task: HookTaskEntity;
  /** The recorded outcome of the attempt (by job and attempt number): null if it never started. */
  previous: AttemptRecord['outcome'] | null;
  /** The payload's `action`, when its caller has the payload as an object already (its fan-out); read from the payload otherwise. */
  action?: string | null;
}

/** A task as its fan-out knows it: everything but the payload, which it holds already. */
export type StoredTask = Omit<HookTaskEntity, 'payload'>;
/** A task {@link HookTasksRepository.insertTasks} answers: `fresh` when that call made it (it holds the payload asked, and no attempt yet). */
export type InsertedTask = StoredTask & { fresh: boolean };
/** A pending task as the sweep at start reads it: what queuing it needs, and its event. */
export type PendingTask = QueuedTask & Pick<HookTaskEntity, 'eventId'>;

const STORED_COLUMNS = 'id, hook_id, event_id, uuid, event_type, repo_id, state, batch, created_at';
/** Columns a new task is written with (its own payload empty: it is its batch's, in hook_payload). */
const TASK_COLUMNS = 'hook_id, event_id, uuid, event_type, payload, repo_id, state, batch, created_at';
const TASK_TYPES: SqlCast[] = ['integer', 'varchar', 'varchar', 'varchar', 'text', 'integer', 'varchar', 'varchar', 'bigint'];
const PAYLOAD_COLUMNS = 'batch, event_id, payload, created_at';
const PAYLOAD_TYPES: SqlCast[] = ['varchar', 'varchar', 'text', 'bigint'];
type TaskRow = Record<string, string | number | null>;

/** A hook_task row read with raw SQL (the hot paths skip TypeORM's query building). */
function toStored(r: TaskRow): StoredTask {
  return {
    id: Number(r.id),
    hookId: Number(r.hook_id),
    eventId: String(r.event_id),
    uuid: String(r.uuid),
    eventType: String(r.event_type),
    repoId: r.repo_id === null ? null : Number(r.repo_id),
    state: r.state as HookTaskState,
    batch: r.batch === null ? null : String(r.batch),
    createdAt: new Date(Number(r.created_at)),
  };
}

/** Columns of hook_delivery in insert order, with their PostgreSQL types. */
const ATTEMPT_COLUMNS: Array<[column: string, key: keyof AttemptRecord, type: SqlCast]> = [
  ['task_id', 'taskId', 'integer'],
  ['hook_id', 'hookId', 'integer'],
  ['attempt_key', 'attemptKey', 'varchar'],
  ['guid', 'guid', 'varchar'],
  ['event_type', 'eventType', 'varchar'],
  ['action', 'action', 'varchar'],
  ['repo_id', 'repoId', 'integer'],
  ['redelivery', 'redelivery', 'boolean'],
  ['url', 'url', 'text'],
  ['request_headers', 'requestHeaders', 'text'],
  ['request_body', 'requestBody', 'text'],
  ['response_status', 'responseStatus', 'integer'],
  ['response_headers', 'responseHeaders', 'text'],
  ['response_body', 'responseBody', 'text'],
  ['duration_ms', 'durationMs', 'integer'],
  ['outcome', 'outcome', 'varchar'],
  ['status_text', 'statusText', 'text'],
  ['delivered_at', 'deliveredAt', 'bigint'],
];

@Injectable()
export class HookTasksRepository {
  constructor(private readonly db: Database) {}

  private p(i: number): string {
    return this.db.sql.param(i);
  }

  /**
   * Creates the tasks (of one event or several) that do not exist yet (unique on hook and event,
   * so a replayed event adds nothing) and answers every task asked for, new or not, by id. The
   * tasks of a batch share one payload (the first task's of the batch stands for them), stored
   * once for the batch when any of its tasks is new, and never read back. On PostgreSQL one
   * statement (its outer SELECT sees the rows that existed before it, the CTE those it inserted);
   * SQLite needs its inserts and a read in one transaction.
   */
  async insertTasks(asked: NewTask[]): Promise<InsertedTask[]> {
    // One statement inserts a (hook, event) once: the first ask of a pair stands for the others.
    const firsts = new Map<string, NewTask>();
    for (const t of asked) if (!firsts.has(`${t.hookId}#${t.eventId}`)) firsts.set(`${t.hookId}#${t.eventId}`, t);
    const tasks = [...firsts.values()];
    if (tasks.length === 0) return [];
    const batches = new Map<string, NewTask>();
    for (const t of tasks) if (!batches.has(t.batch)) batches.set(t.batch, t);
    const now = Date.now();
    const params = this.db.sql.params();
    const taskRows = tasks.map((t) => [t.hookId, t.eventId, t.uuid, t.eventType, '', t.repoId, 'pending', t.batch, now]);
    const payloadRows = (only: Set<string> | null) => [...batches.values()].filter((t) => !only || only.has(t.batch)).map((t) => [t.batch, t.eventId, t.payload, now]);
    if (this.db.sql.writableCte) {
      const newTasks = params.relation(TASK_TYPES, taskRows);
      const newPayloads = params.relation(PAYLOAD_TYPES, payloadRows(null));
      const found = await this.db.query<TaskRow & { fresh: boolean }>(
        `WITH v(${TASK_COLUMNS}) AS (${newTasks}),
         b(${PAYLOAD_COLUMNS}) AS (${newPayloads}),
         inserted AS (
           INSERT INTO hook_task (${TASK_COLUMNS}) SELECT * FROM v
           ON CONFLICT (hook_id, event_id) DO NOTHING
           RETURNING ${STORED_COLUMNS}),
         stored AS (
           INSERT INTO hook_payload (${PAYLOAD_COLUMNS}) SELECT * FROM b WHERE b.batch IN (SELECT batch FROM inserted)
           ON CONFLICT (batch) DO NOTHING)
         SELECT *, true AS fresh FROM inserted
         UNION ALL SELECT ${STORED_COLUMNS}, false FROM hook_task WHERE (hook_id, event_id) IN (SELECT hook_id, event_id FROM v)`,
        params.values,
        { prepared: true },
      );
      return found.map((r) => ({ ...toStored(r), fresh: r.fresh })).sort((a, b) => a.id - b.id);
    }
    // SQLite: the inserts and a read in one transaction.
    const { found, inserted } = await this.db.transaction(async (m) => {
      const made = (await m.query(
        `INSERT INTO hook_task (${TASK_COLUMNS}) ${params.relation(TASK_TYPES, taskRows)} ON CONFLICT (hook_id, event_id) DO NOTHING RETURNING id, batch`,
        params.values,
      )) as Array<{ id: number; batch: string }>;
      const freshBatches = payloadRows(new Set(made.map((r) => r.batch)));
      if (freshBatches.length > 0) {
        const payloads = this.db.sql.params();
        await m.query(`INSERT INTO hook_payload (${PAYLOAD_COLUMNS}) ${payloads.relation(PAYLOAD_TYPES, freshBatches)} ON CONFLICT (batch) DO NOTHING`, payloads.values);
      }
      const pairs = this.db.sql.params();
      const stored = (await m.query(
        `SELECT ${STORED_COLUMNS} FROM hook_task WHERE (hook_id, event_id) IN (${tasks.map((t) => `(${pairs.add(t.hookId)}, ${pairs.add(t.eventId)})`).join(', ')})`,
        pairs.values,
      )) as TaskRow[];
      return { found: stored, inserted: new Set(made.map((r) => Number(r.id))) };
    });
    return found.map((r) => ({ ...toStored(r), fresh: inserted.has(Number(r.id)) })).sort((a, b) => a.id - b.id);
  }

  /**
   * The tasks a batch of delivery jobs is about to attempt, each with the outcome already recorded
   * for its attempt key (null if none: the attempt was never made), in one query. Keyed
   * `taskId#attemptKey`; absent tasks are left out. The tasks of a batch share their payload: it
   * is read once for them.
   */
  async findTaskAttempts(keys: Array<{ taskId: number; attemptKey: string }>): Promise<Map<string, TaskAttempt>> {
    if (keys.length === 0) return new Map();
    const params = this.db.sql.params();
    const wanted = params.relation(
      ['integer', 'varchar'],
      keys.map((k) => [k.taskId, k.attemptKey]),
    );
    const columns = STORED_COLUMNS.split(', ').map((c) => `t.${c}`).join(', ');
    // Tasks share a payload by batch (stored once for it, or on each task made before payloads
    // were); a task without a batch has its own. The payload comes on the first row of each.
    const rows = (await this.db.manager.query(
      `WITH k(task_id, attempt_key) AS (${wanted}),
       r AS (
         SELECT ${columns}, k.attempt_key AS attempt_key, d.outcome AS previous, COALESCE(NULLIF(t.payload, ''), p.payload) AS payload, COALESCE(t.batch, '#' || t.id) AS payload_group
         FROM k JOIN hook_task t ON t.id = k.task_id
         LEFT JOIN hook_payload p ON p.batch = t.batch
         LEFT JOIN hook_delivery d ON d.task_id = k.task_id AND d.attempt_key = k.attempt_key)
       SELECT ${STORED_COLUMNS}, attempt_key, previous, payload_group,
         CASE WHEN row_number() OVER (PARTITION BY payload_group ORDER BY id, attempt_key) = 1 THEN payload END AS payload
       FROM r`,
      params.values,
    )) as Array<TaskRow & { attempt_key: string; previous: AttemptRecord['outcome'] | null; payload: string | null; payload_group: string }>;
    const payloads = new Map<string, string>();
    for (const r of rows) if (r.payload !== null) payloads.set(r.payload_group, r.payload);
    // A task whose payload is gone (its batch's, removed with its last task) has nothing to send: left out like a task gone.
    return new Map(
      rows.flatMap((r) => {
        const payload = payloads.get(r.payload_group);
        if (payload === undefined) return [];
        const task = { ...toStored(r), payload };
        return [[`${task.id}#${r.attempt_key}`, { task, previous: r.previous ?? null }] as const];
      }),
    );
  }

  /** The pending tasks of these events, by id: what earlier runs of their jobs left to send. */
  async findPendingOfEvents(eventIds: string[]): Promise<StoredTask[]> {
    if (eventIds.length === 0) return [];
    const params = this.db.sql.params();
    const ids = eventIds.map((id) => params.add(id)).join(', ');
    const rows = (await this.db.manager.query(`SELECT ${STORED_COLUMNS} FROM hook_task WHERE event_id IN (${ids}) AND state = 'pending' ORDER BY id`, params.values)) as TaskRow[];
    return rows.map(toStored);
  }

  /** A task's payload (null when the task is gone). */
  async findPayload(taskId: number): Promise<string | null> {
    const rows = (await this.db.manager.query(
      `SELECT COALESCE(NULLIF(t.payload, ''), p.payload) AS payload FROM hook_task t LEFT JOIN hook_payload p ON p.batch = t.batch WHERE t.id = ${this.p(1)}`,
      [taskId],
    )) as Array<{ payload: string | null }>;
    return rows[0]?.payload ?? null;
  }

  /**
   * Pending tasks after `afterId`, by id, with what queuing them needs and their event. Read once at
   * the worker's start, along the ids: no index on the state, which every delivery would write to.
   */
  findPendingTasks(afterId: number, limit: number): Promise<PendingTask[]> {
    return this.db.manager
      .createQueryBuilder(HookTaskEntity, 't')
      .select(['t.id', 't.batch', 't.eventType', 't.eventId'])
      .where('t.state = :state AND t.id > :afterId', { state: 'pending', afterId })
      .orderBy('t.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  async setTaskState(manager: EntityManager, id: number, state: HookTaskState): Promise<void> {
    await manager.query(`UPDATE hook_task SET state = ${this.p(1)} WHERE id = ${this.p(2)}`, [state, id]);
  }

  /**
   * Records finished attempts, each with the request sent and the answer, and for those that
   * settle their task the task's new state, once the answers are in: one row per attempt, written
   * once. Keyed by task and attempt key, so an attempt made again after its worker died (its
   * answer never recorded) writes its record, not a second one. On PostgreSQL one statement
   * (atomic on its own: one round trip, one commit); SQLite needs an insert and the task updates
   * in one transaction.
   */
  async recordAttempts(entries: Array<{ attempt: AttemptRecord; taskState: HookTaskState | null }>): Promise<void> {
    // One statement may not write the same row twice: the later attempt of a key wins, as it would one after the other.
    const unique = [...new Map(entries.map((e) => [`${e.attempt.taskId}#${e.attempt.attemptKey}`, e])).values()];
    if (unique.length === 0) return;
    const params = this.db.sql.params();
    const rows = unique.map(({ attempt }) =>
      ATTEMPT_COLUMNS.map(([, k]) => {
        const v = attempt[k];
        return v instanceof Date ? v.getTime() : v;
      }),
    );
    const names = ATTEMPT_COLUMNS.map(([c]) => c);
    const insert = `INSERT INTO hook_delivery (${names.join(', ')}) ${params.relation(
      ATTEMPT_COLUMNS.map(([, , type]) => type),
      rows,
    )}
      ON CONFLICT (task_id, attempt_key) DO UPDATE SET ${names
        .filter((c) => c !== 'task_id' && c !== 'attempt_key')
        .map((c) => `${c} = excluded.${c}`)
        .join(', ')}`;
    const settled = unique.filter((e) => e.taskState !== null).map((e) => [e.attempt.taskId, e.taskState] as const);
    if (this.db.sql.writableCte) {
      const states = params.relation(['integer', 'varchar'], settled);
      await this.db.write(
        `WITH recorded AS (${insert}),
         s(id, state) AS (${states})
         UPDATE hook_task SET state = s.state FROM s WHERE hook_task.id = s.id`,
        params.values,
        { prepared: true },
      );
      return;
    }
    await this.db.transaction(async (m) => {
      await m.query(insert, params.values);
      for (const [id, state] of settled) await this.setTaskState(m, id, state!);
    });
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
