import type { CommentEventPayload } from '@gitforge/contracts';
import { comment, envelope, issue, repo, ROOT, user } from '../../../test/fixtures.js';
import { chatPayload } from '../hook-types/hook-types.js';
import { buildHookPayload, coarseEvent } from './webhook-payloads.js';

const ann = user(1, 'ann');
const proj = repo(5, user(9, 'acme'), 'proj');
const bug = issue(3, proj, ann);
const pr = issue(7, proj, ann, {
  html_url: `${proj.html_url}/pulls/7`,
  pull_request: { merged: false, merged_at: null, draft: false, html_url: `${proj.html_url}/pulls/7` },
});

function commentEvent(
  action: CommentEventPayload['action'],
  on = bug,
  extra: Partial<CommentEventPayload> = {},
): CommentEventPayload {
  return {
    action,
    issue: on,
    comment: comment(40, on, ann, 'Looks good\nsecond line'),
    repository: proj,
    sender: ann,
    is_pull: on.pull_request !== null,
    ...extra,
  };
}

describe('issue comment webhook payloads', () => {
  it("should send a new comment as Gitea's IssueCommentPayload, in its field order", () => {
    const p = commentEvent('created');
    const built = buildHookPayload(envelope('comment.created', p))!;
    expect(built).toMatchObject({ event: 'issue_comment', repoId: 5, ownerId: 9, ref: null });
    expect(Object.keys(built.payload)).toEqual([
      'action',
      'issue',
      'comment',
      'repository',
      'sender',
      'is_pull',
    ]);
    expect(built.payload).toEqual({
      action: 'created',
      issue: bug,
      comment: p.comment,
      repository: proj,
      sender: ann,
      is_pull: false,
    });
  });

  it('should carry the old body of an edited comment, and none for a deleted one', () => {
    const edited = buildHookPayload(
      envelope('comment.edited', commentEvent('edited', bug, { changes: { body: { from: 'Looks bad' } } })),
    )!;
    expect(Object.keys(edited.payload)).toEqual([
      'action',
      'issue',
      'comment',
      'changes',
      'repository',
      'sender',
      'is_pull',
    ]);
    expect(edited.payload).toMatchObject({
      action: 'edited',
      changes: { body: { from: 'Looks bad' }, added_labels: null, removed_labels: null },
    });
    const deleted = buildHookPayload(envelope('comment.deleted', commentEvent('deleted')))!;
    expect(deleted.payload).toMatchObject({ action: 'deleted' });
    expect(deleted.payload).not.toHaveProperty('changes');
  });

  it('should send comments on pull requests as pull_request_comment, under X-Gitea-Event issue_comment', () => {
    const built = buildHookPayload(envelope('comment.created', commentEvent('created', pr)))!;
    expect(built.event).toBe('pull_request_comment');
    expect(coarseEvent(built.event)).toBe('issue_comment');
    expect(built.payload).toMatchObject({ is_pull: true, issue: { number: 7 } });
  });

  it('should render comments in the chat formats, linking the issue or the pull request', () => {
    const onIssue = buildHookPayload(envelope('comment.created', commentEvent('created')))!;
    expect(chatPayload('slack', onIssue.event, onIssue.payload, ROOT, {})).toMatchObject({
      text: `[<${proj.html_url}|acme/proj>] New comment on issue <${bug.html_url}|#3 Issue 3> by <${ROOT}ann|ann>`,
    });
    const onPull = buildHookPayload(envelope('comment.deleted', commentEvent('deleted', pr)))!;
    expect(chatPayload('discord', onPull.event, onPull.payload, ROOT, {})).toMatchObject({
      embeds: [{ title: '[acme/proj] Comment deleted on pull request #7 Issue 7', color: 0xff3232 }],
    });
  });
});
