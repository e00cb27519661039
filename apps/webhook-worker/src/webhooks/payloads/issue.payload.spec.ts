import type { IssueEventPayload, Label } from '@gitforge/contracts';
import { envelope, issue, pull, repo, ROOT, user } from '../../../test/fixtures.js';
import { chatPayload } from '../hook-types/hook-types.js';
import { buildHookPayload } from './webhook-payloads.js';

const ann = user(1, 'ann');
const bob = user(2, 'bob');
const acme = user(9, 'acme');
const proj = repo(5, acme, 'proj');
const bug: Label = {
  id: 4,
  name: 'bug',
  exclusive: false,
  is_archived: false,
  color: 'ee0701',
  description: '',
  url: '',
};

function issueEvent(action: string, extra: Partial<IssueEventPayload> = {}): IssueEventPayload {
  return {
    action,
    index: 3,
    issue: issue(3, proj, ann),
    repository: proj,
    sender: ann,
    is_pull: false,
    ...extra,
  };
}

describe('issue webhook payloads', () => {
  it("should send an opened issue as Gitea's IssuePayload, in its field order, outside branch filters", () => {
    const p = issueEvent('opened');
    const built = buildHookPayload(envelope('issue.opened', p))!;
    expect(built).toMatchObject({ event: 'issues', repoId: 5, ownerId: 9, ref: null });
    expect(Object.keys(built.payload)).toEqual([
      'action',
      'number',
      'issue',
      'repository',
      'sender',
      'commit_id',
    ]);
    expect(built.payload).toEqual({
      action: 'opened',
      number: 3,
      issue: p.issue,
      repository: proj,
      sender: ann,
      commit_id: '',
    });
  });

  it('should say what an edit changed from, with the label lists Gitea always writes', () => {
    const built = buildHookPayload(
      envelope('issue.edited', issueEvent('edited', { changes: { title: { from: 'Old' } } })),
    )!;
    expect(built.event).toBe('issues');
    expect(Object.keys(built.payload)).toEqual([
      'action',
      'number',
      'changes',
      'issue',
      'repository',
      'sender',
      'commit_id',
    ]);
    expect(built.payload).toMatchObject({
      action: 'edited',
      changes: { title: { from: 'Old' }, added_labels: null, removed_labels: null },
    });
    const body = buildHookPayload(
      envelope('issue.edited', issueEvent('edited', { changes: { body: { from: 'was' } } })),
    )!;
    expect((body.payload as { changes: object }).changes).toEqual({
      body: { from: 'was' },
      added_labels: null,
      removed_labels: null,
    });
  });

  it.each([
    ['issue.closed', 'closed', 'issues'],
    ['issue.reopened', 'reopened', 'issues'],
    ['issue.deleted', 'deleted', 'issues'],
    ['issue.assigned', 'assigned', 'issue_assign'],
    ['issue.assigned', 'unassigned', 'issue_assign'],
    ['issue.labeled', 'label_updated', 'issue_label'],
    ['issue.labeled', 'label_cleared', 'issue_label'],
    ['issue.milestoned', 'milestoned', 'issue_milestone'],
    ['issue.milestoned', 'demilestoned', 'issue_milestone'],
  ] as const)('should send %s (%s) as the hook event %s', (name, action, event) => {
    const built = buildHookPayload(envelope(name, issueEvent(action, { assignee: bob })))!;
    expect(built.event).toBe(event);
    expect(built.payload).toMatchObject({ action, number: 3, commit_id: '' });
    // The assignee concerned is not part of Gitea's payload: the issue carries its assignees.
    expect(built.payload).not.toHaveProperty('assignee');
  });

  it('should carry label changes when the event has them', () => {
    const built = buildHookPayload(
      envelope(
        'issue.labeled',
        issueEvent('label_updated', { changes: { added_labels: [bug], removed_labels: [] } }),
      ),
    )!;
    expect(built.payload).toMatchObject({ changes: { added_labels: [bug], removed_labels: [] } });
  });

  it("should send a pull request's events as the pull_request twins, with Gitea's PullRequestPayload", () => {
    const pr = issue(7, proj, ann, {
      html_url: `${proj.html_url}/pulls/7`,
      pull_request: { merged: false, merged_at: null, draft: true, html_url: `${proj.html_url}/pulls/7` },
      labels: [bug],
      assignees: [bob],
      assignee: bob,
    });
    const p = issueEvent('opened', { index: 7, issue: pr, is_pull: true, pull_request: pull(pr, proj, { draft: true }) });
    const built = buildHookPayload(envelope('issue.opened', p))!;
    expect(built.event).toBe('pull_request');
    expect(Object.keys(built.payload)).toEqual([
      'action',
      'number',
      'pull_request',
      'requested_reviewer',
      'repository',
      'sender',
      'commit_id',
      'review',
    ]);
    expect(built.payload).toMatchObject({
      action: 'opened',
      number: 7,
      requested_reviewer: null,
      commit_id: '',
      review: null,
      pull_request: {
        id: p.pull_request!.id,
        number: 7,
        url: pr.html_url,
        html_url: pr.html_url,
        diff_url: `${pr.html_url}.diff`,
        patch_url: `${pr.html_url}.patch`,
        title: pr.title,
        draft: true,
        merged: false,
        labels: [bug],
        assignees: [bob],
        state: 'open',
      },
    });
    for (const [name, action, event] of [
      ['issue.assigned', 'assigned', 'pull_request_assign'],
      ['issue.labeled', 'label_cleared', 'pull_request_label'],
      ['issue.milestoned', 'milestoned', 'pull_request_milestone'],
      ['issue.edited', 'edited', 'pull_request'],
    ] as const) {
      expect(buildHookPayload(envelope(name, { ...p, action }))!.event).toBe(event);
    }
  });

  it('should render what it builds in the chat formats', () => {
    const assigned = buildHookPayload(
      envelope(
        'issue.assigned',
        issueEvent('assigned', { issue: issue(3, proj, ann, { assignees: [bob], assignee: bob }) }),
      ),
    )!;
    expect(chatPayload('slack', assigned.event, assigned.payload, ROOT, {})).toMatchObject({
      text: `[<${proj.html_url}|acme/proj>] Issue assigned to <${ROOT}bob|bob>: <${proj.html_url}/issues/3|#3 Issue 3> by <${ROOT}ann|ann>`,
    });
    const closed = buildHookPayload(envelope('issue.closed', issueEvent('closed')))!;
    expect(chatPayload('discord', closed.event, closed.payload, ROOT, {})).toMatchObject({
      embeds: [
        { title: '[acme/proj] Issue closed: #3 Issue 3', url: `${proj.html_url}/issues/3`, color: 0xff3232 },
      ],
    });
    const pr = issue(7, proj, ann, {
      html_url: `${proj.html_url}/pulls/7`,
      pull_request: { merged: false, merged_at: null, draft: false, html_url: `${proj.html_url}/pulls/7` },
    });
    const opened = buildHookPayload(
      envelope('issue.opened', issueEvent('opened', { index: 7, issue: pr, is_pull: true, pull_request: pull(pr, proj) })),
    )!;
    expect(chatPayload('msteams', opened.event, opened.payload, ROOT, {})).toMatchObject({
      title: '[acme/proj] Pull request opened: #7 Issue 7',
    });
  });
});
