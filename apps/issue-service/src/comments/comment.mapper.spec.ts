import type { Issue, Label, Milestone, RepoAccess, User } from '@gitforge/contracts';
import type { CommentEntity } from './comment.entity.js';
import { toComment, toTimelineComment } from './comment.mapper.js';

const repo = {
  repository: { html_url: 'http://forge/alice/talk', url: 'http://forge/api/v1/repos/alice/talk' },
} as RepoAccess;
const poster = { id: 3, login: 'carol' } as User;
const row = (type: number): CommentEntity =>
  ({
    id: 42,
    type,
    issueId: 1,
    posterId: 3,
    originalAuthor: '',
    originalAuthorId: 0,
    content: 'hello',
    contentVersion: 0,
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
    createdAt: new Date('2026-01-02T03:04:05.678Z'),
    updatedAt: new Date('2026-01-02T03:04:06.000Z'),
  }) as CommentEntity;

describe(toComment.name, () => {
  it("should link an issue's comment from the issue page, with no pull request URL", () => {
    expect(toComment(row(0), { idx: 5, isPull: false }, repo, { poster, assets: [] })).toEqual({
      id: 42,
      html_url: 'http://forge/alice/talk/issues/5#issuecomment-42',
      issue_url: 'http://forge/alice/talk/issues/5',
      pull_request_url: '',
      user: poster,
      original_author: '',
      original_author_id: 0,
      body: 'hello',
      assets: [],
      created_at: '2026-01-02T03:04:05Z',
      updated_at: '2026-01-02T03:04:06Z',
    });
  });

  it("should link a pull request's comment from the pull page, with no issue URL", () => {
    expect(toComment(row(0), { idx: 6, isPull: true }, repo, { poster, assets: [] })).toMatchObject({
      html_url: 'http://forge/alice/talk/pulls/6#issuecomment-42',
      issue_url: '',
      pull_request_url: 'http://forge/alice/talk/pulls/6',
    });
  });
});

describe(toTimelineComment.name, () => {
  it("should name each kind of history row as Gitea's CommentType does", () => {
    expect(
      [0, 1, 2].map((type) => toTimelineComment(row(type), { idx: 5, isPull: false }, repo, { poster }).type),
    ).toEqual(['comment', 'reopen', 'close']);
    expect(toTimelineComment(row(2), { idx: 5, isPull: false }, repo, { poster })).toMatchObject({
      user: poster,
      ref_action: 'none',
      body: 'hello',
    });
  });
});

describe(`${toTimelineComment.name} for events`, () => {
  const issue = { idx: 5, isPull: false };

  it("should name every recorded kind as Gitea's CommentType.String()", () => {
    const types = [7, 8, 9, 10, 16, 17, 18, 19, 20, 23, 24, 33, 36, 37];
    expect(types.map((type) => toTimelineComment(row(type), issue, repo, { poster }).type)).toEqual([
      'label',
      'milestone',
      'assignees',
      'change_title',
      'added_deadline',
      'modified_deadline',
      'removed_deadline',
      'add_dependency',
      'remove_dependency',
      'lock',
      'unlock',
      'change_issue_ref',
      'pin',
      'unpin',
    ]);
  });

  it('should show the titles and refs of the row, and leave what it does not refer to null', () => {
    const changed = { ...row(10), oldTitle: 'old', newTitle: 'new', oldRef: 'main', newRef: 'dev' };
    expect(toTimelineComment(changed, issue, repo, { poster })).toMatchObject({
      old_title: 'old',
      new_title: 'new',
      old_ref: 'main',
      new_ref: 'dev',
      label: null,
      milestone: null,
      old_milestone: null,
      assignee: null,
      dependent_issue: null,
      removed_assignee: false,
    });
  });

  it('should carry the loaded label, milestones, assignee and dependent issue', () => {
    const label = { id: 9, name: 'bug' } as Label;
    const milestone = { id: 2, title: 'v2' } as Milestone;
    const oldMilestone = { id: 1, title: 'v1' } as Milestone;
    const assignee = { id: 8, login: 'dave' } as User;
    const dependentIssue = { id: 77, number: 3 } as Issue;
    const removal = { ...row(9), removedAssignee: true };
    expect(
      toTimelineComment(removal, issue, repo, {
        poster,
        label,
        milestone,
        oldMilestone,
        assignee,
        dependentIssue,
      }),
    ).toMatchObject({
      label,
      milestone,
      old_milestone: oldMilestone,
      assignee,
      dependent_issue: dependentIssue,
      removed_assignee: true,
    });
  });
});
