import { createHmac } from 'node:crypto';
import type {
  Attachment,
  Comment,
  CreateHookOption,
  CreateIssueCommentOption,
  EditIssueCommentOption,
  CreateIssueOption,
  EditIssueOption,
  Issue,
  IssueAssigneesOption,
  Repository,
} from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { Api, createUser, uniqueName, type TestUser } from './support/api.js';
import { basicAuth } from './support/http.js';
import { HookReceiver, type ReceivedDelivery } from './support/hook-receiver.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

const hmac = (algo: 'sha1' | 'sha256', secret: string, body: string): string =>
  createHmac(algo, secret).update(body).digest('hex');

type Activity = {
  op_type: string;
  content: string;
  is_private: boolean;
  comment_id: number;
  comment: Comment | null;
  act_user: { login: string };
  repo: { id: number };
};
type CommentPayloadBody = {
  action: string;
  issue: Issue;
  comment: Comment;
  changes?: { body: { from: string }; added_labels: null; removed_labels: null };
  repository: Repository;
  sender: { login: string };
  is_pull: boolean;
};
type IssuePayloadBody = {
  action: string;
  number: number;
  changes?: {
    title?: { from: string };
    body?: { from: string };
    added_labels: unknown;
    removed_labels: unknown;
  };
  issue: Issue;
  repository: Repository;
  sender: { login: string };
  commit_id: string;
};

describe.each(layoutsUnderTest())('issue webhooks and feeds (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let receiver: HookReceiver;
  let alice: TestUser;
  let bob: TestUser;
  let repo: Repository;
  let issue: Issue;
  const secret = 'issue-secret';

  const bodyOf = (d: ReceivedDelivery): IssuePayloadBody => JSON.parse(d.body) as IssuePayloadBody;
  /** The deliveries to `path` of one action (deliveries of different events may arrive in any order). */
  const withAction = async (path: string, action: string, count: number): Promise<ReceivedDelivery> => {
    const all = await receiver.waitFor(path, count);
    const found = all.find((d) => bodyOf(d).action === action);
    if (!found) throw new Error(`no ${action} delivery among ${all.map((d) => bodyOf(d).action).join(', ')}`);
    return found;
  };

  beforeAll(async () => {
    layout = await Layout.start(kind, { env: { GITFORGE_WEBHOOK_ALLOW_LOOPBACK: '1' } });
    api = new Api(layout);
    receiver = await HookReceiver.start();
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
    const created = await alice.api.post<Repository>('/user/repos', {
      name: uniqueName('tracker'),
      private: true,
    });
    expect(created.status).toBe(201);
    repo = created.body;
    const hook = await alice.api.post(`/repos/${repo.full_name}/hooks`, {
      type: 'gitea',
      config: { url: receiver.url('/all'), content_type: 'json', secret },
      events: ['issues', 'issue_comment'],
      active: true,
    } satisfies CreateHookOption);
    expect(hook.status).toBe(201);
    // `issues_only` is the issues event type alone: no assignment, label or milestone events.
    const only = await alice.api.post(`/repos/${repo.full_name}/hooks`, {
      type: 'gitea',
      config: { url: receiver.url('/only'), content_type: 'json' },
      events: ['issues_only'],
      active: true,
    } satisfies CreateHookOption);
    expect(only.status).toBe(201);
    const slack = await alice.api.post(`/repos/${repo.full_name}/hooks`, {
      type: 'slack',
      config: { url: receiver.url('/slack'), content_type: 'json', channel: '#dev' },
      events: ['issues'],
      active: true,
    } satisfies CreateHookOption);
    expect(slack.status).toBe(201);
  });

  afterAll(async () => {
    await receiver?.close();
    await layout?.stop();
  });

  it("should send an opened issue with Gitea's headers, signature and IssuePayload", async () => {
    const res = await alice.api.post<Issue>(`/repos/${repo.full_name}/issues`, {
      title: 'Broken build',
      body: 'It fails\nbadly',
    } satisfies CreateIssueOption);
    expect(res.status).toBe(201);
    issue = res.body;
    const [d] = await receiver.waitFor('/all');
    expect(d!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-gitea-event': 'issues',
      'x-gitea-event-type': 'issues',
      'x-github-event': 'issues',
      'x-gitea-hook-installation-target-type': 'repository',
      'x-gitea-signature': hmac('sha256', secret, d!.body),
      'x-hub-signature-256': `sha256=${hmac('sha256', secret, d!.body)}`,
      'x-hub-signature': `sha1=${hmac('sha1', secret, d!.body)}`,
    });
    const body = bodyOf(d!);
    expect(Object.keys(body)).toEqual(['action', 'number', 'issue', 'repository', 'sender', 'commit_id']);
    expect(body).toMatchObject({
      action: 'opened',
      number: issue.number,
      issue: {
        id: issue.id,
        number: issue.number,
        title: 'Broken build',
        body: 'It fails\nbadly',
        state: 'open',
        user: { login: alice.username },
      },
      repository: { id: repo.id, full_name: repo.full_name, private: true },
      sender: { login: alice.username },
      commit_id: '',
    });
  });

  it('should send edits with what they changed from, then closing and reopening', async () => {
    const edited = await alice.api.patch<Issue>(`/repos/${repo.full_name}/issues/${issue.number}`, {
      title: 'Broken build on main',
    } satisfies EditIssueOption);
    expect(edited.status).toBe(201);
    const e = bodyOf(await withAction('/all', 'edited', 2));
    expect(e).toMatchObject({ number: issue.number, issue: { title: 'Broken build on main' } });
    expect(e.changes).toEqual({ title: { from: 'Broken build' }, added_labels: null, removed_labels: null });

    expect(
      (
        await alice.api.patch(`/repos/${repo.full_name}/issues/${issue.number}`, {
          state: 'closed',
        } satisfies EditIssueOption)
      ).status,
    ).toBe(201);
    const closed = await withAction('/all', 'closed', 3);
    expect(closed.headers['x-gitea-event-type']).toBe('issues');
    expect(bodyOf(closed)).toMatchObject({ issue: { state: 'closed' }, sender: { login: alice.username } });
    expect(bodyOf(closed)).not.toHaveProperty('changes');

    expect(
      (
        await alice.api.patch(`/repos/${repo.full_name}/issues/${issue.number}`, {
          state: 'open',
        } satisfies EditIssueOption)
      ).status,
    ).toBe(201);
    const reopened = await withAction('/all', 'reopened', 4);
    expect(bodyOf(reopened)).toMatchObject({ issue: { state: 'open' } });
    expect(reopened.headers['x-gitea-signature']).toBe(hmac('sha256', secret, reopened.body));
  });

  it('should send an assignment as issue_assign under X-Gitea-Event issues, and not to issues_only hooks', async () => {
    const res = await alice.api.post<Issue>(`/repos/${repo.full_name}/issues/${issue.number}/assignees`, {
      assignees: [alice.username],
    } satisfies IssueAssigneesOption);
    expect(res.status).toBe(201);
    const d = await withAction('/all', 'assigned', 5);
    expect(d.headers).toMatchObject({ 'x-gitea-event': 'issues', 'x-gitea-event-type': 'issue_assign' });
    expect(bodyOf(d)).toMatchObject({
      number: issue.number,
      issue: { assignees: [{ login: alice.username }], assignee: { login: alice.username } },
    });

    const removed = await alice.api.delete<Issue>(
      `/repos/${repo.full_name}/issues/${issue.number}/assignees`,
      { assignees: [alice.username] } satisfies IssueAssigneesOption,
    );
    expect(removed.status).toBe(200);
    const un = await withAction('/all', 'unassigned', 6);
    expect(un.headers['x-gitea-event-type']).toBe('issue_assign');
    expect(bodyOf(un).issue.assignees).toBeNull();

    // The issues-only hook got the four issue events and nothing else.
    const only = await receiver.waitFor('/only', 4);
    expect(only.map((x) => x.headers['x-gitea-event-type'])).toEqual([
      'issues',
      'issues',
      'issues',
      'issues',
    ]);
    expect(only.map((x) => bodyOf(x).action).sort()).toEqual(['closed', 'edited', 'opened', 'reopened']);
  });

  it("should render issue events for slack in Gitea's words", async () => {
    const all = await receiver.waitFor('/slack', 6);
    const texts = all.map((d) => (JSON.parse(d.body) as { text: string }).text);
    const title = `<${repo.html_url}/issues/${issue.number}|#${issue.number} Broken build>`;
    expect(texts).toContain(
      `[<${repo.html_url}|${repo.full_name}>] Issue opened: ${title} by <${layout.rootUrl}${alice.username}|${alice.username}>`,
    );
    expect(texts.some((t) => t.includes('Issue assigned to') && t.includes(alice.username))).toBe(true);
  });

  it("should show the issue's life in the repository feed, flagged private", async () => {
    const feed = await expectEventually(async () => {
      const res = await alice.api.get<Activity[]>(`/repos/${repo.full_name}/activities/feeds`);
      expect(res.status).toBe(200);
      expect(res.body.map((a) => a.op_type).sort()).toEqual(
        expect.arrayContaining(['close_issue', 'create_issue', 'reopen_issue']),
      );
      return res.body;
    });
    const of = (op: string) => feed.find((a) => a.op_type === op)!;
    expect(of('create_issue')).toMatchObject({
      content: `${issue.number}|Broken build`,
      is_private: true,
      act_user: { login: alice.username },
      repo: { id: repo.id },
    });
    expect(of('close_issue')).toMatchObject({ content: `${issue.number}|`, is_private: true });
    expect(of('reopen_issue')).toMatchObject({ content: `${issue.number}|` });
    // Edits and assignments make no feed entries, as in Gitea.
    expect(feed.filter((a) => a.op_type.includes('issue'))).toHaveLength(3);
    // An outsider does not see the private repository at all.
    expect((await bob.api.get(`/repos/${repo.full_name}/activities/feeds`)).status).toBe(404);
  });

  describe('comments', () => {
    let comment: Comment;
    const commentBody = (d: ReceivedDelivery): CommentPayloadBody => JSON.parse(d.body) as CommentPayloadBody;
    /** The delivery to `/comments` of one action, among the first `count`. */
    const commentDelivery = async (action: string, count: number): Promise<ReceivedDelivery> => {
      const all = await receiver.waitFor('/comments', count);
      const found = all.find((d) => commentBody(d).action === action);
      if (!found) throw new Error(`no ${action} delivery among ${all.map((d) => commentBody(d).action).join(', ')}`);
      return found;
    };
    const repoFeed = async () => {
      const res = await alice.api.get<Activity[]>(`/repos/${repo.full_name}/activities/feeds`);
      expect(res.status).toBe(200);
      return res.body.filter((a) => a.op_type === 'comment_issue');
    };

    beforeAll(async () => {
      const hook = await alice.api.post(`/repos/${repo.full_name}/hooks`, {
        type: 'gitea',
        config: { url: receiver.url('/comments'), content_type: 'json', secret },
        events: ['issue_comment'],
        active: true,
      } satisfies CreateHookOption);
      expect(hook.status).toBe(201);
    });

    it("should send a new comment as issue_comment with Gitea's IssueCommentPayload, and show it in the feed", async () => {
      const res = await alice.api.post<Comment>(`/repos/${repo.full_name}/issues/${issue.number}/comments`, {
        body: 'Found the cause\nIt is the cache',
      } satisfies CreateIssueCommentOption);
      expect(res.status).toBe(201);
      comment = res.body;
      const d = await commentDelivery('created', 1);
      expect(d.headers).toMatchObject({
        'x-gitea-event': 'issue_comment',
        'x-gitea-event-type': 'issue_comment',
        'x-gitea-signature': hmac('sha256', secret, d.body),
      });
      const body = commentBody(d);
      expect(Object.keys(body)).toEqual(['action', 'issue', 'comment', 'repository', 'sender', 'is_pull']);
      expect(body).toMatchObject({
        action: 'created',
        issue: { number: issue.number, comments: 1 },
        comment: { id: comment.id, body: 'Found the cause\nIt is the cache', user: { login: alice.username }, html_url: comment.html_url },
        repository: { id: repo.id },
        sender: { login: alice.username },
        is_pull: false,
      });

      const [entry] = await expectEventually(async () => {
        const entries = await repoFeed();
        expect(entries).toHaveLength(1);
        return entries;
      });
      expect(entry).toMatchObject({
        content: `${issue.number}|Found the cause`,
        is_private: true,
        comment_id: comment.id,
        act_user: { login: alice.username },
      });
      expect(entry!.comment).toEqual(comment);
    });

    it('should send an edit with the old body, and the feed should show the comment as edited', async () => {
      const res = await alice.api.patch<Comment>(`/repos/${repo.full_name}/issues/comments/${comment.id}`, {
        body: 'Found it: the cache',
      } satisfies EditIssueCommentOption);
      expect(res.status).toBe(200);
      const edited = commentBody(await commentDelivery('edited', 2));
      expect(edited).toMatchObject({ comment: { id: comment.id, body: 'Found it: the cache' }, is_pull: false });
      expect(edited.changes).toEqual({ body: { from: 'Found the cause\nIt is the cache' }, added_labels: null, removed_labels: null });
      await expectEventually(async () => {
        const [entry] = await repoFeed();
        expect(entry!.comment).toMatchObject({ id: comment.id, body: 'Found it: the cache' });
        // The entry's content stays the first line as it was posted, as in Gitea.
        expect(entry!.content).toBe(`${issue.number}|Found the cause`);
      });
    });

    it("should send a file attached to the comment as Gitea's re-save: edited, same body, the file in its assets", async () => {
      const form = new FormData();
      form.append('attachment', new Blob(['trace']), 'trace.txt');
      const res = await fetch(`${layout.apiUrl}/repos/${repo.full_name}/issues/comments/${comment.id}/assets`, {
        method: 'POST',
        body: form,
        headers: { authorization: basicAuth(alice.username, alice.password) },
      });
      expect(res.status).toBe(201);
      const file = (await res.json()) as Attachment;
      const all = await receiver.waitFor('/comments', 3);
      const resaved = all.map(commentBody).find((b) => b.action === 'edited' && b.comment.assets.length > 0);
      expect(resaved).toMatchObject({ action: 'edited', comment: { id: comment.id, body: 'Found it: the cache', assets: [file] } });
      expect(resaved!.changes).toEqual({ body: { from: 'Found it: the cache' }, added_labels: null, removed_labels: null });
    });

    it('should send a deletion and take the comment out of the feed', async () => {
      expect((await alice.api.delete(`/repos/${repo.full_name}/issues/comments/${comment.id}`)).status).toBe(204);
      const deleted = await commentDelivery('deleted', 4);
      expect(deleted.headers['x-gitea-event']).toBe('issue_comment');
      expect(commentBody(deleted)).toMatchObject({
        action: 'deleted',
        issue: { number: issue.number, comments: 0 },
        comment: { id: comment.id, body: 'Found it: the cache' },
        sender: { login: alice.username },
        is_pull: false,
      });
      await expectEventually(async () => expect(await repoFeed()).toEqual([]));
    });
  });
});
