import { HookTypes, type EventName, type IssueEventPayload } from '@gitforge/contracts';
import { envelope, issue, pull, repo, ROOT, user } from '../../../test/fixtures.js';
import { chatPayload } from '../hook-types/hook-types.js';
import { buildHookPayload, coarseEvent, type BuiltHookPayload } from './webhook-payloads.js';

const ann = user(1, 'ann');
const bob = user(2, 'bob');
const acme = user(9, 'acme');
const proj = repo(5, acme, 'proj');
const pr7 = issue(7, proj, ann, {
  html_url: `${proj.html_url}/pulls/7`,
  title: 'Add the feature',
  pull_request: { merged: false, merged_at: null, draft: false, html_url: `${proj.html_url}/pulls/7` },
});
const pr = pull(pr7, proj);
const OLD = 'a'.repeat(40);
const NEW = 'c'.repeat(40);

/** A pull request event as issue-service emits it. */
function pullEvent(action: string, extra: Partial<IssueEventPayload> = {}): IssueEventPayload {
  return { action, index: 7, issue: pr7, repository: proj, sender: ann, is_pull: true, pull_request: pr, ...extra };
}

const build = (name: EventName, p: IssueEventPayload): BuiltHookPayload | null =>
  buildHookPayload(envelope(name as 'pull.reviewed', p));

/** Gitea's PullRequestPayload keys, in its struct's order, without `changes`. */
const PR_KEYS = ['action', 'number', 'pull_request', 'requested_reviewer', 'repository', 'sender', 'commit_id', 'review'];

describe('pull request webhook payloads', () => {
  it("should send the event's own pull request (branches, merge base, reviewers) in issue events of a pull request", () => {
    for (const [name, action, event] of [
      ['issue.opened', 'opened', 'pull_request'],
      ['issue.edited', 'edited', 'pull_request'],
      ['issue.closed', 'closed', 'pull_request'],
      ['issue.reopened', 'reopened', 'pull_request'],
      ['issue.assigned', 'assigned', 'pull_request_assign'],
      ['issue.labeled', 'label_updated', 'pull_request_label'],
      ['issue.milestoned', 'demilestoned', 'pull_request_milestone'],
    ] as const) {
      const built = build(name, pullEvent(action))!;
      expect(built).toMatchObject({ event, repoId: 5, ownerId: 9, ref: null });
      expect(Object.keys(built.payload)).toEqual(PR_KEYS);
      expect((built.payload as { pull_request: unknown }).pull_request).toEqual(pr);
      expect(built.payload).toMatchObject({ action, number: 7, requested_reviewer: null, commit_id: '', review: null, sender: ann });
    }
  });

  it("should carry an edit's changes after the number", () => {
    const built = build('issue.edited', pullEvent('edited', { changes: { ref: { from: 'old-base' } } }))!;
    expect(Object.keys(built.payload)).toEqual(['action', 'number', 'changes', ...PR_KEYS.slice(2)]);
    expect(built.payload).toMatchObject({ changes: { ref: { from: 'old-base' }, added_labels: null, removed_labels: null }, pull_request: pr });
  });

  it('should send nothing for a pull event that does not carry its pull request', () => {
    expect(build('issue.closed', pullEvent('closed', { pull_request: undefined }))).toBeNull();
    expect(build('pull.synchronized', pullEvent('synchronized', { pull_request: undefined }))).toBeNull();
  });

  it('should send a synchronization as pull_request_sync with the head before and after', () => {
    const built = build('pull.synchronized', pullEvent('synchronized', { before: OLD, after: NEW }))!;
    expect(built).toMatchObject({ event: 'pull_request_sync', repoId: 5, ownerId: 9, ref: null });
    expect(coarseEvent(built.event)).toBe('pull_request');
    expect(Object.keys(built.payload)).toEqual(['action', 'before', 'after', ...PR_KEYS.slice(1)]);
    expect(built.payload).toMatchObject({ action: 'synchronized', before: OLD, after: NEW, number: 7, pull_request: pr, review: null });
    // Gitea omits them when empty.
    const bare = build('pull.synchronized', pullEvent('synchronized'))!;
    expect(Object.keys(bare.payload)).toEqual(PR_KEYS);
  });

  it("should send a merge as Gitea's merge notification: pull_request closed with the merged pull request", () => {
    const merged = pull(pr7, proj, { state: 'closed', merged: true, merged_at: '2024-05-02T10:00:00Z', merged_by: bob, merge_commit_sha: NEW });
    for (const auto of [false, true]) {
      const built = build('pull.merged', pullEvent('merged', { pull_request: merged, sender: bob, auto_merged: auto }))!;
      expect(built).toMatchObject({ event: 'pull_request', repoId: 5, ownerId: 9, ref: null });
      expect(Object.keys(built.payload)).toEqual(PR_KEYS);
      expect(built.payload).toMatchObject({ action: 'closed', number: 7, commit_id: '', sender: bob, pull_request: { merged: true, merged_by: bob, merge_commit_sha: NEW } });
      expect(built.payload).not.toHaveProperty('auto_merged');
    }
  });

  it('should send review requests and their removal with the user asked', () => {
    for (const action of ['review_requested', 'review_request_removed']) {
      const built = build('pull.review_requested', pullEvent(action, { requested_reviewer: bob }))!;
      expect(built).toMatchObject({ event: 'pull_request_review_request', repoId: 5, ownerId: 9, ref: null });
      expect(coarseEvent(built.event)).toBe('pull_request');
      expect(Object.keys(built.payload)).toEqual(PR_KEYS);
      expect(built.payload).toMatchObject({ action, requested_reviewer: bob, pull_request: pr, review: null });
      // The team is not part of Gitea's payload: a team request is sent once per member.
      expect(built.payload).not.toHaveProperty('requested_team');
    }
  });

  it('should send nothing for a review request naming no user (a team as a whole) or an unknown action', () => {
    const team = { id: 3, name: 'core' } as IssueEventPayload['requested_team'];
    expect(build('pull.review_requested', pullEvent('review_requested', { requested_reviewer: null, requested_team: team }))).toBeNull();
    expect(build('pull.review_requested', pullEvent('assigned', { requested_reviewer: bob }))).toBeNull();
  });

  it.each([
    ['pull_request_review_approved', 'pull_request_approved'],
    ['pull_request_review_rejected', 'pull_request_rejected'],
    ['pull_request_review_comment', 'pull_request_comment'],
  ])('should send a %s review as its own event (X-Gitea-Event %s) with action reviewed', (type, coarse) => {
    const built = build('pull.reviewed', pullEvent('reviewed', { sender: bob, review: { type, content: 'Looks good\nmostly' } }))!;
    expect(built).toMatchObject({ event: type, repoId: 5, ownerId: 9, ref: null });
    expect(coarseEvent(built.event)).toBe(coarse);
    expect(Object.keys(built.payload)).toEqual(PR_KEYS);
    expect(built.payload).toMatchObject({ action: 'reviewed', sender: bob, pull_request: pr, requested_reviewer: null, review: { type, content: 'Looks good\nmostly' } });
  });

  it('should send nothing for a dismissed review, a review of another type, or one without its review', () => {
    const approved = { type: 'pull_request_review_approved', content: '' };
    expect(build('pull.reviewed', pullEvent('review_dismissed', { review: approved }))).toBeNull();
    expect(build('pull.reviewed', pullEvent('reviewed', { review: { type: 'pull_request_review_request', content: '' } }))).toBeNull();
    expect(build('pull.reviewed', pullEvent('reviewed'))).toBeNull();
  });

  describe('in the chat formats', () => {
    const merged = pull(pr7, proj, { state: 'closed', merged: true });
    const built = {
      synchronized: build('pull.synchronized', pullEvent('synchronized', { before: OLD, after: NEW }))!,
      merged: build('pull.merged', pullEvent('merged', { pull_request: merged }))!,
      requested: build('pull.review_requested', pullEvent('review_requested', { requested_reviewer: bob }))!,
      removed: build('pull.review_requested', pullEvent('review_request_removed', { requested_reviewer: bob }))!,
      approved: build('pull.reviewed', pullEvent('reviewed', { sender: bob, review: { type: 'pull_request_review_approved', content: 'Ship it' } }))!,
      rejected: build('pull.reviewed', pullEvent('reviewed', { sender: bob, review: { type: 'pull_request_review_rejected', content: 'No' } }))!,
      commented: build('pull.reviewed', pullEvent('reviewed', { sender: bob, review: { type: 'pull_request_review_comment', content: '' } }))!,
      opened: build('issue.opened', pullEvent('opened'))!,
      assigned: build('issue.assigned', pullEvent('assigned', { pull_request: pull(pr7, proj, { assignees: [bob], assignee: bob }) }))!,
    };

    it('should render every pull request event in every chat format, naming the pull request', () => {
      for (const type of HookTypes.filter((t) => t !== 'gitea' && t !== 'gogs' && t !== 'packagist')) {
        for (const [what, b] of Object.entries(built)) {
          const body = chatPayload(type, b.event, b.payload, ROOT, {});
          // Gitea's wechatwork titles a review only for action `synchronized`, which no review has.
          const named = type === 'wechatwork' && b.event.startsWith('pull_request_review_') && b.event !== 'pull_request_review_request' ? '' : '#7';
          expect({ type, what, rendered: body !== null && JSON.stringify(body).includes(named) }).toEqual({ type, what, rendered: true });
        }
      }
      expect(chatPayload('wechatwork', built.approved.event, built.approved.payload, ROOT, {})).toMatchObject({ markdown: { content: '# \r\n\r\n >' } });
      expect(chatPayload('packagist', built.merged.event, built.merged.payload, ROOT, { package_url: 'http://p' })).toEqual({ repository: { url: '' } });
    });

    it("should read as Gitea's pull request texts", () => {
      const link = `<${pr.url}|#7 Add the feature>`;
      const slack = (b: BuiltHookPayload) => (chatPayload('slack', b.event, b.payload, ROOT, {}) as { text: string }).text;
      expect(slack(built.synchronized)).toBe(`[<${proj.html_url}|acme/proj>] Pull request synchronized: ${link} by <${ROOT}ann|ann>`);
      expect(slack(built.merged)).toBe(`[<${proj.html_url}|acme/proj>] Pull request merged: ${link} by <${ROOT}ann|ann>`);
      expect(slack(built.requested)).toBe(`[<${proj.html_url}|acme/proj>] Pull request review requested: ${link} by <${ROOT}ann|ann>`);
      expect(slack(built.removed)).toBe(`[<${proj.html_url}|acme/proj>] Pull request review request removed: ${link} by <${ROOT}ann|ann>`);
      expect(slack(built.approved)).toBe(`[<${proj.html_url}|acme/proj>] Pull request review approved: [#7 Add the feature](${proj.html_url}/pulls/7) by <${ROOT}bob|bob>`);
      expect(chatPayload('discord', built.merged.event, built.merged.payload, ROOT, {})).toMatchObject({
        embeds: [{ title: '[acme/proj] Pull request merged: #7 Add the feature', url: pr.html_url, color: 0x7289da }],
      });
      expect(chatPayload('msteams', built.rejected.event, built.rejected.payload, ROOT, {})).toMatchObject({
        title: '[acme/proj] Pull request review rejected: #7 Add the feature',
        themeColor: 'ff3232',
      });
    });

    it("should lay pull requests out as feishu's cards", () => {
      const text = (b: BuiltHookPayload) => (chatPayload('feishu', b.event, b.payload, ROOT, {}) as { content: { text: string } }).content.text;
      expect(text(built.opened)).toBe(`[PullRequest-acme/proj #7]: opened\nAdd the feature\n${pr.html_url}\nPullRequest by ann\nOperator: ann\n\nIt breaks`);
      expect(text(built.assigned)).toBe(`[PullRequest-acme/proj #7]: assigned\nAdd the feature\n${pr.html_url}\nPullRequest by ann\nOperator: ann\nann assign this to bob\nAssignees: bob\n\nIt breaks`);
      expect(text(built.approved)).toBe('[acme/proj] Pull request review approved : #7 Add the feature\r\n\r\nShip it');
    });
  });
});
