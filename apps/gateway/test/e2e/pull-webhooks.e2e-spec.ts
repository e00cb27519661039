import type { CreateHookOption, PullRequest, Repository } from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { Api, createUser, uniqueName, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { HookReceiver, type ReceivedDelivery } from './support/hook-receiver.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { addCollaborator, createRepo } from './support/repos.js';

/** Gitea's PullRequestPayload as a receiver reads it. */
type PullPayload = {
  action: string;
  number: number;
  pull_request: PullRequest;
  requested_reviewer: { login: string } | null;
  repository: Repository;
  sender: { login: string };
  commit_id: string;
  review: { type: string; content: string } | null;
  before?: string;
  after?: string;
};

const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** The fields of a pull that its state decides, as the API and a delivery must both show them. */
const stateOf = (p: PullRequest): Record<string, unknown> => ({
  number: p.number,
  state: p.state,
  title: p.title,
  user: p.user?.login,
  merged: p.merged,
  merged_at: p.merged_at,
  merged_by: p.merged_by?.login ?? null,
  merge_commit_sha: p.merge_commit_sha,
  closed_at: p.closed_at,
  head: { ref: p.head?.ref, sha: p.head?.sha, repo_id: p.head?.repo_id },
  // Gitea shows the base as its branch's tip.
  base: { ref: p.base?.ref, sha: p.base?.sha, repo_id: p.base?.repo_id },
  milestone: p.milestone ? { id: p.milestone.id, open_issues: p.milestone.open_issues, closed_issues: p.milestone.closed_issues } : null,
  comments: p.comments,
  assignees: (p.assignees ?? []).map((u) => u.login),
  labels: (p.labels ?? []).map((l) => l.name),
});

describe.each(layoutsUnderTest())('pull request webhooks (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let receiver: HookReceiver;
  let owner: TestUser;
  let writer: TestUser;
  let git: GitCli;

  beforeAll(async () => {
    layout = await Layout.start(kind, { env: { GITFORGE_WEBHOOK_ALLOW_LOOPBACK: '1' } });
    api = new Api(layout);
    receiver = await HookReceiver.start();
    [owner, writer] = await Promise.all([createUser(api, 'hookowner'), createUser(api, 'hookwriter')]);
    git = GitCli.create();
  });

  afterAll(async () => {
    git?.cleanup();
    await receiver?.close();
    await layout?.stop();
  });

  /** A private repository whose hook at `path` takes the pull request events (and pushes, where asked). */
  async function hooked(path: string, pushes = false): Promise<Repository> {
    const repo = await createRepo(owner.api, { auto_init: true, private: true });
    await addCollaborator(owner.api, repo, writer, 'write');
    const hook = await owner.api.post(`/repos/${repo.full_name}/hooks`, {
      type: 'gitea',
      config: { url: receiver.url(path), content_type: 'json' },
      events: pushes ? ['pull_request', 'push'] : ['pull_request'],
      active: true,
    } satisfies CreateHookOption);
    expect(hook.status).toBe(201);
    return repo;
  }

  async function commitTo(repo: Repository, branch: string, file: string, from?: string): Promise<string> {
    const body = { content: b64(`${file}\n`), message: `add ${file}`, ...(from ? { branch: from, new_branch: branch } : { branch }) };
    const res = await writer.api.post<{ commit: { sha: string } }>(`/repos/${repo.full_name}/contents/${file}`, body);
    expect(res.status).toBe(201);
    return res.body.commit.sha;
  }

  /** The one delivery to `path` of this event type and action (deliveries may arrive in any order). */
  const delivery = (path: string, type: string, action: string): Promise<{ d: ReceivedDelivery; body: PullPayload }> =>
    expectEventually(
      () => {
        const found = receiver
          .at(path)
          .map((d) => ({ d, body: JSON.parse(d.body) as PullPayload }))
          .filter(({ d, body }) => d.headers['x-gitea-event-type'] === type && body.action === action);
        if (found.length !== 1) throw new Error(`${path}: ${found.length} ${type}/${action} deliveries`);
        return found[0]!;
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );

  it("should send a pull's opening, synchronisation, approval and merge with Gitea's headers and the pull as the API shows it", async () => {
    const path = '/flow';
    const repo = await hooked(path, true);
    await commitTo(repo, 'feature', 'one.txt', 'main');
    const label = await owner.api.post<{ id: number }>(`/repos/${repo.full_name}/labels`, { name: 'ready', color: '#00aa00' });
    expect(label.status).toBe(201);
    const milestone = await owner.api.post<{ id: number }>(`/repos/${repo.full_name}/milestones`, { title: uniqueName('m') });
    expect(milestone.status).toBe(201);
    const opened = await writer.api.post<PullRequest>(`/repos/${repo.full_name}/pulls`, {
      head: 'feature',
      base: 'main',
      title: uniqueName('pull'),
      assignees: [writer.username],
      labels: [label.body.id],
      milestone: milestone.body.id,
    });
    expect(opened.status).toBe(201);
    const n = opened.body.number;

    const open = await delivery(path, 'pull_request', 'opened');
    expect(open.d.headers['x-gitea-event']).toBe('pull_request');
    expect(Object.keys(open.body)).toEqual(['action', 'number', 'pull_request', 'requested_reviewer', 'repository', 'sender', 'commit_id', 'review']);
    expect(open.body).toMatchObject({ number: n, sender: { login: writer.username }, repository: { full_name: repo.full_name }, requested_reviewer: null, review: null });
    expect(stateOf(open.body.pull_request)).toEqual(stateOf(opened.body));

    // A push to the head: pull_request_sync, the head before and after.
    const before = opened.body.head!.sha;
    const after = await commitTo(repo, 'feature', 'two.txt');
    const sync = await delivery(path, 'pull_request_sync', 'synchronized');
    expect(sync.d.headers['x-gitea-event']).toBe('pull_request');
    expect(sync.body).toMatchObject({ number: n, before, after, sender: { login: writer.username }, pull_request: { head: { sha: after } } });

    const review = await owner.api.post(`/repos/${repo.full_name}/pulls/${n}/reviews`, { event: 'APPROVED', body: 'ship it' });
    expect(review.status).toBe(200);
    const approved = await delivery(path, 'pull_request_review_approved', 'reviewed');
    expect(approved.body).toMatchObject({ number: n, sender: { login: owner.username }, review: { type: 'pull_request_review_approved', content: 'ship it' } });

    const tip = (await owner.api.get<{ commit: { id: string } }>(`/repos/${repo.full_name}/branches/main`)).body.commit.id;
    const merge = await owner.api.post(`/repos/${repo.full_name}/pulls/${n}/merge`, { Do: 'merge' });
    expect(merge.status).toBe(200);
    const merged = (await owner.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${n}`)).body;
    // Closed and merged, its base the merge commit now at main's tip, its milestone counting it closed.
    expect(merged).toMatchObject({ state: 'closed', merged: true, merged_by: { login: owner.username }, milestone: { open_issues: 0, closed_issues: 1 } });
    expect(merged.base!.sha).toBe(merged.merge_commit_sha);
    const closed = await delivery(path, 'pull_request', 'closed');
    expect(closed.body).toMatchObject({ number: n, sender: { login: owner.username }, commit_id: '', review: null });
    // The merge's event shows the pull as it stands once merged: closed, merged, by whom, as which commit.
    expect(stateOf(closed.body.pull_request)).toEqual(stateOf(merged));
    expect(closed.body.pull_request.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    // The merge's push to the base is Gitea's push payload, nothing more: the merge commit and the head's two.
    const push = await expectEventually(() => {
      const found = receiver.at(path).find((d) => d.headers['x-gitea-event'] === 'push' && (JSON.parse(d.body) as { after: string }).after === merged.merge_commit_sha);
      if (!found) throw new Error('no push delivery of the merge');
      return JSON.parse(found.body) as Record<string, unknown>;
    });
    expect(Object.keys(push)).toEqual(['ref', 'before', 'after', 'compare_url', 'commits', 'total_commits', 'head_commit', 'repository', 'pusher', 'sender']);
    expect(push).toMatchObject({ ref: 'refs/heads/main', before: tip, after: merged.merge_commit_sha, total_commits: 3, pusher: { login: owner.username } });
  });

  it('should send a pull recorded as merged by hand as closed and merged by its recorder', async () => {
    const path = '/manual';
    const repo = await hooked(path);
    expect((await owner.api.patch(`/repos/${repo.full_name}`, { allow_manual_merge: true })).status).toBe(200);
    const head = await commitTo(repo, 'done', 'three.txt', 'main');
    const opened = await writer.api.post<PullRequest>(`/repos/${repo.full_name}/pulls`, { head: 'done', base: 'main', title: uniqueName('pull') });
    expect(opened.status).toBe(201);
    // The head reaches the base outside the forge's merge, then is recorded by hand.
    const dir = git.dir('clone');
    await git.run(['clone', '--quiet', gitUrl(layout, owner.username, repo.name, [owner.username, owner.password]), dir]);
    await git.run(['push', '--quiet', 'origin', `${head}:refs/heads/main`], { cwd: dir });
    const mark = await owner.api.post(`/repos/${repo.full_name}/pulls/${opened.body.number}/merge`, { Do: 'manually-merged', MergeCommitID: head });
    expect(mark.status).toBe(200);
    const merged = (await writer.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${opened.body.number}`)).body;
    const closed = await delivery(path, 'pull_request', 'closed');
    expect(closed.body.sender.login).toBe(owner.username);
    expect(stateOf(closed.body.pull_request)).toEqual(stateOf(merged));
    expect(closed.body.pull_request).toMatchObject({ merged: true, merge_commit_sha: head, merged_by: { login: owner.username } });
  });
});
