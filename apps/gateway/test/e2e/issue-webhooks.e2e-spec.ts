import { createHmac } from 'node:crypto';
import type {
  CreateHookOption,
  CreateIssueOption,
  EditIssueOption,
  Issue,
  IssueAssigneesOption,
  Repository,
} from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { Api, createUser, uniqueName, type TestUser } from './support/api.js';
import { HookReceiver, type ReceivedDelivery } from './support/hook-receiver.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

const hmac = (algo: 'sha1' | 'sha256', secret: string, body: string): string =>
  createHmac(algo, secret).update(body).digest('hex');

type Activity = {
  op_type: string;
  content: string;
  is_private: boolean;
  comment_id: number;
  act_user: { login: string };
  repo: { id: number };
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
});
