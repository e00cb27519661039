import { createHmac } from 'node:crypto';
import type { Repository } from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { Api, createUser, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { HookReceiver } from './support/hook-receiver.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

interface PushPayload {
  ref: string;
  before: string;
  after: string;
  compare_url: string;
  total_commits: number;
  commits: Array<{ id: string; message: string; added: string[]; modified: string[]; author: { name: string; email: string; username: string } }>;
  head_commit: { id: string } | null;
  repository: { full_name: string };
  pusher: { login: string };
  sender: { login: string };
}

interface Activity {
  op_type: string;
  ref_name: string;
  content: string;
  act_user: { login: string };
  repo: { full_name: string };
}

/**
 * The git push path (repo-service) feeding the event pipeline (outbox → queue → webhook worker):
 * a real `git push` reaches a repository hook as Gitea's push, create and delete payloads, signed,
 * and the activity feed records it. Also file writes through the API.
 */
describe.each(layoutsUnderTest())('push events to webhooks and feeds (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let git: GitCli;
  let receiver: HookReceiver;
  let alice: TestUser;
  let work: string;
  const secret = 'push-hook-secret';

  beforeAll(async () => {
    receiver = await HookReceiver.start();
    layout = await Layout.start(kind, { env: { GITFORGE_WEBHOOK_ALLOW_LOOPBACK: '1' } });
    api = new Api(layout);
    git = GitCli.create();
    alice = await createUser(api, 'alice');
    expect((await alice.api.post<Repository>('/user/repos', { name: 'hooked' })).status).toBe(201);
    const hook = await alice.api.post(`/repos/${alice.username}/hooked/hooks`, {
      type: 'gitea',
      active: true,
      events: ['push', 'create', 'delete'],
      config: { url: receiver.url('/gitea'), content_type: 'json', secret },
    });
    expect(hook.status).toBe(201);
    work = git.dir();
    await git.run(['clone', '--quiet', gitUrl(layout, alice.username, 'hooked', [alice.username, alice.password]), work]);
  });

  afterAll(async () => {
    git?.cleanup();
    await layout?.stop();
    await receiver?.close();
  });

  const of = (event: string) => receiver.at('/gitea').filter((d) => d.headers['x-gitea-event'] === event);

  it('should deliver a push of new commits as Gitea push and create payloads, signed', async () => {
    const first = await git.commit(work, { 'a.txt': 'one\n' }, 'add a', { GIT_AUTHOR_EMAIL: alice.email, GIT_AUTHOR_NAME: 'Alice' });
    const second = await git.commit(work, { 'a.txt': 'two\n', 'b.txt': 'b\n' }, 'change a, add b');
    await git.run(['push', '--quiet', 'origin', 'main'], { cwd: work });

    await receiver.waitFor('/gitea', 2);
    const [push] = of('push');
    expect(push).toBeDefined();
    const expected = createHmac('sha256', secret).update(push!.body).digest('hex');
    expect(push!.headers['x-gitea-signature']).toBe(expected);
    expect(push!.headers['x-hub-signature-256']).toBe(`sha256=${expected}`);
    const payload = JSON.parse(push!.body) as PushPayload;
    expect(payload).toMatchObject({
      ref: 'refs/heads/main',
      before: '0'.repeat(40),
      after: second,
      total_commits: 2,
      head_commit: { id: second },
      repository: { full_name: `${alice.username}/hooked` },
      pusher: { login: alice.username },
      sender: { login: alice.username },
    });
    // As Gitea: the pusher as anyone sees them, the repository as its owner does, and no compare
    // link for the first push of the default branch (the root URL alone).
    expect(payload.pusher).toMatchObject({ email: `${alice.id}+${alice.username.toLowerCase()}@noreply.localhost`, is_admin: false, last_login: '0001-01-01T00:00:00Z' });
    expect(payload).toMatchObject({ compare_url: layout.rootUrl, repository: { permissions: { admin: true, push: true, pull: true } } });
    expect(payload.commits.map((c) => c.id)).toEqual([second, first]);
    expect(payload.commits[0]).toMatchObject({ message: 'change a, add b\n', added: ['b.txt'], modified: ['a.txt'] });
    expect(payload.commits[1]!.author).toMatchObject({ name: 'Alice', email: alice.email, username: alice.username });
    const create = JSON.parse(of('create')[0]!.body) as { ref: string; ref_type: string; sha: string };
    expect(create).toMatchObject({ ref: 'main', ref_type: 'branch', sha: second, repository: { permissions: { admin: false, push: false, pull: false } } });
  });

  it('should deliver a tag push as create and a branch deletion as delete', async () => {
    // Branch filters see a tag by its full ref (Gitea's checkBranchFilter on getPayloadRef).
    for (const [path, filter] of [['/main-only', 'main'], ['/tags-only', 'refs/tags/v*']] as const) {
      const filtered = await alice.api.post(`/repos/${alice.username}/hooked/hooks`, {
        type: 'gitea',
        active: true,
        events: ['push', 'create', 'delete'],
        branch_filter: filter,
        config: { url: receiver.url(path), content_type: 'json' },
      });
      expect(filtered.status).toBe(201);
    }
    await git.run(['tag', 'v1.0'], { cwd: work });
    await git.run(['push', '--quiet', 'origin', 'v1.0'], { cwd: work });
    await git.run(['push', '--quiet', 'origin', 'HEAD:refs/heads/topic'], { cwd: work });
    await git.run(['push', '--quiet', 'origin', '--delete', 'topic'], { cwd: work });
    await expectEventually(() => expect(of('delete')).toHaveLength(1), { timeoutMs: 20_000 });
    const created = of('create').map((d) => JSON.parse(d.body) as { ref: string; ref_type: string });
    expect(created).toEqual(expect.arrayContaining([expect.objectContaining({ ref: 'v1.0', ref_type: 'tag' })]));
    const deleted = of('delete').map((d) => JSON.parse(d.body) as { ref: string; ref_type: string; pusher_type: string });
    expect(deleted).toEqual([expect.objectContaining({ ref: 'topic', ref_type: 'branch', pusher_type: 'user' })]);
    // A new branch lists the last commits of its history and compares from the default branch
    // (its oldest listed commit has no parent); a new tag compares from the zero id.
    const pushes = of('push').map((d) => JSON.parse(d.body) as PushPayload & { after: string });
    const topic = pushes.find((p) => p.ref === 'refs/heads/topic')!;
    expect(topic).toMatchObject({ total_commits: 2, compare_url: `${layout.rootUrl}${alice.username}/hooked/compare/main...${topic.after}` });
    expect(topic.commits).toHaveLength(2);
    const tag = pushes.find((p) => p.ref === 'refs/tags/v1.0')!;
    expect(tag).toMatchObject({ total_commits: 0, commits: [], compare_url: `${layout.rootUrl}${alice.username}/hooked/compare/${'0'.repeat(40)}...${tag.after}` });
    const seen = (path: string) => receiver.at(path).map((d) => `${d.headers['x-gitea-event']} ${(JSON.parse(d.body) as { ref: string }).ref}`);
    await expectEventually(() => expect(seen('/tags-only').sort()).toEqual(['create v1.0', 'push refs/tags/v1.0']), { timeoutMs: 20_000 });
    expect(seen('/main-only')).toEqual([]);
  });

  it('should deliver a file written through the API as a push', async () => {
    const before = of('push').length;
    const res = await alice.api.post(`/repos/${alice.username}/hooked/contents/docs/api.md`, {
      content: Buffer.from('written by the API\n').toString('base64'),
      message: 'from the API',
    });
    expect(res.status).toBe(201);
    await expectEventually(() => expect(of('push').length).toBeGreaterThan(before), { timeoutMs: 20_000 });
    const pushes = of('push').slice(before).map((d) => JSON.parse(d.body) as PushPayload);
    expect(pushes).toEqual([expect.objectContaining({ ref: 'refs/heads/main', total_commits: 1 })]);
    expect(pushes[0]!.commits[0]).toMatchObject({ message: 'from the API\n', added: ['docs/api.md'] });
  });

  it('should record the pushes in the activity feeds', async () => {
    const feed = await expectFeed(`/repos/${alice.username}/hooked/activities/feeds`, (entries) =>
      ['commit_repo', 'push_tag', 'delete_branch'].every((op) => entries.some((e) => e.op_type === op)),
    );
    const commits = feed.find((e) => e.op_type === 'commit_repo' && e.ref_name === 'refs/heads/main')!;
    expect(commits).toMatchObject({ act_user: { login: alice.username }, repo: { full_name: `${alice.username}/hooked` } });
    const tag = feed.filter((e) => e.op_type === 'push_tag');
    // Once per tag, with its commit as head and a compare link from the empty id (Gitea's pushUpdates).
    expect(tag.map((e) => e.ref_name)).toEqual(['refs/tags/v1.0']);
    const content = JSON.parse(tag[0]!.content) as { Commits: null; HeadCommit: { Sha1: string }; CompareURL: string; Len: number };
    expect(content).toMatchObject({ Commits: null, Len: 0, CompareURL: `${alice.username}/hooked/compare/${'0'.repeat(40)}...${content.HeadCommit.Sha1}` });
    const userFeed = await alice.api.get<Activity[]>(`/users/${alice.username}/activities/feeds`);
    expect(userFeed.body.some((e) => e.op_type === 'commit_repo')).toBe(true);
  });

  function expectFeed(path: string, done: (entries: Activity[]) => boolean): Promise<Activity[]> {
    return expectEventually(
      async () => {
        const res = await alice.api.get<Activity[]>(`${path}?limit=50`);
        expect(res.status).toBe(200);
        expect(done(res.body)).toBe(true);
        return res.body;
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
  }
});
