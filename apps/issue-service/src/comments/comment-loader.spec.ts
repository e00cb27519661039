import { AccessMode, type Actor, type Issue, type RepoAccess, type Team, type User } from '@gitforge/contracts';
import type { DirectoryClient } from '@gitforge/platform';
import type { RepoGate } from '../access/repo-gate.js';
import type { AttachmentsRepository } from '../attachments/attachments.repository.js';
import type { IssueServiceConfig } from '../issue.config.js';
import type { IssueLoader } from '../issues/issue-loader.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import type { IssuesRepository } from '../issues/issues.repository.js';
import type { LabelEntity } from '../labels/label.entity.js';
import type { LabelsRepository } from '../labels/labels.repository.js';
import type { MilestoneEntity } from '../milestones/milestone.entity.js';
import type { MilestonesRepository } from '../milestones/milestones.repository.js';
import type { TimesRepository } from '../times/times.repository.js';
import type { TrackedTimeEntity } from '../times/tracked-time.entity.js';
import { CommentLoader } from './comment-loader.js';
import { CommentType } from './comment-type.js';
import type { CommentEntity } from './comment.entity.js';
import type { CommentsRepository } from './comments.repository.js';

const access = (id: number, units: number): RepoAccess =>
  ({
    id,
    ownerLogin: 'alice',
    repository: { html_url: `http://forge/alice/r${id}`, url: `http://forge/api/v1/repos/alice/r${id}` },
    units: { 'repo.issues': units, 'repo.pulls': units },
    settings: { has_issues: true, has_pull_requests: true },
  }) as unknown as RepoAccess;
const home = access(1, AccessMode.read);
const open = access(2, AccessMode.read);
const closed = access(3, AccessMode.none);
const actor: Actor = { id: 5, login: 'eve', isAdmin: false, scopes: null };

let nextId = 100;
const event = (type: number, refs: Partial<CommentEntity>): CommentEntity =>
  ({
    id: nextId++,
    type,
    issueId: 10,
    posterId: 5,
    content: '',
    labelId: 0,
    oldMilestoneId: 0,
    milestoneId: 0,
    assigneeId: 0,
    removedAssignee: false,
    oldTitle: '',
    newTitle: '',
    oldRef: '',
    newRef: '',
    dependentIssueId: 0,
    assigneeTeamId: 0,
    reviewId: 0,
    resolveDoerId: 0,
    refRepoId: 0,
    refIssueId: 0,
    refCommentId: 0,
    refAction: 0,
    refIsPull: false,
    timeId: 0,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...refs,
  }) as CommentEntity;

/** Fakes counting every call; each has only the methods the loader may call. */
function setup() {
  const calls: string[] = [];
  const issueRow = (id: number, repoId: number): IssueEntity =>
    ({ id, repoId, idx: id, isPull: false }) as IssueEntity;
  const sut = new CommentLoader(
    {
      loadWithUsers: async (rows: IssueEntity[], repos: Map<number, RepoAccess>, userIds: number[]) => {
        calls.push(`users+issues ${rows.map((r) => r.id).join(',')} / ${[...new Set(userIds)].join(',')}`);
        expect(rows.every((r) => repos.has(r.repoId))).toBe(true);
        const users = new Map(userIds.map((id) => [id, { id, login: `u${id}` } as User]));
        return { issues: rows.map((r) => ({ id: r.id, number: r.idx }) as Issue), users };
      },
    } as unknown as IssueLoader,
    {} as AttachmentsRepository,
    { rootUrl: 'http://forge/' } as IssueServiceConfig,
    {
      findByIds: async (ids: number[]) => {
        calls.push(`labels ${ids.join(',')}`);
        return ids.map(
          (id) => ({ id, name: `l${id}`, repoId: 1, color: '#00aa00', archivedAt: null }) as LabelEntity,
        );
      },
    } as unknown as LabelsRepository,
    {
      findByIds: async (ids: number[]) => {
        calls.push(`milestones ${ids.join(',')}`);
        return ids.map(
          (id) =>
            ({
              id,
              name: `m${id}`,
              isClosed: false,
              createdAt: new Date(0),
              updatedAt: new Date(0),
            }) as MilestoneEntity,
        );
      },
      counts: async (ids: number[]) => {
        calls.push(`counts ${ids.join(',')}`);
        return new Map(ids.map((id) => [id, { open: id, closed: 0 }]));
      },
    } as unknown as MilestonesRepository,
    {
      findByIds: async (ids: number[]) => {
        calls.push(`issues ${ids.join(',')}`);
        return [issueRow(20, 1), issueRow(21, 2), issueRow(22, 3)].filter((r) => ids.includes(r.id));
      },
      findById: async (id: number) => {
        calls.push(`issue ${id}`);
        return issueRow(id, 1);
      },
    } as unknown as IssuesRepository,
    {
      many: async (a: Actor | null, ids: number[]) => {
        expect(a).toBe(actor);
        calls.push(`repos ${ids.join(',')}`);
        return [open, closed].filter((r) => ids.includes(r.id));
      },
    } as unknown as RepoGate,
    {
      teams: async (orgId: number, filter: { ids: number[] }) => {
        calls.push(`teams ${orgId} ${filter.ids.join(',')}`);
        return filter.ids.map((id) => ({ id, orgId, name: `t${id}`, team: { id, name: `t${id}` } as Team }));
      },
    } as unknown as DirectoryClient,
    {} as CommentsRepository,
    {
      findTimesOfIssue: async (issueId: number, ids: number[]) => {
        if (ids.length > 0) calls.push(`times ${issueId} ${ids.join(',')}`);
        return ids.map((id) => ({ id, issueId, userId: 6, time: 5400, createdAt: new Date(1000), deleted: id === 31 }) as TrackedTimeEntity);
      },
    } as unknown as TimesRepository,
  );
  return { sut, calls };
}

describe(CommentLoader.name, () => {
  it('should load what a page of history rows refers to with one call per kind, not per row', async () => {
    const { sut, calls } = setup();
    const rows = [
      event(CommentType.label, { labelId: 1, content: '1' }),
      event(CommentType.label, { labelId: 2 }),
      event(CommentType.milestone, { oldMilestoneId: 3, milestoneId: 4 }),
      event(CommentType.milestone, { oldMilestoneId: 4, milestoneId: 0 }),
      event(CommentType.assignees, { assigneeId: 7 }),
      event(CommentType.assignees, { assigneeId: 8, removedAssignee: true }),
      event(CommentType.add_dependency, { dependentIssueId: 20 }),
      event(CommentType.add_dependency, { dependentIssueId: 21 }),
      event(CommentType.remove_dependency, { dependentIssueId: 22 }),
    ];
    const out = await sut.timeline(rows, { idx: 10, isPull: false }, home, actor);
    expect(calls.sort()).toEqual([
      'counts 4,3',
      'issues 20,21,22',
      'labels 1,2',
      'milestones 4,3',
      'repos 2,3',
      'users+issues 20,21 / 5,7,8',
    ]);
    expect(out.map((t) => t.type)).toEqual([
      'label',
      'label',
      'milestone',
      'milestone',
      'assignees',
      'assignees',
      'add_dependency',
      'add_dependency',
      'remove_dependency',
    ]);
    expect(out[0]).toMatchObject({
      body: '1',
      label: { id: 1, color: '00aa00', url: 'http://forge/api/v1/repos/alice/r1/labels/1' },
    });
    expect(out[2]).toMatchObject({
      old_milestone: { id: 3, open_issues: 3 },
      milestone: { id: 4, title: 'm4' },
    });
    expect(out[3]).toMatchObject({ old_milestone: { id: 4 }, milestone: null });
    expect(out[5]).toMatchObject({ assignee: { login: 'u8' }, removed_assignee: true });
    expect(out.slice(6).map((t) => t.dependent_issue?.number ?? null)).toEqual([20, 21, null]);
    expect(out[0]).toMatchObject({ user: { login: 'u5' }, assignee: null, dependent_issue: null });
  });

  it('should look up no dependent issues or repositories when the page names none (the other lookups get empty lists)', async () => {
    const { sut, calls } = setup();
    await sut.timeline(
      [event(CommentType.lock, { content: 'spam' })],
      { idx: 10, isPull: false },
      home,
      null,
    );
    expect(calls.sort()).toEqual(['counts ', 'labels ', 'milestones ', 'users+issues  / 5']);
  });

  it('should show review requests with their user or team, and the review a row belongs to', async () => {
    const { sut, calls } = setup();
    const org = { ...home, ownerKind: 'organization', ownerId: 9 } as RepoAccess;
    const rows = [
      event(CommentType.review_request, { assigneeId: 7 }),
      event(CommentType.review_request, { assigneeTeamId: 3, removedAssignee: true }),
      event(CommentType.review, { reviewId: 12, content: 'looks good' }),
    ];
    const out = await sut.timeline(rows, { idx: 10, isPull: true }, org, actor);
    expect(out.map((c) => c.type)).toEqual(['review_request', 'review_request', 'review']);
    expect(out[0]).toMatchObject({ assignee: { id: 7 }, assignee_team: null, removed_assignee: false });
    expect(out[1]).toMatchObject({ assignee: null, assignee_team: { id: 3, name: 't3' }, removed_assignee: true });
    expect(out[2]).toMatchObject({ review_id: 12, body: 'looks good' });
    expect(calls.filter((c) => c.startsWith('teams'))).toEqual(['teams 9 3']);
  });

  it('should show time-tracking rows with the time they tracked (deleted ones too) and their seconds as hours and minutes', async () => {
    const { sut, calls } = setup();
    const rows = [
      event(CommentType.add_time_manual, { timeId: 30, content: '|5400' }),
      event(CommentType.stop_tracking, { timeId: 31, content: '1 minute', posterId: 6 }),
      event(CommentType.start_tracking, {}),
      event(CommentType.delete_time_manual, { content: '|90' }),
      // Written before the seconds were kept (Gitea before 1.21): shown as it is.
      event(CommentType.add_time_manual, { content: '2 hours' }),
    ];
    const out = await sut.timeline(rows, { idx: 10, isPull: false }, home, actor);
    expect(calls.filter((c) => c.startsWith('times') || c.startsWith('issue ') || c.startsWith('users'))).toEqual(['times 10 30,31', 'issue 10', 'users+issues 10 / 5,6']);
    expect(out.map((t) => [t.type, t.body, t.tracked_time?.id ?? null])).toEqual([
      ['add_time_manual', '1 hour 30 minutes', 30],
      ['stop_tracking', '1 minute', 31],
      ['start_tracking', '', null],
      ['delete_time_manual', '1 minute', null],
      ['add_time_manual', '2 hours', null],
    ]);
    expect(out[0]!.tracked_time).toEqual({ id: 30, created: '1970-01-01T00:00:01Z', time: 5400, user_id: 6, user_name: 'u6', issue_id: 10, issue: { id: 10, number: 10 } });
  });
});
