import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  parseQueryTime,
  conflict,
  ContractError,
  forbidden,
  notFound,
  pageOf,
  wholeOrPageOf,
  wholeSeconds,
  type Actor,
  type AddTimeOption,
  type ListOptions,
  type Page,
  type RepoAccess,
  type StopWatch,
  type TrackedTime,
  idFrom,
} from '@gitforge/contracts';
import { Database, DirectoryClient, isUniqueViolation } from '@gitforge/platform';
import { canRead, requireActor, RepoGate } from '../access/repo-gate.js';
import { CommentType } from '../comments/comment-type.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import { IssueLoader } from '../issues/issue-loader.js';
import { IssuesRepository } from '../issues/issues.repository.js';
import { IssuesService, type IssueContext } from '../issues/issues.service.js';
import { toStopWatch, toTrackedTime } from './time.mapper.js';
import { requireStopwatchAccess, requireTimetracker, secToHours, timesOwnerFilter, timetrackerEnabled, trackingDisabled, type TrackedIssue } from './time-tracking.js';
import { TimesRepository, type ReadableRepos, type TimeFilter } from './times.repository.js';
import type { TrackedTimeEntity } from './tracked-time.entity.js';

/** Query parameters of the tracked-time listings. */
export interface TimeListQuery {
  user?: string;
  since?: string;
  before?: string;
}

/** Gitea's tracked times and stopwatches of issues. */
@Injectable()
export class TimesService {
  constructor(
    private readonly db: Database,
    private readonly gate: RepoGate,
    private readonly issuesService: IssuesService,
    private readonly issues: IssuesRepository,
    private readonly times: TimesRepository,
    private readonly loader: IssueLoader,
    private readonly directory: DirectoryClient,
    private readonly comments: CommentsRepository,
  ) {}

  /** `GET …/issues/{index}/times`: tracking off is Gitea's 404 here. */
  async listForIssue(actor: Actor | null, owner: string, repoName: string, index: string, query: TimeListQuery, page: ListOptions): Promise<Page<TrackedTime>> {
    const a = await this.gate.signedIn(actor, owner, repoName);
    const { repo, issue } = await this.issuesService.issueFor(a, owner, repoName, index);
    if (!timetrackerEnabled(repo)) throw notFound('Timetracker is disabled');
    const filter = await this.listFilter(a, repo, query);
    return this.page(a, { ...filter, issueId: issue.id }, page, new Map([[repo.id, repo]]));
  }

  /** Gitea's `/times` group: the repository (404), mustEnableIssues (404), then reqToken (401). */
  private async readableIssuesThenToken(actor: Actor | null, owner: string, repoName: string): Promise<{ repo: RepoAccess; actor: Actor }> {
    const repo = await this.gate.assign(actor, owner, repoName);
    if (!canRead(repo, 'repo.issues')) throw notFound();
    return { repo, actor: requireActor(actor) };
  }

  /** `GET /repos/{o}/{r}/times`: the issue unit must be readable, tracking off is Gitea's 400. */
  async listForRepo(actor: Actor | null, owner: string, repoName: string, query: TimeListQuery, page: ListOptions): Promise<Page<TrackedTime>> {
    const { repo, actor: a } = await this.readableIssuesThenToken(actor, owner, repoName);
    if (!timetrackerEnabled(repo)) throw trackingDisabled();
    const filter = await this.listFilter(a, repo, query);
    return this.page(a, { ...filter, repoId: repo.id }, page, new Map([[repo.id, repo]]));
  }

  /**
   * Deprecated `GET /repos/{owner}/{repo}/times/{user}` (Gitea's ListTrackedTimesByUser): all of
   * one user's times in the repository, unpaged; only that user and administrators may ask.
   */
  async listForRepoUser(actor: Actor | null, owner: string, repoName: string, userName: string): Promise<TrackedTime[]> {
    const { repo, actor: a } = await this.readableIssuesThenToken(actor, owner, repoName);
    if (!timetrackerEnabled(repo)) throw trackingDisabled();
    const [account] = await this.directory.accountsByNames(null, [userName]);
    if (!account || account.kind !== 'user') throw notFound(`user does not exist [uid: 0, name: ${userName}]`);
    if (!repo.isAdmin && !a.isAdmin && a.id !== account.id) throw forbidden('query by user not allowed; not enough rights');
    return (await this.page(a, { userId: account.id, repoId: repo.id }, null, new Map([[repo.id, repo]]))).items;
  }

  /** `GET /user/times`: the caller's own times, in repositories whose issues (or pulls) it can still read. */
  async listForActor(actor: Actor | null, query: TimeListQuery, page: ListOptions): Promise<Page<TrackedTime>> {
    const a = requireActor(actor);
    const createdBefore = parseQueryTime('before', query.before);
    const createdAfter = parseQueryTime('since', query.since);
    const { repos, ...readable } = readableRepos(await this.gate.many(a, await this.times.repoIdsOfUserTimes(a.id)));
    return this.page(a, { userId: a.id, readable, createdAfter, createdBefore }, page, repos);
  }

  /** `POST …/issues/{index}/times` (200): repository and site administrators may log time for someone else. */
  async add(actor: Actor | null, owner: string, repoName: string, index: string, body: AddTimeOption): Promise<TrackedTime> {
    const { repo, issue, actor: a } = await this.issuesService.issueForWrite(actor, owner, repoName, index);
    requireTimetracker(repo, await this.tracked(issue), a);
    const name = body.user_name ?? '';
    const forOther = name !== '' && (a.isAdmin || (repo.isAdmin && name.toLowerCase() !== a.login.toLowerCase()));
    const userId = forOther ? (await this.directory.requireUsers(null, [name]))[0]!.id : a.id;
    // Go clients send the zero time for "now" (AddTimeOption.created has no omitempty); Gitea keeps whole seconds.
    const given = body.created ? new Date(body.created) : null;
    const createdAt = wholeSeconds(given && given.getTime() !== GO_ZERO_TIME ? given : new Date());
    // Transactions answer plain values (a retried request gets its first answer back as JSON).
    const id = await this.db.transaction(async (m) => {
      const inserted = await this.times.insertTime(m, { issueId: issue.id, userId, time: body.time, createdAt });
      // Gitea's AddTime: the row is the time's user's, the seconds kept as `|seconds`.
      await this.record(m, issue, userId, CommentType.add_time_manual, `|${body.time}`, inserted.id);
      return inserted.id;
    });
    const [time] = await this.map(a, [(await this.times.findTime(id))!], new Map([[repo.id, repo]]));
    return time!;
  }

  /** `DELETE …/issues/{index}/times` (204): flags the caller's times on the issue; none (or a zero sum) is 404. */
  async reset(actor: Actor | null, owner: string, repoName: string, index: string): Promise<void> {
    const { repo, issue, actor: a } = await this.issuesService.issueForWrite(actor, owner, repoName, index);
    requireTimetracker(repo, await this.tracked(issue), a);
    await this.db.transaction(async (m) => {
      const removed = await this.times.markDeletedOfUser(m, issue.id, a.id);
      if (removed === 0) throw notFound('tracked_time does not exist');
      await this.record(m, issue, a.id, CommentType.delete_time_manual, `|${removed}`);
    });
  }

  /** `DELETE …/issues/{index}/times/{id}` (204): the time's owner or a site administrator. */
  async delete(actor: Actor | null, owner: string, repoName: string, index: string, id: string): Promise<void> {
    const { repo, issue, actor: a } = await this.issuesService.issueForWrite(actor, owner, repoName, index);
    requireTimetracker(repo, await this.tracked(issue), a);
    const timeId = idFrom(id);
    // Only times of this issue: Gitea looks the id up anywhere, which would reach other repositories.
    const time = timeId > 0 ? await this.times.findTime(timeId) : null;
    if (!time || time.issueId !== issue.id) throw notFound(`tracked_time does not exist [id: ${id}]`);
    if (time.deleted) throw notFound('tracked time was already deleted');
    if (!a.isAdmin && time.userId !== a.id) throw forbidden('only the owner of a tracked time or a site administrator may delete it');
    await this.db.transaction(async (m) => {
      if (!(await this.times.markDeleted(m, time.id))) throw notFound('tracked time was already deleted');
      // Gitea's DeleteTime: the row is the time's owner's, whoever deleted it.
      await this.record(m, issue, time.userId, CommentType.delete_time_manual, `|${time.time}`);
    });
  }

  /** `POST …/stopwatch/start` (201): a stopwatch running on another issue is stopped first, as Gitea does. */
  async startStopwatch(actor: Actor | null, owner: string, repoName: string, index: string): Promise<void> {
    const { issue, actor: a } = await this.stopwatchContext(actor, owner, repoName, index, false);
    try {
      await this.db.transaction(async (m) => {
        for (const other of await this.times.runningStopwatches(m, a.id)) {
          const otherIssue = await this.issues.findById(other.issueId, m);
          if (otherIssue) await this.finish(m, other, otherIssue);
          else await this.times.deleteStopwatch(m, other.id);
        }
        await this.times.insertStopwatch(m, { issueId: issue.id, userId: a.id, createdAt: new Date() });
        await this.record(m, issue, a.id, CommentType.start_tracking);
      });
    } catch (err) {
      // Two starts at once: the one that lost the unique (user, issue) row finds it running.
      if (isUniqueViolation(err)) throw stopwatchRunning();
      throw err;
    }
  }

  /** `POST …/stopwatch/stop` (201): the time since the start becomes a tracked time. */
  async stopStopwatch(actor: Actor | null, owner: string, repoName: string, index: string): Promise<void> {
    const { issue, actor: a } = await this.stopwatchContext(actor, owner, repoName, index, true);
    await this.db.transaction(async (m) => {
      const sw = await this.times.findStopwatch(a.id, issue.id, m);
      if (!sw || !(await this.finish(m, sw, issue))) throw stopwatchMissing();
    });
  }

  /** `DELETE …/stopwatch/delete` (204): drops the stopwatch without tracking anything. */
  async deleteStopwatch(actor: Actor | null, owner: string, repoName: string, index: string): Promise<void> {
    const { issue, actor: a } = await this.stopwatchContext(actor, owner, repoName, index, true);
    await this.db.transaction(async (m) => {
      const sw = await this.times.findStopwatch(a.id, issue.id, m);
      if (!sw) throw stopwatchMissing();
      if (!(await this.times.deleteStopwatch(m, sw.id))) throw stopwatchMissing();
      await this.record(m, issue, a.id, CommentType.cancel_tracking);
    });
  }

  /** `GET /user/stopwatches`: the caller's running stopwatches in repositories it can still read. */
  async listStopwatches(actor: Actor | null, page: ListOptions): Promise<Page<StopWatch>> {
    const a = requireActor(actor);
    const { repos, ...readable } = readableRepos(await this.gate.many(a, await this.times.repoIdsOfUserStopwatches(a.id)));
    const [rows, total] = await this.times.listStopwatches(a.id, readable, page);
    const issues = await this.issues.findByIds(rows.map((r) => r.issueId));
    const now = new Date();
    const items = rows.flatMap((sw) => {
      const issue = issues.find((i) => i.id === sw.issueId);
      const repo = issue ? repos.get(issue.repoId) : undefined;
      return issue && repo ? [toStopWatch(sw, issue, repo, now)] : [];
    });
    return pageOf(items, total, page);
  }

  /** The filter of a repository's (or an issue's) listing: dates, and whose times the caller may see. */
  private async listFilter(actor: Actor, repo: RepoAccess, query: TimeListQuery): Promise<TimeFilter> {
    let requested: number | undefined;
    const name = (query.user ?? '').trim();
    if (name !== '') {
      const [account] = await this.directory.accountsByNames(null, [name]);
      if (!account || account.kind !== 'user') throw notFound(`user does not exist [uid: 0, name: ${name}]`);
      requested = account.id;
    }
    const createdBefore = parseQueryTime('before', query.before);
    const createdAfter = parseQueryTime('since', query.since);
    return { userId: timesOwnerFilter(repo, actor, requested), createdAfter, createdBefore };
  }

  /** One page of times (or all of them) with their issues and users, shown to `viewer`. */
  private async page(viewer: Actor, filter: TimeFilter, page: ListOptions | null, repos: Map<number, RepoAccess>): Promise<Page<TrackedTime>> {
    const [rows, total] = await this.times.listTimes(filter, page);
    const items = await this.map(viewer, rows, repos);
    return page ? pageOf(items, total, page) : wholeOrPageOf(items, total);
  }

  /** Times as Gitea shows them to `viewer`, with the issues of the repositories in `repos`. */
  private async map(viewer: Actor, rows: TrackedTimeEntity[], repos: Map<number, RepoAccess>): Promise<TrackedTime[]> {
    if (rows.length === 0) return [];
    const issues = (await this.issues.findByIds([...new Set(rows.map((r) => r.issueId))])).filter((i) => repos.has(i.repoId));
    const { issues: shown, users } = await this.loader.loadWithUsers(issues, repos, rows.map((r) => r.userId), { viewer });
    const byId = new Map(issues.map((i, n) => [i.id, shown[n]!]));
    return rows.map((r) => toTrackedTime(r, { userName: users.get(r.userId)?.login ?? '', issue: byId.get(r.issueId) ?? null }));
  }

  /** The issue and the checks of Gitea's prepareIssueStopwatch: writers who may track, 409 if the stopwatch is (not) running. */
  private async stopwatchContext(actor: Actor | null, owner: string, repoName: string, index: string, shouldExist: boolean): Promise<IssueContext & { actor: Actor }> {
    const ctx = await this.issuesService.issueForWrite(actor, owner, repoName, index);
    requireStopwatchAccess(ctx.repo, await this.tracked(ctx.issue), ctx.actor);
    const exists = (await this.times.findStopwatch(ctx.actor.id, ctx.issue.id)) !== null;
    if (exists !== shouldExist) {
      throw shouldExist ? stopwatchMissing() : stopwatchRunning();
    }
    return ctx;
  }

  /** Stops a stopwatch: the seconds since its start become a tracked time of the issue; false when another stop took it first. */
  private async finish(m: EntityManager, sw: { id: number; userId: number; createdAt: Date }, issue: IssueEntity): Promise<boolean> {
    const now = wholeSeconds(new Date());
    const seconds = Math.max(0, Math.floor((now.getTime() - sw.createdAt.getTime()) / 1000));
    // Taken first: of two stops at once, one finds it gone and tracks nothing.
    if (!(await this.times.deleteStopwatch(m, sw.id))) return false;
    const time = await this.times.insertTime(m, { issueId: issue.id, userId: sw.userId, time: seconds, createdAt: now });
    // Gitea's finishIssueStopwatch keeps the time as SecToHours writes it, not as `|seconds`.
    await this.record(m, issue, sw.userId, CommentType.stop_tracking, secToHours(seconds), time.id);
    return true;
  }

  /**
   * Gitea records every time-tracking change as a row of the issue's timeline (start_tracking,
   * stop_tracking, add_time_manual, cancel_tracking, delete_time_manual), which moves the issue's
   * `updated_at`. No event: Gitea notifies nobody of these.
   */
  private async record(m: EntityManager, issue: IssueEntity, posterId: number, type: TimeTrackingRow, content = '', timeId = 0): Promise<void> {
    const at = new Date();
    await this.comments.addEvent(m, { issueId: issue.id, posterId, type, at, content, refs: { timeId } });
    await this.issues.update(m, issue.id, { updatedAt: at });
  }

  private async tracked(issue: IssueEntity): Promise<TrackedIssue> {
    const assignees = await this.issues.assigneesOf([issue.id]);
    return { isPull: issue.isPull, posterId: issue.posterId, assigneeIds: assignees.get(issue.id) ?? [] };
  }
}

type TimeTrackingRow =
  | typeof CommentType.start_tracking
  | typeof CommentType.stop_tracking
  | typeof CommentType.add_time_manual
  | typeof CommentType.cancel_tracking
  | typeof CommentType.delete_time_manual;

/** Go's zero time.Time, `0001-01-01T00:00:00Z`. */
const GO_ZERO_TIME = Date.parse('0001-01-01T00:00:00Z');


const stopwatchMissing = (): ContractError => conflict('cannot stop/cancel a non existent stopwatch');
const stopwatchRunning = (): ContractError => conflict('cannot start a stopwatch again if it already exists');

/** The repositories among `repos` whose issues, and whose pulls, the caller reads. */
function readableRepos(repos: RepoAccess[]): ReadableRepos & { repos: Map<number, RepoAccess> } {
  return {
    issues: repos.filter((r) => canRead(r, 'repo.issues')).map((r) => r.id),
    pulls: repos.filter((r) => canRead(r, 'repo.pulls')).map((r) => r.id),
    repos: new Map(repos.map((r) => [r.id, r])),
  };
}
