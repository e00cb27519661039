import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  formBool,
  parseQueryTime,
  ContractError,
  conflict,
  failedPrecondition,
  forbidden,
  invalid,
  notFound,
  pageOf,
  unprocessable,
  wholeSeconds,
  type Actor,
  type CreateIssueOption,
  type EditDeadlineOption,
  type EditIssueOption,
  type Issue,
  type IssueAssigneesOption,
  type IssueChanges,
  type IssueDeadline,
  type ListOptions,
  type LockIssueOption,
  type NewIssuePinsAllowed,
  type Page,
  type RepoAccess,
  type RepoIssueCounters,
  type User,
  canBeAssigned,
  idFrom,
} from '@gitforge/contracts';
import { Database, DirectoryClient } from '@gitforge/platform';
import {
  canRead,
  canReadIssuesOrPulls,
  canWrite,
  canWriteIssuesOrPulls,
  requireIssuesOrPulls,
  requireNotArchived,
  requireRepoAdmin,
  RepoGate,
} from '../access/repo-gate.js';
import { DependenciesRepository } from '../dependencies/dependencies.repository.js';
import { CommentType } from '../comments/comment-type.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import { deadlineEvent } from '../comments/timeline-events.js';
import { keepOnePerScope } from '../labels/label-scope.js';
import { LabelResolver } from '../labels/label-resolver.js';
import { LabelsRepository } from '../labels/labels.repository.js';
import { MilestonesRepository } from '../milestones/milestones.repository.js';
import { ProjectsRepository } from '../projects/projects.repository.js';
import { PullsRepository } from '../pulls/pulls.repository.js';
import { IssueCounters } from './issue-counters.js';
import { IssueEvents } from './issue-events.js';
import { IssueLoader } from './issue-loader.js';
import { IssueRemoval } from './issue-removal.js';
import { toIssueDeadline } from './issue.mapper.js';
import type { IssueEntity } from './issue.entity.js';
import { IssuesRepository, type IssueFilter } from './issues.repository.js';
import { mentionedLogins } from './mentions.js';
import { CrossReferences } from '../references/cross-references.js';

/** Gitea's `[repository.issue] MAX_PINNED`. */
const MAX_PINNED = 3;

/** The pull request row of an issue being opened, written in its transaction. */
export interface NewPullRow {
  insert(m: EntityManager, issue: IssueEntity): Promise<void>;
}

/** An issue and its repository, after the access checks of the issue routes. */
export interface IssueContext {
  repo: RepoAccess;
  issue: IssueEntity;
}

/** Query parameters of `GET /repos/{o}/{r}/issues`. */
export interface IssueListQuery {
  state?: string;
  labels?: string;
  q?: string;
  type?: string;
  milestones?: string;
  since?: string;
  before?: string;
  created_by?: string;
  assigned_by?: string;
  mentioned_by?: string;
}

/** Query parameters of `GET /repos/issues/search`. */
export interface IssueSearchQuery {
  state?: string;
  labels?: string;
  milestones?: string;
  q?: string;
  priority_repo_id?: string;
  type?: string;
  since?: string;
  before?: string;
  assigned?: string;
  created?: string;
  mentioned?: string;
  review_requested?: string;
  reviewed?: string;
  owner?: string;
  team?: string;
  created_by?: string;
}

/** The last second of the due date's day, as Gitea stores deadlines edited after creation. */
function endOfDay(value: string): Date {
  const d = new Date(value);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 23, 59, 59));
}

/** An issue number from a path: anything that is not a positive integer names no issue. */
export function parseIndex(raw: string | number): number {
  const n = idFrom(raw);
  if (!n) throw notFound();
  return n;
}

@Injectable()
export class IssuesService {
  constructor(
    private readonly db: Database,
    private readonly gate: RepoGate,
    private readonly issues: IssuesRepository,
    private readonly labels: LabelsRepository,
    private readonly milestones: MilestonesRepository,
    private readonly projects: ProjectsRepository,
    private readonly loader: IssueLoader,
    private readonly directory: DirectoryClient,
    private readonly events: IssueEvents,
    private readonly counters: IssueCounters,
    private readonly dependencies: DependenciesRepository,
    private readonly labelResolver: LabelResolver,
    private readonly comments: CommentsRepository,
    private readonly removal: IssueRemoval,
    private readonly pulls: PullsRepository,
    private readonly xrefs: CrossReferences,
  ) {}

  /**
   * The issue `{owner}/{repo}#{index}` if the actor may read it: an invisible repository, a
   * missing issue and one of a unit the actor cannot read all answer 404. `routeCheck`: what the
   * route asks of the caller in the repository before the issue is looked up (Gitea's reqAdmin).
   */
  async issueFor(actor: Actor | null, owner: string, repo: string, index: string | number, routeCheck?: (repo: RepoAccess) => void): Promise<IssueContext> {
    const access = await this.gate.assign(actor, owner, repo);
    requireIssuesOrPulls(access);
    routeCheck?.(access);
    const issue = await this.issues.findByIndex(access.id, parseIndex(index));
    if (!issue || !canReadIssuesOrPulls(access, issue.isPull)) throw notFound();
    return { repo: access, issue };
  }

  /** As {@link issueFor}, for a change: signed in, and not in an archived repository. */
  async issueForWrite(
    actor: Actor | null,
    owner: string,
    repo: string,
    index: string | number,
    routeCheck?: (repo: RepoAccess) => void,
  ): Promise<IssueContext & { actor: Actor }> {
    const a = await this.gate.signedIn(actor, owner, repo);
    const ctx = await this.issueFor(a, owner, repo, index, routeCheck);
    requireNotArchived(ctx.repo);
    return { ...ctx, actor: a };
  }

  async get(actor: Actor | null, owner: string, repo: string, index: string): Promise<Issue> {
    const { repo: access, issue } = await this.issueFor(actor, owner, repo, index);
    return this.loader.one(issue, access, { viewer: actor });
  }

  async create(actor: Actor | null, owner: string, repoName: string, body: CreateIssueOption): Promise<Issue> {
    const a = await this.gate.signedIn(actor, owner, repoName);
    const repo = await this.gate.assign(a, owner, repoName);
    requireIssuesOrPulls(repo);
    requireNotArchived(repo);
    if (!canRead(repo, 'repo.issues') && !repo.isAdmin) {
      throw forbidden('user should have specific read permission or be a repo admin or a site admin');
    }
    // Like Gitea, only writers set labels, a milestone, assignees and a due date; others' are ignored.
    return this.open(a, repo, body, canWrite(repo, 'repo.issues'));
  }

  /**
   * Opens an issue, or with `pull` the issue of a pull request (whose row `pull.insert` writes in
   * the same transaction, before the events), once the caller has checked the repository.
   * `writer` says whether labels, milestone, projects, assignees and due date are taken.
   */
  async open(a: Actor, repo: RepoAccess, body: CreateIssueOption, writer: boolean, pull?: NewPullRow): Promise<Issue> {
    const labels = writer ? await this.labelResolver.resolve(repo, body.labels ?? []) : [];
    // An unknown milestone is dropped, as Gitea's NewIssueWithIndex drops it (a pull's creation checked it already).
    const milestoneId = writer && body.milestone ? ((await this.milestones.findInRepo(repo.id, body.milestone))?.id ?? 0) : 0;
    const projectIds = writer ? await this.resolveProjects(repo, body.projects ?? []) : [];
    const assigneeNames = writer ? [...new Set([...(body.assignee ? [body.assignee] : []), ...(body.assignees ?? [])])] : [];
    const assignees = await this.resolveAssignees(a, repo, assigneeNames, 'unprocessable');
    const mentions = await this.resolveMentions(repo, body.body ?? '');
    const known = await this.loader.users([a.id, ...assignees.map((u) => u.id)]);
    const sender = known.get(a.id)!;
    const result = await this.db.transaction(async (m) => {
      const index = await this.issues.nextIndex(m, repo.id);
      // Taken after the number, so creation times never run against numbers; whole seconds, as
      // Gitea stores them, so issues of one second are listed by number.
      const now = wholeSeconds(new Date());
      const row = await this.issues.insert(m, {
        repoId: repo.id,
        idx: index,
        posterId: a.id,
        title: body.title,
        body: body.body ?? '',
        ref: body.ref ?? '',
        milestoneId,
        isPull: pull !== undefined,
        isClosed: body.closed === true,
        closedAt: body.closed === true ? now : null,
        deadline: writer && body.due_date ? new Date(body.due_date) : null,
        createdAt: now,
        updatedAt: now,
      });
      if (pull) await pull.insert(m, row);
      const kept = keepOnePerScope(labels);
      await this.labels.addToIssue(m, row.id, kept.map((l) => l.id));
      for (const u of assignees) await this.issues.addAssignee(m, row.id, u.id);
      await this.issues.addMentions(m, row.id, mentions);
      for (const projectId of projectIds) await this.projects.placeInDefault(m, projectId, row.id);
      // The history of a new issue, as Gitea's NewIssue writes it: its milestone, labels, assignees.
      const history = { issueId: row.id, posterId: a.id, at: now };
      if (milestoneId) await this.comments.addEvent(m, { ...history, type: CommentType.milestone, refs: { milestoneId } });
      for (const l of kept) await this.comments.addEvent(m, { ...history, type: CommentType.label, content: '1', refs: { labelId: l.id } });
      for (const u of assignees) await this.comments.addEvent(m, { ...history, type: CommentType.assignees, refs: { assigneeId: u.id } });
      if (body.closed === true) await this.comments.addEvent(m, { issueId: row.id, posterId: a.id, type: CommentType.close, at: now });
      const counters = await this.issues.recount(m, repo.id);
      const issue = await this.loader.one(row, repo, { m, known: [...known.values()] });
      const base = { actor: a, issue, repo, sender };
      await this.events.issue(m, 'issue.opened', { ...base, action: 'opened' });
      for (const u of assignees) await this.events.issue(m, 'issue.assigned', { ...base, action: 'assigned', assignee: known.get(u.id) });
      if (labels.length > 0) await this.events.issue(m, 'issue.labeled', { ...base, action: 'label_updated' });
      if (milestoneId) await this.events.issue(m, 'issue.milestoned', { ...base, action: 'milestoned' });
      if (body.closed) await this.events.issue(m, 'issue.closed', { ...base, action: 'closed' });
      return { id: row.id, counters };
    });
    await this.xrefs.add(a, repo, { id: result.id, repoId: repo.id, isPull: pull !== undefined, title: body.title, body: body.body ?? '' }, null, false);
    return this.afterChange(result, repo, a);
  }

  /** `GET /repos/{o}/{r}/issues`: Gitea's ListIssues filters, newest first. */
  async list(actor: Actor | null, owner: string, repoName: string, query: IssueListQuery, options: ListOptions): Promise<Page<Issue>> {
    const repo = await this.gate.assign(actor, owner, repoName);
    const filter = await this.repoFilter(repo, query);
    const [rows, total] = await this.issues.list(filter, options);
    return pageOf(await this.loader.load(rows, new Map([[repo.id, repo]]), { viewer: actor }), total, options);
  }

  /**
   * `GET /repos/issues/search`: issues and pulls of every repository the actor reaches whose
   * unit it can read (optionally of one owner or team), Gitea's filters, priority repository first.
   */
  async search(actor: Actor | null, query: IssueSearchQuery, options: ListOptions): Promise<Page<Issue>> {
    const updatedAfter = parseQueryTime('since', query.since);
    const updatedBefore = parseQueryTime('before', query.before);
    const repos = await this.gate.reachable(actor, { owner: query.owner || undefined, team: query.team || undefined });
    const type = query.type === 'pulls' || query.type === 'issues' ? query.type : undefined;
    const issueRepos = type === 'pulls' ? [] : repos.filter((r) => canRead(r, 'repo.issues')).map((r) => r.id);
    const pullRepos = type === 'issues' ? [] : repos.filter((r) => canRead(r, 'repo.pulls')).map((r) => r.id);
    const filter: IssueFilter = { repoIds: issueRepos, pullRepoIds: pullRepos, isClosed: stateFilter(query.state), updatedAfter, updatedBefore };
    const keyword = (query.q ?? '').trim();
    if (keyword && !keyword.includes('\0')) filter.keyword = keyword;
    const allIds = [...new Set([...issueRepos, ...pullRepos])];
    const labelNames = splitList(query.labels);
    if (labelNames.length > 0) {
      const orgIds = [...new Set(repos.filter((r) => r.ownerKind === 'organization').map((r) => r.ownerId))];
      // Names of no label are discarded, and with none left there is no label filter (Gitea's SearchIssues).
      const ids = await this.labels.idsByNames(allIds, orgIds, labelNames);
      if (ids.length > 0) filter.labelIds = ids;
    }
    const milestoneNames = splitList(query.milestones);
    if (milestoneNames.length > 0) {
      const ids = await this.milestones.idsByNames(allIds, milestoneNames);
      if (ids.length > 0) filter.milestoneIds = ids;
    }
    const [createdBy] = await this.userFilters([query.created_by]);
    if (createdBy !== undefined) filter.posterId = createdBy;
    // The caller's own filters, for signed-in callers only (Gitea ignores them otherwise).
    if (actor) {
      if (formBool(query.created)) filter.posterId = actor.id;
      if (formBool(query.assigned)) filter.assigneeId = actor.id;
      if (formBool(query.mentioned)) filter.mentionedId = actor.id;
      // Not built yet: review_requested and reviewed find nothing for now.
      if (formBool(query.review_requested) || formBool(query.reviewed)) filter.repoIds = filter.pullRepoIds = [];
    }
    const priority = idFrom(query.priority_repo_id);
    const [rows, total] = await this.issues.list(filter, options, priority || undefined);
    return pageOf(await this.loader.load(rows, new Map(repos.map((r) => [r.id, r])), { viewer: actor }), total, options);
  }

  /** The filter of a repository's issue list; Gitea's rules for `type` when a unit is unreadable. */
  async repoFilter(repo: RepoAccess, query: IssueListQuery): Promise<IssueFilter> {
    let isPull: boolean | undefined = query.type === 'pulls' ? true : query.type === 'issues' ? false : undefined;
    if (isPull !== undefined && !canReadIssuesOrPulls(repo, isPull)) throw notFound();
    if (isPull === undefined) {
      const issues = canRead(repo, 'repo.issues');
      const pulls = canRead(repo, 'repo.pulls');
      if (!issues && !pulls) throw notFound();
      if (!issues) isPull = true;
      else if (!pulls) isPull = false;
    }
    const updatedAfter = parseQueryTime('since', query.since);
    const updatedBefore = parseQueryTime('before', query.before);
    const filter: IssueFilter = { repoIds: [repo.id], isPull, isClosed: stateFilter(query.state), updatedAfter, updatedBefore };
    const keyword = (query.q ?? '').trim();
    if (keyword && !keyword.includes('\0')) filter.keyword = keyword;
    const labelNames = splitList(query.labels);
    if (labelNames.length > 0) {
      // Unknown names are discarded, as Gitea does; the issues listed carry every one of the others.
      const ids = await this.labels.idsByNames([repo.id], repo.ownerKind === 'organization' ? [repo.ownerId] : [], labelNames);
      if (ids.length > 0) {
        filter.labelIds = ids;
        filter.labelNamesRequired = new Set((await this.labels.findByIds(ids)).map((l) => l.name)).size;
      }
    }
    const milestones = splitList(query.milestones);
    if (milestones.length > 0) {
      // Names first, then ids; unknown ones are discarded (none left: no filter), as Gitea does.
      const found = await this.milestones.findByNamesOrIds(repo.id, milestones, milestones.map(idFrom).filter((id) => id > 0));
      const ids = milestones
        .map((part) => (found.find((m) => m.name === part) ?? found.find((m) => m.id === idFrom(part)))?.id)
        .filter((id): id is number => id !== undefined);
      if (ids.length > 0) filter.milestoneIds = ids;
    }
    const [createdBy, assignedBy, mentionedBy] = await this.userFilters([query.created_by, query.assigned_by, query.mentioned_by]);
    if (createdBy !== undefined) filter.posterId = createdBy;
    if (assignedBy !== undefined) filter.assigneeId = assignedBy;
    if (mentionedBy !== undefined) filter.mentionedId = mentionedBy;
    return filter;
  }

  /** Usernames of the user filters, one directory call; an unknown one is Gitea's 404. */
  private async userFilters(names: Array<string | undefined>): Promise<Array<number | undefined>> {
    const wanted = names.filter((n): n is string => typeof n === 'string' && n !== '');
    if (wanted.length === 0) return names.map(() => undefined);
    const found = await this.directory.accountsByNames(null, wanted);
    return names.map((name) => {
      if (typeof name !== 'string' || name === '') return undefined;
      const account = found.find((a) => a.login.toLowerCase() === name.toLowerCase());
      if (!account) throw notFound(`user does not exist [uid: 0, name: ${name}]`);
      return account.id;
    });
  }

  async edit(actor: Actor | null, owner: string, repoName: string, index: string, body: EditIssueOption): Promise<Issue> {
    const { repo, issue, actor: a } = await this.issueForWrite(actor, owner, repoName, index);
    const writer = canWriteIssuesOrPulls(repo, issue.isPull);
    // Gitea refuses with a bare 403 (ctx.Status): no body.
    if (issue.posterId !== a.id && !writer) throw ContractError.empty('permission_denied', 'user should have permission to edit the issue');
    // Gitea fails fast on a stale content_version, whatever else the edit asks (409).
    if (body.content_version !== undefined && body.content_version !== null && body.content_version !== issue.contentVersion) {
      throw conflict('the issue is already changed');
    }
    if (body.state !== undefined && body.state !== null) {
      // Gitea's EditIssue: a merged pull keeps its state, whatever is asked; then closeOrReopenIssue knows two states.
      if (issue.isPull && (await this.pulls.findByIssueId(issue.id))?.hasMerged) throw failedPrecondition('cannot change state of this pull request, it was already merged');
      if (body.state !== 'open' && body.state !== 'closed') throw failedPrecondition(`unknown state: ${body.state}`);
    }
    const changes: Partial<IssueEntity> = {};
    const edited: IssueChanges[] = [];
    if (body.title && body.title !== issue.title) {
      changes.title = body.title;
      edited.push({ title: { from: issue.title } });
    }
    if (body.body !== undefined && body.body !== issue.body) {
      changes.body = body.body;
      changes.contentVersion = issue.contentVersion + 1;
      edited.push({ body: { from: issue.body } });
    }
    if (body.ref !== undefined && body.ref !== issue.ref) {
      changes.ref = body.ref;
      edited.push({ ref: { from: issue.ref } });
    }
    if (writer && (body.due_date !== undefined || body.unset_due_date !== undefined)) {
      changes.deadline = body.unset_due_date || !body.due_date ? null : endOfDay(body.due_date);
    }
    let milestoneAction: 'milestoned' | 'demilestoned' | null = null;
    if (writer && body.milestone !== undefined && body.milestone !== issue.milestoneId) {
      changes.milestoneId = body.milestone > 0 ? await this.resolveMilestone(repo, body.milestone) : 0;
      milestoneAction = changes.milestoneId > 0 ? 'milestoned' : 'demilestoned';
    }
    let stateAction: 'closed' | 'reopened' | null = null;
    const now = new Date();
    if (body.state !== undefined && body.state !== null && (body.state === 'closed') !== issue.isClosed) {
      changes.isClosed = body.state === 'closed';
      changes.closedAt = changes.isClosed ? now : null;
      stateAction = changes.isClosed ? 'closed' : 'reopened';
    }
    // GitHub's rule, as Gitea follows it: `assignees` replaces the set, an empty list clears it.
    const replaceAssignees = writer && (body.assignees !== undefined || body.assignee !== undefined);
    const wantedNames = replaceAssignees ? [...new Set([...(body.assignee ? [body.assignee] : []), ...(body.assignees ?? [])])] : [];
    const wanted = replaceAssignees ? await this.resolveAssignees(a, repo, wantedNames, 'unprocessable') : [];
    const mentions = changes.body !== undefined ? await this.resolveMentions(repo, changes.body) : [];
    // `projects` replaces the issue's projects; new ones take it into their default column.
    const wantedProjects = writer && body.projects !== undefined ? await this.resolveProjects(repo, body.projects) : null;
    const onProjects = wantedProjects ? ((await this.projects.projectsOfIssues([issue.id])).get(issue.id) ?? []).map((p) => p.id) : [];
    const joined = wantedProjects ? wantedProjects.filter((id) => !onProjects.includes(id)) : [];
    const left = wantedProjects ? onProjects.filter((id) => !wantedProjects.includes(id)) : [];
    const current = await this.issues.assigneesOf([issue.id]);
    const before = current.get(issue.id) ?? [];
    const added = replaceAssignees ? wanted.filter((u) => !before.includes(u.id)).map((u) => u.id) : [];
    const removed = replaceAssignees ? before.filter((id) => !wanted.some((u) => u.id === id)) : [];
    const known = await this.loader.users([a.id, ...added, ...removed]);
    const sender = known.get(a.id)!;
    const result = await this.db.transaction(async (m) => {
      // Decided again on the row as it is under its lock: two edits at once take turns.
      const locked = await this.issues.lock(m, issue.id);
      if (!locked) throw notFound();
      if (changes.contentVersion !== undefined) {
        if (body.content_version !== undefined && body.content_version !== locked.contentVersion) throw conflict('the issue is already changed');
        changes.contentVersion = locked.contentVersion + 1;
      }
      if (changes.isClosed !== undefined && changes.isClosed === locked.isClosed) {
        delete changes.isClosed;
        delete changes.closedAt;
        stateAction = null;
      }
      if (changes.isClosed) await this.requireNoOpenBlockers(repo, issue, m);
      const anything = Object.keys(changes).length > 0 || added.length > 0 || removed.length > 0 || joined.length > 0 || left.length > 0;
      if (anything) await this.issues.update(m, issue.id, { ...changes, updatedAt: now });
      for (const projectId of joined) await this.projects.placeInDefault(m, projectId, issue.id);
      for (const projectId of left) await this.projects.unplace(m, projectId, issue.id);
      await this.recordEdit(m, a.id, locked, changes, { added, removed }, now);
      if (stateAction) {
        const type = stateAction === 'closed' ? CommentType.close : CommentType.reopen;
        await this.comments.addEvent(m, { issueId: issue.id, posterId: a.id, type, at: now });
      }
      // Gitea's UpdateAssignees takes off those no longer listed first, then adds the new ones.
      for (const id of removed) await this.issues.removeAssignee(m, issue.id, id);
      for (const id of added) await this.issues.addAssignee(m, issue.id, id);
      await this.issues.addMentions(m, issue.id, mentions);
      const counters = changes.isClosed !== undefined ? await this.issues.recount(m, repo.id) : null;
      const row = (await this.issues.findById(issue.id, m))!;
      const api = await this.loader.one(row, repo, { m, known: [...known.values()] });
      const base = { actor: a, issue: api, repo, sender };
      for (const change of edited) await this.events.issue(m, 'issue.edited', { ...base, action: 'edited', changes: change });
      for (const id of removed) await this.events.issue(m, 'issue.assigned', { ...base, action: 'unassigned', assignee: known.get(id) });
      for (const id of added) await this.events.issue(m, 'issue.assigned', { ...base, action: 'assigned', assignee: known.get(id) });
      if (milestoneAction) await this.events.issue(m, 'issue.milestoned', { ...base, action: milestoneAction });
      if (stateAction) await this.events.issue(m, stateAction === 'closed' ? 'issue.closed' : 'issue.reopened', { ...base, action: stateAction });
      return { id: issue.id, counters, text: changes.title !== undefined || changes.body !== undefined ? row : null };
    });
    // Gitea's ChangeTitle and ChangeContent: the references the new text makes replace the old ones.
    if (result.text) await this.xrefs.add(a, repo, result.text, null, true);
    return this.afterChange(result, repo, a);
  }

  /**
   * The history rows of an edit, compared with the row as it was under its lock, in the order of
   * Gitea's EditIssue: title, ref, due date, one row per assignee removed then added, milestone.
   */
  private async recordEdit(
    m: EntityManager,
    posterId: number,
    was: IssueEntity,
    changes: Partial<IssueEntity>,
    assignees: { added: number[]; removed: number[] },
    at: Date,
  ): Promise<void> {
    const base = { issueId: was.id, posterId, at };
    if (changes.title !== undefined && changes.title !== was.title) {
      await this.comments.addEvent(m, { ...base, type: CommentType.change_title, refs: { oldTitle: was.title, newTitle: changes.title } });
    }
    if (changes.ref !== undefined && changes.ref !== was.ref) {
      await this.comments.addEvent(m, { ...base, type: CommentType.change_issue_ref, refs: { oldRef: was.ref, newRef: changes.ref } });
    }
    const deadline = changes.deadline !== undefined ? deadlineEvent(was.deadline, changes.deadline) : null;
    if (deadline) await this.comments.addEvent(m, { ...base, ...deadline });
    for (const id of assignees.removed) {
      await this.comments.addEvent(m, { ...base, type: CommentType.assignees, refs: { assigneeId: id, removedAssignee: true } });
    }
    for (const id of assignees.added) await this.comments.addEvent(m, { ...base, type: CommentType.assignees, refs: { assigneeId: id } });
    if (changes.milestoneId !== undefined && changes.milestoneId !== was.milestoneId) {
      await this.comments.addEvent(m, { ...base, type: CommentType.milestone, refs: { oldMilestoneId: was.milestoneId, milestoneId: changes.milestoneId } });
    }
  }

  /** `DELETE /repos/{o}/{r}/issues/{index}`: repository administrators only (Gitea's reqAdmin). */
  async delete(actor: Actor | null, owner: string, repoName: string, index: string): Promise<void> {
    const { repo, issue, actor: a } = await this.issueForWrite(actor, owner, repoName, index, requireRepoAdmin);
    const api = await this.loader.one(issue, repo);
    const sender = (await this.loader.users([a.id])).get(a.id)!;
    const { counters, files } = await this.db.transaction(async (m) => {
      const files = await this.removal.rows(m, [issue.id]);
      const recounted = await this.issues.recount(m, repo.id);
      await this.events.issue(m, 'issue.deleted', { actor: a, action: 'deleted', issue: api, repo, sender });
      return { counters: recounted, files };
    });
    await this.counters.publish(counters);
    await this.removal.files(files);
  }

  /** Gitea's 412: an issue cannot close while an issue it depends on is open. */
  private async requireNoOpenBlockers(repo: RepoAccess, issue: IssueEntity, m: EntityManager): Promise<void> {
    if (repo.settings.enable_issue_dependencies && (await this.dependencies.hasOpenBlockers(issue.id, m))) {
      throw failedPrecondition(`cannot close this ${issue.isPull ? 'pull request' : 'issue'} because it still has open dependencies`);
    }
  }

  /** `POST …/issues/{index}/deadline`: 201 with the deadline (null removes it). */
  async editDeadline(actor: Actor | null, owner: string, repoName: string, index: string, body: EditDeadlineOption): Promise<IssueDeadline> {
    const { repo, issue, actor: a } = await this.issueForWrite(actor, owner, repoName, index);
    if (!canWriteIssuesOrPulls(repo, issue.isPull)) throw forbidden('Not repo writer');
    const deadline = body.due_date ? endOfDay(body.due_date) : null;
    await this.db.transaction(async (m) => {
      const locked = await this.issues.lock(m, issue.id);
      if (!locked) throw notFound();
      const now = new Date();
      await this.issues.update(m, issue.id, { deadline, updatedAt: now });
      const event = deadlineEvent(locked.deadline, deadline);
      if (event) await this.comments.addEvent(m, { issueId: issue.id, posterId: a.id, at: now, ...event });
    });
    return toIssueDeadline(deadline);
  }

  /** `PUT/DELETE …/issues/{index}/lock` (204): repository administrators who write the issue's unit. */
  async setLocked(actor: Actor | null, owner: string, repoName: string, index: string, locked: boolean, body?: LockIssueOption): Promise<void> {
    // Gitea's lock routes are reqAdmin's; its handler then asks for writers of the issue's unit.
    const { repo, issue, actor: a } = await this.issueForWrite(actor, owner, repoName, index, requireRepoAdmin);
    if (!canWriteIssuesOrPulls(repo, issue.isPull)) throw forbidden(`no permission to ${locked ? 'lock' : 'unlock'} this issue`);
    if (issue.isLocked === locked) return;
    await this.db.transaction(async (m) => {
      const now = new Date();
      await this.issues.update(m, issue.id, { isLocked: locked, updatedAt: now });
      // Gitea keeps the reason in the row's content (none when unlocking).
      const type = locked ? CommentType.lock : CommentType.unlock;
      await this.comments.addEvent(m, { issueId: issue.id, posterId: a.id, type, at: now, content: locked ? (body?.lock_reason ?? '') : '' });
    });
  }

  /** `POST …/issues/{index}/pin` (204): repository administrators; at most MAX_PINNED per kind. */
  async pin(actor: Actor | null, owner: string, repoName: string, index: string): Promise<void> {
    const { repo, issue, actor: a } = await this.issueForWrite(actor, owner, repoName, index, requireRepoAdmin);
    if (issue.pinOrder > 0) return;
    await this.db.transaction(async (m) => {
      const pinned = await this.issues.pinned(m, repo.id, issue.isPull);
      if (pinned.length >= MAX_PINNED) throw invalid('You have reached the max number of pinned Issues');
      await this.issues.update(m, issue.id, { pinOrder: (await this.issues.maxPinOrder(m, repo.id, issue.isPull)) + 1 });
      await this.comments.addEvent(m, { issueId: issue.id, posterId: a.id, type: CommentType.pin, at: new Date() });
    });
  }

  /** `DELETE …/issues/{index}/pin` (204): the ones pinned after it move up. */
  async unpin(actor: Actor | null, owner: string, repoName: string, index: string): Promise<void> {
    const { repo, issue, actor: a } = await this.issueForWrite(actor, owner, repoName, index, requireRepoAdmin);
    if (issue.pinOrder === 0) return;
    await this.db.transaction(async (m) => {
      const rest = (await this.issues.pinned(m, repo.id, issue.isPull)).filter((p) => p.id !== issue.id);
      await this.issues.update(m, issue.id, { pinOrder: 0 });
      await this.comments.addEvent(m, { issueId: issue.id, posterId: a.id, type: CommentType.unpin, at: new Date() });
      for (const [i, p] of rest.entries()) if (p.pinOrder !== i + 1) await this.issues.update(m, p.id, { pinOrder: i + 1 });
    });
  }

  /** `PATCH …/issues/{index}/pin/{position}` (204): moves a pinned issue to a position (1-based). */
  async movePin(actor: Actor | null, owner: string, repoName: string, index: string, position: string): Promise<void> {
    const { repo, issue } = await this.issueForWrite(actor, owner, repoName, index, requireRepoAdmin);
    if (issue.pinOrder === 0) return;
    const target = /^\d{1,9}$/.test(position) ? Number(position) : 0;
    await this.db.transaction(async (m) => {
      const order = (await this.issues.pinned(m, repo.id, issue.isPull)).filter((p) => p.id !== issue.id);
      const at = Math.min(Math.max(target, 1), order.length + 1) - 1;
      order.splice(at, 0, issue);
      for (const [i, p] of order.entries()) if (p.pinOrder !== i + 1 || p.id === issue.id) await this.issues.update(m, p.id, { pinOrder: i + 1 });
    });
  }

  /** `GET /repos/{o}/{r}/issues/pinned` (or pulls/pinned). */
  /** `GET …/new_pin_allowed`: whether each kind is below MAX_PINNED (anyone who sees the repository may ask). */
  async newPinAllowed(actor: Actor | null, owner: string, repoName: string): Promise<NewIssuePinsAllowed> {
    const repo = await this.gate.assign(actor, owner, repoName);
    const [issues, pulls] = await Promise.all([this.issues.pinned(this.db.manager, repo.id, false), this.issues.pinned(this.db.manager, repo.id, true)]);
    return { issues: issues.length < MAX_PINNED, pull_requests: pulls.length < MAX_PINNED };
  }

  async listPinned(actor: Actor | null, owner: string, repoName: string, isPull: boolean): Promise<Issue[]> {
    const repo = await this.gate.assign(actor, owner, repoName);
    if (!canReadIssuesOrPulls(repo, isPull)) {
      throw forbidden('user should have specific read permission or be a repo admin or a site admin');
    }
    const rows = await this.issues.pinned(this.db.manager, repo.id, isPull);
    return this.loader.load(rows, new Map([[repo.id, repo]]), { viewer: actor });
  }

  /**
   * Gitea's CheckIssueAssignee: returns when `name` may be assigned the issue (or pull request),
   * which the caller must be able to read; an unknown user, or one who may not be assigned, is
   * 404, an organization 400.
   */
  async checkAssignee(actor: Actor | null, owner: string, repoName: string, index: string, name: string): Promise<void> {
    const { repo } = await this.issueFor(actor, owner, repoName, index);
    const account = await this.directory.assigneeByName(actor, name, repo.id);
    const [access] = await this.gate.usersAccess(repo.id, [account.id]);
    if (!canBeAssigned(access)) throw notFound();
  }

  /** `POST …/issues/{index}/assignees` (201) and `DELETE` (200): the issue afterwards. */
  async changeAssignees(actor: Actor | null, owner: string, repoName: string, index: string, body: IssueAssigneesOption, add: boolean): Promise<Issue> {
    const { repo, issue, actor: a } = await this.issueForWrite(actor, owner, repoName, index);
    // Gitea refuses with a bare 403 (ctx.Status): no body.
    if (!canWriteIssuesOrPulls(repo, issue.isPull)) throw ContractError.empty('permission_denied', 'user should have permission to change the assignees');
    const names = [...new Set(body.assignees ?? [])];
    const users = add ? await this.resolveAssignees(a, repo, names, 'permission_denied') : await this.requireUsers(names);
    const before = (await this.issues.assigneesOf([issue.id])).get(issue.id) ?? [];
    const changed = users.filter((u) => before.includes(u.id) !== add).map((u) => u.id);
    const known = await this.loader.users([a.id, ...changed]);
    const sender = known.get(a.id)!;
    const result = await this.db.transaction(async (m) => {
      const now = new Date();
      for (const id of changed) {
        if (add) await this.issues.addAssignee(m, issue.id, id);
        else await this.issues.removeAssignee(m, issue.id, id);
        await this.comments.addEvent(m, { issueId: issue.id, posterId: a.id, type: CommentType.assignees, at: now, refs: { assigneeId: id, removedAssignee: !add } });
      }
      if (changed.length > 0) await this.issues.update(m, issue.id, { updatedAt: now });
      const row = (await this.issues.findById(issue.id, m))!;
      const api = await this.loader.one(row, repo, { m, known: [...known.values()] });
      for (const id of changed) {
        await this.events.issue(m, 'issue.assigned', { actor: a, issue: api, repo, sender, action: add ? 'assigned' : 'unassigned', assignee: known.get(id) });
      }
      return { id: issue.id, counters: null };
    });
    return this.afterChange(result, repo, a);
  }

  /** After a committed change: the counts to repo-service, then the issue as it is now. */
  /**
   * Closes issues of `repo` as `actorId` without asking for rights, each with its close event
   * and webhook (`closed`): the pulls whose head repository was deleted (Gitea's
   * CloseRepoBranchesPulls closes them as the deleter). Closed ones are left alone.
   */
  closeAs(actorId: number, repo: RepoAccess, issueIds: number[]): Promise<void> {
    return this.setStateAs(actorId, repo, issueIds, true);
  }

  /**
   * Closes (or reopens) issues of `repo` as `actorId`, whose rights the caller has judged, each
   * with its history row (naming `commitSha`, the commit that closed it, when one did) and its
   * event. Issues already in that state are left alone; with dependencies on, an issue whose
   * blockers are open stays open (Gitea's ChangeIssueStatus refuses it).
   */
  async setStateAs(
    actorId: number,
    repo: RepoAccess,
    issueIds: number[],
    close: boolean,
    commitSha = '',
    /** Written with each issue this closes or reopens, in its transaction, after its row. */
    also?: (m: EntityManager, issueId: number, at: Date) => Promise<void>,
  ): Promise<void> {
    const known = await this.loader.users([actorId]);
    const sender = known.get(actorId);
    if (!sender) return;
    const actor: Actor = { id: actorId, login: sender.login, isAdmin: false, scopes: null };
    const counters = await this.db.transaction(async (m) => {
      const now = new Date();
      let changed = 0;
      for (const id of issueIds) {
        const locked = await this.issues.lock(m, id);
        if (!locked || locked.isClosed === close) continue;
        if (close && repo.settings.enable_issue_dependencies && (await this.dependencies.hasOpenBlockers(id, m))) continue;
        await this.issues.update(m, id, { isClosed: close, closedAt: close ? now : null, updatedAt: now });
        await this.comments.addEvent(m, { issueId: id, posterId: actorId, type: close ? CommentType.close : CommentType.reopen, at: now, refs: { commitSha } });
        if (also) await also(m, id, now);
        const api = await this.loader.one((await this.issues.findById(id, m))!, repo, { m, known: [sender] });
        await this.events.issue(m, close ? 'issue.closed' : 'issue.reopened', { actor, issue: api, repo, sender, action: close ? 'closed' : 'reopened' });
        changed++;
      }
      return changed > 0 ? this.issues.recount(m, repo.id) : null;
    });
    await this.counters.publish(counters);
  }

  private async afterChange(result: { id: number; counters: RepoIssueCounters | null }, repo: RepoAccess, viewer: Actor): Promise<Issue> {
    await this.counters.publish(result.counters);
    const row = await this.issues.findById(result.id);
    if (!row) throw notFound();
    return this.loader.one(row, repo, { viewer });
  }

  private async requireUsers(names: string[]): Promise<User[]> {
    const accounts = await this.directory.requireUsers(null, names);
    return accounts.map((acc) => acc.user);
  }

  /**
   * Assignees by name: unknown names are Gitea's 422; users who cannot be assigned (see
   * canBeAssigned: neither write access to a unit nor read access to pull requests, or inactive)
   * answer `denied` (422 on create and edit, 403 on the assignee routes, as Gitea).
   */
  async resolveAssignees(actor: Actor, repo: RepoAccess, names: string[], denied: 'unprocessable' | 'permission_denied'): Promise<Array<{ id: number }>> {
    if (names.length === 0) return [];
    const accounts = await this.directory.requireUsers(actor, names);
    const access = await this.gate.usersAccess(repo.id, accounts.map((acc) => acc.id));
    for (const account of accounts) {
      if (!canBeAssigned(access.find((x) => x.userId === account.id))) {
        throw new ContractError(denied, `user does not have access to repo [user_id: ${account.id}, repo_name: ${repo.name}]`);
      }
    }
    return accounts.map((acc) => ({ id: acc.id }));
  }

  /** Projects by id an issue of the repository may join (its own, its organization's); others are 422. */
  private async resolveProjects(repo: RepoAccess, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const found = await this.projects.findByIds(ids);
    return [...new Set(ids)].map((id) => {
      const project = found.find((p) => p.id === id);
      const usable =
        project &&
        (project.repoId === repo.id || (project.repoId === 0 && repo.ownerKind === 'organization' && project.ownerId === repo.ownerId));
      if (!usable) throw unprocessable(`project does not exist [id: ${id}]`);
      return project.id;
    });
  }

  async resolveMilestone(repo: RepoAccess, id: number): Promise<number> {
    const milestone = await this.milestones.findInRepo(repo.id, id);
    if (!milestone) throw unprocessable(`milestone does not exist [id: ${id}, repo_id: ${repo.id}]`);
    return milestone.id;
  }

  /** Users mentioned in a body who can read the repository's issues (Gitea's ResolveIssueMentionsByVisibility). */
  async resolveMentions(repo: RepoAccess, text: string): Promise<number[]> {
    const logins = mentionedLogins(text);
    if (logins.length === 0) return [];
    const accounts = (await this.directory.accountsByNames(null, logins)).filter((acc) => acc.kind === 'user' && acc.isActive);
    const access = await this.gate.usersAccess(repo.id, accounts.map((acc) => acc.id));
    return access.filter((x) => x.units['repo.issues'] >= 1 || x.units['repo.pulls'] >= 1).map((x) => x.userId);
  }
}

function stateFilter(state: string | undefined): boolean | undefined {
  if (state === 'closed') return true;
  if (state === 'all') return undefined;
  return false;
}

function splitList(value: string | undefined): string[] {
  if (typeof value !== 'string') return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
