import type { Comment, CreateIssueCommentOption, Issue, NotificationCount, NotificationThread, PullRequest, Repository } from '@gitforge/contracts';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { addToTeam, createOrg, createTeam, tokenApi } from './support/accounts.js';
import { basicAuth, rawRequest } from './support/http.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { addCollaborator, createIssue, createRepo } from './support/repos.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** Polls until `check` passes (threads are written by the projector, off the request path). */
async function eventually<T>(check: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 150));
    }
  }
}

describe.each(layoutsUnderTest())('notifications (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let owner: TestUser;
  let poster: TestUser;
  let assignee: TestUser;
  let mentioned: TestUser;
  let watcher: TestUser;
  let commenter: TestUser;
  let bystander: TestUser;
  let repo: Repository;
  let issue: Issue;
  let comment: Comment;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    [owner, poster, assignee, mentioned, watcher, commenter, bystander] = await Promise.all(
      ['nowner', 'nposter', 'nassignee', 'nmentioned', 'nwatcher', 'ncommenter', 'nbystander'].map((p) => createUser(api, p)),
    );
    repo = await createRepo(owner.api, { auto_init: true });
    await addCollaborator(owner.api, repo, assignee, 'write');
    expect((await watcher.api.put(`/repos/${repo.full_name}/subscription`)).status).toBe(200);
    issue = await createIssue(poster.api, repo, { body: 'Something is off' });
    const assigned = await owner.api.patch<Issue>(`/repos/${repo.full_name}/issues/${issue.number}`, { assignees: [assignee.username] });
    expect(assigned.status).toBe(201);
  });

  afterAll(async () => {
    await layout?.stop();
  });

  const threads = async (user: TestUser, query = ''): Promise<NotificationThread[]> => {
    const res = await user.api.get<NotificationThread[]>(`/notifications${query}`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const threadOf = async (user: TestUser, subjectUrl: string, query = '?all=true'): Promise<NotificationThread | undefined> =>
    (await threads(user, query)).find((t) => t.subject?.url === subjectUrl);
  /**
   * PUT and PATCH answer 205 with the threads changed, as Gitea does; fetch drops the body of a
   * 205 (a null-body status), so these read the raw response.
   */
  const mark = async <T>(user: TestUser, method: 'PUT' | 'PATCH', path: string): Promise<{ status: number; body: T }> => {
    const res = await rawRequest(layout, method, `/api/v1${path}`, { authorization: basicAuth(user.username, user.password) });
    return { status: res.status, body: (res.body.length ? JSON.parse(res.body.toString()) : undefined) as T };
  };
  const newCount = async (user: TestUser): Promise<number> => (await user.api.get<NotificationCount>('/notifications/new')).body.new;

  it('should notify the poster, the assignee, a mentioned user and a watcher of a comment, and not its author', async () => {
    const res = await commenter.api.post<Comment>(`/repos/${repo.full_name}/issues/${issue.number}/comments`, {
      body: `Looks like @${mentioned.username} broke it (\`@${bystander.username}\` is only quoted)`,
    } satisfies CreateIssueCommentOption);
    expect(res.status).toBe(201);
    comment = res.body;
    for (const user of [poster, assignee, mentioned, watcher, owner]) {
      const thread = await eventually(async () => {
        const found = await threadOf(user, issue.url);
        expect(found?.subject?.latest_comment_url).toBe(`${repo.url}/issues/comments/${comment.id}`);
        return found!;
      });
      expect(thread).toEqual({
        id: expect.any(Number),
        repository: expect.objectContaining({ id: repo.id, full_name: repo.full_name }),
        subject: {
          title: issue.title,
          url: issue.url,
          html_url: issue.html_url,
          latest_comment_url: `${repo.url}/issues/comments/${comment.id}`,
          latest_comment_html_url: comment.html_url,
          type: 'Issue',
          state: 'open',
        },
        unread: true,
        pinned: false,
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
        url: `${layout.apiUrl}/notifications/threads/${thread.id}`,
      });
      expect(thread.repository).not.toHaveProperty('permissions');
    }
    // The author of the comment, and someone only quoted in code, get nothing.
    expect(await threadOf(commenter, issue.url)).toBeUndefined();
    expect(await threadOf(bystander, issue.url)).toBeUndefined();
  });

  it('should answer the thread to its user, 403 to another user, 404 for an unknown one', async () => {
    const mine = (await threadOf(poster, issue.url))!;
    const got = await poster.api.get<NotificationThread>(`/notifications/threads/${mine.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: mine.id, subject: { type: 'Issue', url: issue.url } });
    const other = await bystander.api.get(`/notifications/threads/${mine.id}`);
    expect(other.status).toBe(403);
    expect(other.body).toEqual(giteaError(`only user itself and admin are allowed to read/change this thread ${mine.id}`));
    expect((await bystander.api.patch(`/notifications/threads/${mine.id}?to-status=read`)).status).toBe(403);
    expect(await poster.api.get('/notifications/threads/999999999')).toMatchObject({ status: 404, body: { message: 'notification does not exist [id: 999999999]' } });
    expect((await poster.api.get('/notifications/threads/nope')).status).toBe(404);
    expect((await api.anonymous.get(`/notifications/threads/${mine.id}`)).status).toBe(401);
    expect((await api.anonymous.get('/notifications')).status).toBe(401);
    // The notification scope, as Gitea asks for it here and on the repository's notifications.
    expect((await (await tokenApi(poster, ['read:repository'])).get('/notifications')).status).toBe(403);
    const scoped = await tokenApi(poster, ['read:notification']);
    expect((await scoped.get(`/notifications/threads/${mine.id}`)).status).toBe(200);
    expect((await scoped.get(`/repos/${repo.full_name}/notifications`)).status).toBe(200);
  });

  it('should mark a thread read, unread and pinned (205), and count the unread ones', async () => {
    const mine = (await threadOf(poster, issue.url))!;
    expect(await newCount(poster)).toBe(1);
    const read = await mark<NotificationThread>(poster, 'PATCH', `/notifications/threads/${mine.id}`);
    expect(read.status).toBe(205);
    expect(read.body).toMatchObject({ id: mine.id, unread: false, pinned: false });
    expect(await newCount(poster)).toBe(0);
    // Unread and pinned threads are listed by default; read ones with `all` or `status-types=read`.
    expect(await threadOf(poster, issue.url, '')).toBeUndefined();
    expect((await threadOf(poster, issue.url, '?status-types=read'))?.unread).toBe(false);
    const unread = await mark<NotificationThread>(poster, 'PATCH', `/notifications/threads/${mine.id}?to-status=unread`);
    expect(unread.status).toBe(205);
    expect(await newCount(poster)).toBe(1);
    const pinned = await mark<NotificationThread>(poster, 'PATCH', `/notifications/threads/${mine.id}?to-status=pinned`);
    expect(pinned.body).toMatchObject({ unread: false, pinned: true });
    expect(await newCount(poster)).toBe(0);
    expect((await threadOf(poster, issue.url, ''))?.pinned).toBe(true);
    expect((await threads(poster, '?subject-type=pull&all=true')).find((t) => t.subject?.url === issue.url)).toBeUndefined();
    expect((await poster.api.get('/notifications?since=yesterday')).status).toBe(422);
  });

  it('should turn a read thread unread on new activity, and show a closed issue as closed', async () => {
    const thread = (await threadOf(watcher, issue.url))!;
    expect((await watcher.api.patch(`/notifications/threads/${thread.id}?to-status=read`)).status).toBe(205);
    expect(await newCount(watcher)).toBe(0);
    expect((await owner.api.patch(`/repos/${repo.full_name}/issues/${issue.number}`, { state: 'closed' })).status).toBe(201);
    await eventually(async () => {
      const after = await threadOf(watcher, issue.url);
      expect(after).toMatchObject({ id: thread.id, unread: true, subject: { state: 'closed' } });
    });
    expect(await newCount(watcher)).toBe(1);
    // The pinned thread of the poster stays pinned and shows the new state.
    await eventually(async () => expect(await threadOf(poster, issue.url)).toMatchObject({ pinned: true, subject: { state: 'closed' } }));
  });

  it('should notify watchers of a new pull and show it merged once merged', async () => {
    const created = await owner.api.post<{ commit: { sha: string } }>(`/repos/${repo.full_name}/contents/feature.txt`, {
      content: b64('feature\n'),
      message: 'feature',
      branch: 'main',
      new_branch: 'feature',
    });
    expect(created.status).toBe(201);
    const pull = (
      await owner.api.post<PullRequest>(`/repos/${repo.full_name}/pulls`, { head: 'feature', base: 'main', title: uniqueName('pull'), reviewers: [assignee.username] })
    ).body;
    // The requested reviewer is notified of the request.
    await eventually(async () => {
      const asked = (await threads(assignee, '?subject-type=pull')).find((t) => t.subject?.html_url === pull.html_url);
      expect(asked).toMatchObject({ unread: true, subject: { type: 'Pull', state: 'open' } });
    });
    const open = await eventually(async () => {
      const found = (await threads(watcher, '?all=true&subject-type=pull')).find((t) => t.subject?.html_url === pull.html_url);
      expect(found).toBeDefined();
      return found!;
    });
    // Gitea gives a pull's subject its issue API URL.
    expect(open.subject!.url).toBe(`${repo.url}/issues/${pull.number}`);
    expect(open).toMatchObject({ subject: { type: 'Pull', state: 'open', html_url: pull.html_url, title: pull.title } });
    expect((await owner.api.post(`/repos/${repo.full_name}/pulls/${pull.number}/merge`, { Do: 'merge' })).status).toBe(200);
    await eventually(async () => {
      const [merged] = (await threads(watcher, '?all=true&subject-type=Pull')).filter((t) => t.subject?.html_url === pull.html_url);
      expect(merged).toMatchObject({ id: open.id, subject: { state: 'merged' } });
    });
    // The owner merged it and opened it: nothing for the owner about the pull.
    expect((await threads(owner, '?all=true')).find((t) => t.subject?.html_url === pull.html_url)).toBeUndefined();
  });

  it('should tell watchers of a work-in-progress pull when it opens and when it drops its prefix, not of what happens between', async () => {
    expect((await owner.api.post(`/repos/${repo.full_name}/contents/wip.txt`, { content: b64('wip\n'), message: 'wip', branch: 'main', new_branch: 'wip' })).status).toBe(201);
    const pull = (await owner.api.post<PullRequest>(`/repos/${repo.full_name}/pulls`, { head: 'wip', base: 'main', title: 'WIP: not yet' })).body;
    const opened = await eventually(async () => {
      const found = (await threads(watcher, '?all=true&subject-type=pull')).find((t) => t.subject?.html_url === pull.html_url);
      expect(found?.unread).toBe(true);
      return found!;
    });
    expect((await mark(watcher, 'PATCH', `/notifications/threads/${opened.id}`)).status).toBe(205);
    // A comment reaches the pull's poster, not its watchers while it is a work in progress.
    expect((await commenter.api.post(`/repos/${repo.full_name}/issues/${pull.number}/comments`, { body: 'early look' })).status).toBe(201);
    await eventually(async () => expect((await threadOf(owner, `${repo.url}/issues/${pull.number}`))?.unread).toBe(true));
    expect((await threadOf(watcher, `${repo.url}/issues/${pull.number}`))?.unread).toBe(false);
    expect((await owner.api.patch(`/repos/${repo.full_name}/pulls/${pull.number}`, { title: 'ready now' })).status).toBe(201);
    await eventually(async () => expect((await threadOf(watcher, `${repo.url}/issues/${pull.number}`))?.unread).toBe(true));
  });

  it('should list and mark one repository\'s threads, and mark all (205) up to last_read_at', async () => {
    const other = await createRepo(owner.api);
    expect((await watcher.api.put(`/repos/${other.full_name}/subscription`)).status).toBe(200);
    const otherIssue = await createIssue(poster.api, other);
    await eventually(async () => expect(await threadOf(watcher, otherIssue.url)).toBeDefined());
    const scoped = await watcher.api.get<NotificationThread[]>(`/repos/${other.full_name}/notifications?all=true`);
    expect(scoped.status).toBe(200);
    expect(scoped.body.map((t) => t.subject?.url)).toEqual([otherIssue.url]);
    expect(scoped.headers.get('x-total-count')).toBe('1');
    // Pages of threads carry Link as well (Gitea's SetLinkHeader).
    const firstOfAll = await watcher.api.get<NotificationThread[]>('/notifications?all=true&limit=1');
    expect(Number(firstOfAll.headers.get('x-total-count'))).toBeGreaterThan(1);
    expect(firstOfAll.headers.get('link')).toContain('rel="next"');

    const markedRepo = await mark<NotificationThread[]>(watcher, 'PUT', `/repos/${other.full_name}/notifications`);
    expect(markedRepo.status).toBe(205);
    expect(markedRepo.body.map((t) => [t.subject?.url, t.unread])).toEqual([[otherIssue.url, false]]);
    expect((await threadOf(watcher, issue.url))?.unread).toBe(true);

    expect((await watcher.api.put('/notifications?last_read_at=soon')).status).toBe(400);
    // Nothing was updated before the epoch, so nothing is marked.
    expect((await mark<NotificationThread[]>(watcher, 'PUT', '/notifications?last_read_at=1971-01-01T00:00:00Z')).body).toEqual([]);
    const all = await mark<NotificationThread[]>(watcher, 'PUT', '/notifications');
    expect(all.status).toBe(205);
    expect(all.body.length).toBeGreaterThan(0);
    expect(all.body.every((t) => !t.unread)).toBe(true);
    expect(await newCount(watcher)).toBe(0);
    expect((await bystander.api.get(`/repos/${owner.username}/nothing-here/notifications`)).status).toBe(404);
  });

  it('should notify nobody without access, and show a user who lost access their threads without repository or subject', async () => {
    const secret = await createRepo(owner.api, { private: true });
    const formerWatcher = await createUser(api, 'nformer');
    await addCollaborator(owner.api, secret, formerWatcher, 'read');
    expect((await formerWatcher.api.put(`/repos/${secret.full_name}/subscription`)).status).toBe(200);
    expect((await owner.api.delete(`/repos/${secret.full_name}/collaborators/${formerWatcher.username}`)).status).toBe(204);
    await addCollaborator(owner.api, secret, poster, 'read');
    expect((await poster.api.put(`/repos/${secret.full_name}/subscription`)).status).toBe(200);
    expect((await bystander.api.get(`/repos/${secret.full_name}/notifications`)).status).toBe(404);

    const hidden = await createIssue(owner.api, secret, { body: `cc @${bystander.username}` });
    // The poster (a reader watching it) is notified; the former watcher and the mentioned outsider are not.
    const posterThread = await eventually(async () => {
      const found = await threadOf(poster, hidden.url);
      expect(found).toBeDefined();
      return found!;
    });
    expect(posterThread.repository!.private).toBe(true);
    expect(await threadOf(formerWatcher, hidden.url)).toBeUndefined();
    expect(await threadOf(bystander, hidden.url)).toBeUndefined();
    expect((await owner.api.post(`/repos/${secret.full_name}/issues/${hidden.number}/comments`, { body: 'more' })).status).toBe(201);
    await eventually(async () => expect((await threadOf(poster, hidden.url))?.subject?.latest_comment_url).toMatch(/\/issues\/comments\/\d+$/));
    expect(await threadOf(formerWatcher, hidden.url)).toBeUndefined();

    // Losing access keeps the thread (listed, counted) but shows neither its repository nor its
    // subject (Gitea's ToNotificationThread), whether listed or asked for by id.
    const before = await newCount(poster);
    expect((await owner.api.delete(`/repos/${secret.full_name}/collaborators/${poster.username}`)).status).toBe(204);
    const listed = (await threads(poster, '?all=true')).find((t) => t.id === posterThread.id);
    expect(listed).toMatchObject({ id: posterThread.id, repository: null, subject: null });
    expect(await newCount(poster)).toBe(before);
    const byId = await poster.api.get<NotificationThread>(`/notifications/threads/${posterThread.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ id: posterThread.id, repository: null, subject: null, url: posterThread.url });
  });

  it('should notify issue subscribers, and leave alone a watcher who unsubscribed from the issue', async () => {
    const subject = await createIssue(poster.api, repo);
    const watched = await eventually(async () => {
      const found = await threadOf(watcher, subject.url);
      expect(found).toBeDefined();
      return found!;
    });
    expect((await watcher.api.patch(`/notifications/threads/${watched.id}`)).status).toBe(205);
    // Watching the repository follows its issues (Gitea's CheckIssueWatch), until the watcher says otherwise.
    const check = `/repos/${repo.full_name}/issues/${subject.number}/subscriptions/check`;
    expect((await watcher.api.get<{ subscribed: boolean }>(check)).body.subscribed).toBe(true);
    expect((await watcher.api.delete(`/repos/${repo.full_name}/issues/${subject.number}/subscriptions/${watcher.username}`)).status).toBe(201);
    expect((await watcher.api.get<{ subscribed: boolean }>(check)).body.subscribed).toBe(false);
    expect((await bystander.api.put(`/repos/${repo.full_name}/issues/${subject.number}/subscriptions/${bystander.username}`)).status).toBe(201);
    expect((await commenter.api.post(`/repos/${repo.full_name}/issues/${subject.number}/comments`, { body: 'news' })).status).toBe(201);
    await eventually(async () => expect(await threadOf(bystander, subject.url)).toMatchObject({ unread: true }));
    // The poster was notified of the same comment, so the watcher's thread would have turned unread by now.
    await eventually(async () => expect((await threadOf(poster, subject.url))?.subject?.latest_comment_url).toMatch(/comments\/\d+$/));
    expect(await threadOf(watcher, subject.url)).toMatchObject({ id: watched.id, unread: false });
  });
  it('should compare since, before and last_read_at in whole seconds, as the updated_at it shows (Gitea\'s updated_unix)', async () => {
    const other = await createRepo(owner.api);
    expect((await watcher.api.put(`/repos/${other.full_name}/subscription`)).status).toBe(200);
    const fresh = await createIssue(poster.api, other);
    const thread = await eventually(async () => {
      const found = await threadOf(watcher, fresh.url);
      expect(found).toBeDefined();
      return found!;
    });
    const at = encodeURIComponent(thread.updated_at);
    expect((await threads(watcher, `?before=${at}`)).map((t) => t.id)).toContain(thread.id);
    expect((await threads(watcher, `?since=${at}`)).map((t) => t.id)).toContain(thread.id);
    // Marking up to the time a client was shown marks that thread.
    const marked = await mark<NotificationThread[]>(watcher, 'PUT', `/repos/${other.full_name}/notifications?last_read_at=${at}`);
    expect(marked.body.map((t) => t.id)).toEqual([thread.id]);
  });

  it('should answer bad or repeated query values with 4xx, never 5xx', async () => {
    // Go's FormString reads the first of repeated values; bad times are 422 (lists) and 400 (last_read_at).
    expect((await owner.api.get('/notifications?since=yesterday')).status).toBe(422);
    expect((await owner.api.get('/notifications?before=2024-13-45T00:00:00Z')).status).toBe(422);
    expect((await owner.api.get('/notifications?since=2024-01-01T00:00:00Z&since=x')).status).toBe(200);
    expect((await owner.api.get('/notifications?all=true&all=false&subject-type=issue&subject-type=pull')).status).toBe(200);
    expect((await owner.api.get('/notifications?limit=100000000000&page=99999999999999')).status).toBe(200);
    expect((await mark(owner, 'PUT', '/notifications?last_read_at=yesterday')).status).toBe(400);
    expect((await mark(owner, 'PUT', '/notifications?last_read_at=2000-01-01T00:00:00Z&last_read_at=x&to-status=read&to-status=pinned')).status).toBe(205);
    expect((await owner.api.get('/notifications/threads/99999999999')).status).toBe(404);
    expect((await owner.api.get('/notifications/threads/abc')).status).toBe(404);
    expect((await mark(owner, 'PATCH', '/notifications/threads/4294967297?to-status=read&to-status=unread')).status).toBe(404);
  });

  const repoThreadOf = async (user: TestUser, repoId: number): Promise<NotificationThread | undefined> =>
    (await threads(user, '?all=true&subject-type=repository')).find((t) => t.repository?.id === repoId);

  it('should notify the recipient of a pending transfer (a Repository thread), not the doer, and keep it at the new name once accepted', async () => {
    const moving = await createRepo(owner.api);
    const started = await owner.api.post<Repository>(`/repos/${moving.full_name}/transfer`, { new_owner: poster.username });
    expect(started.status).toBe(201);
    const thread = await eventually(async () => {
      const found = await repoThreadOf(poster, moving.id);
      expect(found).toBeDefined();
      return found!;
    });
    // Gitea's subject of a Repository thread: its full name, its relative link as `url`, no state.
    expect(thread).toMatchObject({
      unread: true,
      pinned: false,
      repository: { id: moving.id, full_name: moving.full_name },
      subject: { type: 'Repository', title: moving.full_name, url: `/${moving.full_name}`, html_url: moving.html_url, latest_comment_url: '', latest_comment_html_url: '', state: '' },
    });
    expect(await repoThreadOf(owner, moving.id)).toBeUndefined();
    // Accepting leaves the thread (as Gitea), which now shows the repository where it went.
    expect((await poster.api.post(`/repos/${moving.full_name}/transfer/accept`)).status).toBe(202);
    const moved = `${poster.username}/${moving.name}`;
    const after = await poster.api.get<NotificationThread>(`/notifications/threads/${thread.id}`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({
      repository: { id: moving.id, full_name: moved },
      subject: { type: 'Repository', title: moved, url: `/${moved}`, html_url: `${layout.rootUrl}${moved}` },
    });
  });

  it('should notify those who may create repositories in a recipient organization, not its other members, and keep the threads on rejection', async () => {
    const org = await createOrg(commenter.api);
    const creators = await createTeam(commenter.api, org.name, { permission: 'write', can_create_org_repo: true });
    const readers = await createTeam(commenter.api, org.name, { permission: 'read' });
    await addToTeam(commenter.api, creators.id, assignee);
    await addToTeam(commenter.api, readers.id, mentioned);
    const moving = await createRepo(owner.api);
    expect((await owner.api.post(`/repos/${moving.full_name}/transfer`, { new_owner: org.name })).status).toBe(201);
    const got = [];
    // The organization's owner (its Owners team) and the member of the team that may create repositories.
    for (const user of [commenter, assignee]) {
      got.push(
        await eventually(async () => {
          const found = await repoThreadOf(user, moving.id);
          expect(found).toMatchObject({ unread: true, subject: { type: 'Repository', title: moving.full_name } });
          return found!;
        }),
      );
    }
    // Written with the others, in the same transaction: the reader has none.
    expect(await repoThreadOf(mentioned, moving.id)).toBeUndefined();
    expect((await assignee.api.post(`/repos/${moving.full_name}/transfer/reject`)).status).toBe(200);
    expect((await commenter.api.get<NotificationThread>(`/notifications/threads/${got[0]!.id}`)).body).toMatchObject({
      repository: { full_name: moving.full_name },
      subject: { type: 'Repository', url: `/${moving.full_name}` },
    });
  });

  it("should point a thread's subject and comment URLs at the repository's new name after a rename", async () => {
    const renamedRepo = await createRepo(owner.api, { auto_init: true });
    const subject = await createIssue(poster.api, renamedRepo);
    const said = await owner.api.post<Comment>(`/repos/${renamedRepo.full_name}/issues/${subject.number}/comments`, { body: 'on it' });
    expect(said.status).toBe(201);
    const before = await eventually(async () => {
      const found = await threadOf(poster, subject.url);
      expect(found?.subject?.latest_comment_url).toBe(`${renamedRepo.url}/issues/comments/${said.body.id}`);
      return found!;
    });
    const newName = uniqueName('renamed');
    expect((await owner.api.patch(`/repos/${renamedRepo.full_name}`, { name: newName })).status).toBe(200);
    const full = `${owner.username}/${newName}`;
    const after = await poster.api.get<NotificationThread>(`/notifications/threads/${before.id}`);
    expect(after.body).toMatchObject({
      repository: { id: renamedRepo.id, full_name: full },
      subject: {
        type: 'Issue',
        title: subject.title,
        url: `${layout.apiUrl}/repos/${full}/issues/${subject.number}`,
        html_url: `${layout.rootUrl}${full}/issues/${subject.number}`,
        latest_comment_url: `${layout.apiUrl}/repos/${full}/issues/comments/${said.body.id}`,
        latest_comment_html_url: `${layout.rootUrl}${full}/issues/${subject.number}#issuecomment-${said.body.id}`,
      },
    });
    // The list shows the same.
    expect((await threads(poster, '?all=true')).find((t) => t.id === before.id)?.subject?.html_url).toBe(`${layout.rootUrl}${full}/issues/${subject.number}`);
  });
});
