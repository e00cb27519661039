import { Injectable } from '@nestjs/common';
import {
  formBool,
  forbidden,
  idFrom,
  invalid,
  notFound,
  pageOf,
  parseQueryTime,
  RepoFactPatterns,
  requireActor,
  type Actor,
  type ListOptions,
  type NotificationCount,
  type NotificationThread,
  type Page,
  type RepoAccess,
  type Repository,
} from '@gitforge/contracts';
import { Database, PlatformConfig, RpcClient } from '@gitforge/platform';
import { NotificationSource, NotificationStatus, type NotificationEntity, type NotificationSourceValue, type NotificationStatusValue } from './notification.entity.js';
import { toNotificationThread } from './notification.mapper.js';
import { NotificationsRepository, type ThreadFilter } from './notifications.repository.js';

/** The query of Gitea's notification routes; `status-types` and `subject-type` may repeat. */
export type NotificationQuery = Partial<Record<'all' | 'since' | 'before' | 'last_read_at' | 'to-status', string>> &
  Partial<Record<'status-types' | 'subject-type', string | string[]>>;

const many = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

const STATUS_NAMES: Record<string, NotificationStatusValue> = { unread: NotificationStatus.unread, read: NotificationStatus.read, pinned: NotificationStatus.pinned };
const SOURCE_NAMES: Record<string, NotificationSourceValue> = {
  issue: NotificationSource.issue,
  pull: NotificationSource.pull,
  commit: NotificationSource.commit,
  repository: NotificationSource.repository,
};

/** Gitea's statusStringToNotificationStatus: unknown names are 0 (the caller's default applies). */
const statusOf = (name: string | undefined): NotificationStatusValue | undefined => STATUS_NAMES[(name ?? '').trim().toLowerCase()];

/** Gitea's statusStringsToNotificationStatuses: the defaults when none is given; unknown names are dropped, and none left filters nothing. */
function statusesOf(query: NotificationQuery, defaults: string[]): NotificationStatusValue[] | undefined {
  if (formBool(query.all)) return undefined;
  const given = many(query['status-types']);
  const statuses = (given.length > 0 ? given : defaults).map(statusOf).filter((s): s is NotificationStatusValue => s !== undefined);
  return statuses.length > 0 ? statuses : undefined;
}

/**
 * Gitea's notification API (routers/api/v1/notify) on the projector's threads. Every thread of
 * the user is listed; what it shows of its repository follows what the user may see now, asked
 * once per request for all the repositories involved: a user who lost access to a repository
 * keeps its threads, without their repository and subject (Gitea's ToNotificationThread).
 */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly db: Database,
    private readonly threads: NotificationsRepository,
    private readonly rpc: RpcClient,
    private readonly config: PlatformConfig,
  ) {}


  /** The repository of `/repos/{owner}/{repo}/notifications`, if the actor may see it (404 otherwise). */
  private async repoId(actor: Actor, repo: { owner?: string; repo?: string }): Promise<number | undefined> {
    if (repo.owner === undefined || repo.repo === undefined) return undefined;
    const access = await this.rpc.call<RepoAccess, { owner: string; repo: string }>(RepoFactPatterns.access, {
      actor,
      params: { owner: repo.owner, repo: repo.repo },
    });
    return access.id;
  }

  /**
   * The repositories of `rows` the user may still see, one call for all of them: Gitea's
   * ToNotificationThread shows a thread's repository and subject only while its user has any
   * access there; after that the thread stays, with neither.
   */
  private async seen(actor: Actor, rows: NotificationEntity[]): Promise<Map<number, Repository>> {
    const ids = [...new Set(rows.map((r) => r.repoId))];
    const access = ids.length
      ? await this.rpc.call<RepoAccess[], Record<string, string>, { ids: number[] }>(RepoFactPatterns.accessMany, { actor, body: { ids } })
      : [];
    return new Map(access.map((a) => [a.id, a.repository]));
  }

  private async toApi(actor: Actor, rows: NotificationEntity[]): Promise<NotificationThread[]> {
    const repos = await this.seen(actor, rows);
    return rows.map((n) => toNotificationThread(n, repos.get(n.repoId) ?? null, this.config.rootUrl));
  }

  /** `GET /notifications` and `GET /repos/{owner}/{repo}/notifications`: unread and pinned unless told otherwise, newest first. */
  async list(actor: Actor | null, repo: { owner?: string; repo?: string }, query: NotificationQuery, options: ListOptions): Promise<Page<NotificationThread>> {
    const a = requireActor(actor);
    const sources = many(query['subject-type'])
      .map((s) => SOURCE_NAMES[s.toLowerCase()])
      .filter((s): s is NotificationSourceValue => s !== undefined);
    const filter: ThreadFilter = {
      userId: a.id,
      repoId: await this.repoId(a, repo),
      statuses: statusesOf(query, ['unread', 'pinned']),
      // Gitea's subjectToSource: unknown types are dropped, and none left filters nothing.
      sources: sources.length > 0 ? sources : undefined,
      since: sinceSecond(parseQueryTime('since', query.since)?.getTime()),
      before: beforeSecondEnd(parseQueryTime('before', query.before)?.getTime()),
    };
    const [rows, total] = await this.threads.page(filter, options);
    return pageOf(await this.toApi(a, rows), total, options);
  }

  /**
   * `PUT /notifications` and the repository's: marks the threads (unread ones unless told
   * otherwise, not those updated after `last_read_at`) with `to-status` (read by default) and
   * answers them as changed.
   */
  async markMany(actor: Actor | null, repo: { owner?: string; repo?: string }, query: NotificationQuery): Promise<NotificationThread[]> {
    const a = requireActor(actor);
    const lastRead = query.last_read_at?.trim() ? parseLastRead(query.last_read_at.trim()) : undefined;
    const filter: ThreadFilter = { userId: a.id, repoId: await this.repoId(a, repo), statuses: statusesOf(query, ['unread']), before: beforeSecondEnd(lastRead) };
    const target = statusOf(query['to-status']) ?? NotificationStatus.read;
    const rows = await this.threads.all(filter);
    const now = new Date();
    await this.db.transaction((m) => this.threads.setStatus(m, rows.map((r) => r.id), target, now));
    return this.toApi(
      a,
      rows.map((r) => Object.assign(r, { status: target, updatedAt: now })),
    );
  }

  /** `GET /notifications/new`: the user's unread threads (Gitea's GetNotificationCount). */
  async countNew(actor: Actor | null): Promise<NotificationCount> {
    const a = requireActor(actor);
    return { new: await this.threads.count({ userId: a.id, statuses: [NotificationStatus.unread] }) };
  }

  /**
   * One thread (Gitea's getThread): 404 for an unknown id, 403 for another user's thread unless the
   * caller is a site administrator; without access to its repository any more, its repository and
   * subject are null.
   */
  private async thread(actor: Actor | null, id: string): Promise<{ row: NotificationEntity; repository: Repository | null }> {
    const a = requireActor(actor);
    const row = idFrom(id) ? await this.threads.findById(idFrom(id)) : null;
    // Gitea's db.ErrNotExist of the notification, its id named when there is one.
    if (!row) throw notFound(idFrom(id) ? `notification does not exist [id: ${idFrom(id)}]` : 'notification does not exist');
    if (row.userId !== a.id && !a.isAdmin) throw forbidden(`only user itself and admin are allowed to read/change this thread ${row.id}`);
    return { row, repository: (await this.seen(a, [row])).get(row.repoId) ?? null };
  }

  async getThread(actor: Actor | null, id: string): Promise<NotificationThread> {
    const { row, repository } = await this.thread(actor, id);
    return toNotificationThread(row, repository, this.config.rootUrl);
  }

  /** `PATCH /notifications/threads/{id}?to-status=` (read by default, as Gitea). */
  async markThread(actor: Actor | null, id: string, toStatus: string | undefined): Promise<NotificationThread> {
    const { row, repository } = await this.thread(actor, id);
    const status = statusOf(toStatus) ?? NotificationStatus.read;
    const now = new Date();
    await this.db.transaction((m) => this.threads.setStatus(m, [row.id], status, now));
    return toNotificationThread(Object.assign(row, { status, updatedAt: now }), repository, this.config.rootUrl);
  }
}

/** `last_read_at` as Gitea's ReadNotifications parses it: RFC 3339, anything else 400; the zero time means none. */
function parseLastRead(value: string): number | undefined {
  const d = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(d.getTime())) {
    throw invalid(`parsing time "${value}" as "2006-01-02T15:04:05Z07:00": cannot parse last_read_at`);
  }
  return d.getTime() <= new Date('0001-01-01T00:00:00Z').getTime() ? undefined : d.getTime();
}

/**
 * Gitea compares these times with updated_unix, in whole seconds, and shows updated_at in whole
 * seconds: `since` takes from the start of its second, `before` and `last_read_at` to the end of
 * theirs, so a time a client was shown includes the thread it was shown on.
 */
const sinceSecond = (ms: number | undefined): number | undefined => (ms === undefined ? undefined : Math.floor(ms / 1000) * 1000);
const beforeSecondEnd = (ms: number | undefined): number | undefined => (ms === undefined ? undefined : Math.floor(ms / 1000) * 1000 + 999);
