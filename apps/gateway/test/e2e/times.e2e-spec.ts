import type { AddTimeOption, CreateIssueOption, EditRepoOption, Issue, Repository, StopWatch, TimelineComment, TrackedTime } from '@gitforge/contracts';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

describe.each(layoutsUnderTest())('tracked times and stopwatches (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  /** Owns the repositories (repository administrator). */
  let alice: TestUser;
  /** A collaborator with write access. */
  let bob: TestUser;
  /** Signed in, only reads the public repository. */
  let carol: TestUser;
  let repo: Repository;
  let issue: Issue;
  /** Another issue of the same repository, for times that must not show on `issue`. */
  let other: Issue;

  const createRepo = async (owner: TestUser, extra: Record<string, unknown> = {}): Promise<Repository> => {
    const res = await owner.api.post<Repository>('/user/repos', { name: uniqueName('timed'), ...extra });
    if (res.status !== 201) throw new Error(`creating a repository: ${res.status} ${res.text}`);
    return res.body;
  };
  const createIssue = async (as: TestUser, r: Repository, title = uniqueName('issue')): Promise<Issue> => {
    const res = await as.api.post<Issue>(`/repos/${r.full_name}/issues`, { title } satisfies CreateIssueOption);
    if (res.status !== 201) throw new Error(`creating an issue: ${res.status} ${res.text}`);
    return res.body;
  };
  const addCollaborator = async (r: Repository, user: TestUser, permission = 'write'): Promise<void> => {
    const res = await alice.api.put(`/repos/${r.full_name}/collaborators/${user.username}`, { permission });
    if (res.status !== 204) throw new Error(`adding a collaborator: ${res.status} ${res.text}`);
  };
  const tracker = async (r: Repository, settings: NonNullable<EditRepoOption['internal_tracker']>): Promise<void> => {
    const res = await alice.api.patch(`/repos/${r.full_name}`, { internal_tracker: settings } satisfies EditRepoOption);
    if (res.status !== 200) throw new Error(`changing the tracker: ${res.status} ${res.text}`);
  };
  const times = (r: Repository, i: Issue) => `/repos/${r.full_name}/issues/${i.number}/times`;
  const stopwatch = (r: Repository, i: Issue) => `/repos/${r.full_name}/issues/${i.number}/stopwatch`;
  const add = (as: Api, r: Repository, i: Issue, body: AddTimeOption) => as.post<TrackedTime>(times(r, i), body);

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
    carol = await createUser(api, 'carol');
    repo = await createRepo(alice);
    await addCollaborator(repo, bob);
    issue = await createIssue(alice, repo, 'Measure me');
    other = await createIssue(alice, repo, 'Other');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  describe('tracked times of an issue', () => {
    it('should add a time (200) with the issue, the user and the deprecated ids, and list it with X-Total-Count only', async () => {
      const res = await add(alice.api, repo, issue, { time: 3600 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: expect.any(Number),
        created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        time: 3600,
        user_id: alice.id,
        user_name: alice.username,
        issue_id: issue.id,
        issue: expect.objectContaining({ id: issue.id, number: issue.number, title: 'Measure me', user: expect.objectContaining({ login: alice.username }) }),
      });
      const old = await add(bob.api, repo, issue, { time: 120, created: '2000-01-11T14:53:38Z' });
      expect(old.status).toBe(200);
      expect(old.body).toMatchObject({ time: 120, user_name: bob.username, created: '2000-01-11T14:53:38Z' });
      // Go clients send the zero time when they mean "now".
      const zero = await add(alice.api, repo, other, { time: 1, created: '0001-01-01T00:00:00Z' });
      expect(zero.status).toBe(200);
      expect(Date.parse(zero.body.created)).toBeGreaterThan(Date.parse('2020-01-01T00:00:00Z'));

      const list = await alice.api.get<TrackedTime[]>(times(repo, issue));
      expect(list.status).toBe(200);
      expect(list.body.map((t) => [t.user_name, t.time])).toEqual([
        [alice.username, 3600],
        [bob.username, 120],
      ]);
      expect(list.body[1]!.issue).toMatchObject({ number: issue.number });
      expect(list.headers.get('x-total-count')).toBe('2');
      expect(list.headers.get('link')).toBeNull();
      const paged = await alice.api.get<TrackedTime[]>(`${times(repo, issue)}?page=2&limit=1`);
      expect(paged.body.map((t) => t.user_name)).toEqual([bob.username]);
      expect(paged.headers.get('x-total-count')).toBe('2');
      // Gitea's GetListOptions makes the page at least 1: `limit` alone pages too.
      const first = await alice.api.get<TrackedTime[]>(`${times(repo, issue)}?limit=1`);
      expect(first.body.map((t) => t.user_name)).toEqual([alice.username]);
      expect(first.headers.get('x-total-count')).toBe('2');
    });

    it("should validate the body as Gitea's binding does", async () => {
      expect((await add(alice.api, repo, issue, { time: 0 })).body).toEqual(giteaError('[Time]: Required'));
      const missing = await alice.api.post(times(repo, issue), {});
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual(giteaError('[Time]: Required'));
      expect((await alice.api.post(times(repo, issue), { time: 5, created: 'yesterday' })).status).toBe(422);
    });

    it('should filter by since and before, and answer 422 for dates that are not RFC 3339', async () => {
      const before = await alice.api.get<TrackedTime[]>(`${times(repo, issue)}?before=2001-01-01T00:00:00Z`);
      expect(before.body.map((t) => t.user_name)).toEqual([bob.username]);
      const since = await alice.api.get<TrackedTime[]>(`${times(repo, issue)}?since=${encodeURIComponent('2001-01-01T00:00:00+01:00')}`);
      expect(since.body.map((t) => t.user_name)).toEqual([alice.username]);
      const exact = await alice.api.get<TrackedTime[]>(`${times(repo, issue)}?since=2000-01-11T14:53:38Z&before=2000-01-11T14:53:38Z`);
      expect(exact.body.map((t) => t.time)).toEqual([120]);
      for (const query of ['since=yesterday', 'before=2001-01-01']) {
        const bad = await alice.api.get(`${times(repo, issue)}?${query}`);
        expect(bad.status).toBe(422);
        expect(bad.body).toEqual(giteaError(/^parsing time/));
      }
    });

    it("should show non-writers only their own times, refuse them others' and answer 404 for an unknown user", async () => {
      expect((await carol.api.get<TrackedTime[]>(times(repo, issue))).body).toEqual([]);
      const others = await carol.api.get(`${times(repo, issue)}?user=${alice.username}`);
      expect(others.status).toBe(403);
      expect(others.body).toEqual(giteaError('query by user not allowed; not enough rights'));
      const byUser = await alice.api.get<TrackedTime[]>(`${times(repo, issue)}?user=${bob.username}`);
      expect(byUser.body.map((t) => t.user_name)).toEqual([bob.username]);
      expect((await alice.api.get(`${times(repo, issue)}?user=nobody${uniqueName('x')}`)).status).toBe(404);
      expect((await api.anonymous.get(times(repo, issue))).status).toBe(401);
      expect((await alice.api.get(`/repos/${repo.full_name}/issues/9999/times`)).status).toBe(404);
    });

    it('should let repository and site administrators log time for someone else, and ignore the name from others', async () => {
      const byAdmin = await add(api.admin, repo, issue, { time: 60, user_name: carol.username });
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body).toMatchObject({ user_id: carol.id, user_name: carol.username });
      const byOwner = await add(alice.api, repo, issue, { time: 30, user_name: bob.username });
      expect(byOwner.body).toMatchObject({ user_id: bob.id, user_name: bob.username });
      const byWriter = await add(bob.api, repo, issue, { time: 15, user_name: alice.username });
      expect(byWriter.body).toMatchObject({ user_id: bob.id, user_name: bob.username });
      const unknown = await add(api.admin, repo, issue, { time: 60, user_name: `nobody${uniqueName('x')}` });
      expect(unknown.status).toBe(422);
      expect(unknown.body).toEqual(giteaError(/^user does not exist/));
      expect((await carol.api.get<TrackedTime[]>(times(repo, issue))).body.map((t) => t.time)).toEqual([60]);
    });

    it('should delete one time (204) for its owner or a site administrator only, and flag it deleted', async () => {
      const mine = (await add(bob.api, repo, issue, { time: 7 })).body;
      const res = await alice.api.delete(`${times(repo, issue)}/${mine.id}`);
      expect(res.status).toBe(403);
      expect((await bob.api.delete(`${times(repo, issue)}/${mine.id}`)).status).toBe(204);
      const again = await bob.api.delete(`${times(repo, issue)}/${mine.id}`);
      expect(again.status).toBe(404);
      expect(again.body).toEqual(giteaError('tracked time was already deleted'));
      expect((await bob.api.delete(`${times(repo, issue)}/999999`)).status).toBe(404);
      const elsewhere = (await add(bob.api, repo, other, { time: 9 })).body;
      expect((await bob.api.delete(`${times(repo, issue)}/${elsewhere.id}`)).status).toBe(404);
      expect((await bob.api.delete(`${times(repo, other)}/${elsewhere.id}`)).status).toBe(204);
      const another = (await add(bob.api, repo, issue, { time: 8 })).body;
      expect((await api.admin.delete(`${times(repo, issue)}/${another.id}`)).status).toBe(204);
      const left = (await alice.api.get<TrackedTime[]>(times(repo, issue))).body.map((t) => t.id);
      expect(left).not.toContain(mine.id);
      expect(left).not.toContain(another.id);
    });

    it("should reset the caller's own times on the issue (204), then answer 404", async () => {
      const before = (await alice.api.get<TrackedTime[]>(times(repo, issue))).body;
      expect(before.some((t) => t.user_name === bob.username)).toBe(true);
      expect((await bob.api.delete(times(repo, issue))).status).toBe(204);
      const again = await bob.api.delete(times(repo, issue));
      expect(again.status).toBe(404);
      expect(again.body).toEqual(giteaError('tracked_time does not exist'));
      const after = (await alice.api.get<TrackedTime[]>(times(repo, issue))).body;
      expect(after.map((t) => t.user_name)).toEqual(before.filter((t) => t.user_name !== bob.username).map((t) => t.user_name));
    });
  });

  describe('listings of a repository and of the caller', () => {
    it("should list a repository's times: everyone's for writers, the caller's own for others", async () => {
      const all = await alice.api.get<TrackedTime[]>(`/repos/${repo.full_name}/times`);
      expect(all.status).toBe(200);
      expect(new Set(all.body.map((t) => t.user_name))).toEqual(new Set([alice.username, carol.username]));
      expect(all.headers.get('x-total-count')).toBe(String(all.body.length));
      expect(all.headers.get('link')).toBeNull();
      const own = await carol.api.get<TrackedTime[]>(`/repos/${repo.full_name}/times`);
      expect(own.body.map((t) => t.user_name)).toEqual([carol.username]);
      expect((await carol.api.get(`/repos/${repo.full_name}/times?user=${alice.username}`)).status).toBe(403);
      expect((await alice.api.get(`/repos/${repo.full_name}/times?before=soon`)).status).toBe(422);
      expect((await api.anonymous.get(`/repos/${repo.full_name}/times`)).status).toBe(401);
    });

    it("should list the caller's times across repositories and hide those of repositories it can no longer read", async () => {
      const secret = await createRepo(alice, { private: true });
      await addCollaborator(secret, bob);
      const hidden = await createIssue(alice, secret);
      const logged = (await add(bob.api, secret, hidden, { time: 42 })).body;
      const elsewhere = (await add(bob.api, repo, issue, { time: 43, created: '2000-06-01T00:00:00Z' })).body;

      const mine = await bob.api.get<TrackedTime[]>('/user/times');
      expect(mine.status).toBe(200);
      expect(mine.body.map((t) => t.id)).toEqual(expect.arrayContaining([logged.id, elsewhere.id]));
      expect(mine.body.every((t) => t.user_name === bob.username)).toBe(true);
      expect(mine.body.find((t) => t.id === logged.id)!.issue).toMatchObject({ number: hidden.number, repository: { full_name: secret.full_name } });
      expect(mine.headers.get('x-total-count')).toBe(String(mine.body.length));
      expect(mine.headers.get('link')).toBeNull();
      const old = await bob.api.get<TrackedTime[]>('/user/times?before=2001-01-01T00:00:00Z');
      expect(old.body.map((t) => t.id)).toEqual([elsewhere.id]);
      expect((await bob.api.get('/user/times?since=now')).body).toEqual(giteaError(/^parsing time/));
      expect((await api.anonymous.get('/user/times')).status).toBe(401);

      expect((await alice.api.delete(`/repos/${secret.full_name}/collaborators/${bob.username}`)).status).toBe(204);
      const after = await bob.api.get<TrackedTime[]>('/user/times');
      expect(after.body.map((t) => t.id)).not.toContain(logged.id);
      expect(after.body.map((t) => t.id)).toContain(elsewhere.id);
      expect(after.headers.get('x-total-count')).toBe(String(after.body.length));
    });
  });

  describe('stopwatches', () => {
    it('should start (201), refuse a second start (409), show it in /user/stopwatches and stop it into a tracked time (201)', async () => {
      expect((await bob.api.post(`${stopwatch(repo, issue)}/start`)).status).toBe(201);
      const twice = await bob.api.post(`${stopwatch(repo, issue)}/start`);
      expect(twice.status).toBe(409);
      expect(twice.body).toEqual(giteaError('cannot start a stopwatch again if it already exists'));

      const running = await bob.api.get<StopWatch[]>('/user/stopwatches');
      expect(running.status).toBe(200);
      expect(running.body).toEqual([
        {
          created: expect.stringMatching(/Z$/),
          seconds: expect.any(Number),
          duration: expect.any(String),
          issue_index: issue.number,
          issue_title: 'Measure me',
          repo_owner_name: alice.username,
          repo_name: repo.name,
        },
      ]);
      expect(running.headers.get('x-total-count')).toBe('1');
      expect(running.headers.get('link')).toBeNull();

      const before = (await bob.api.get<TrackedTime[]>(times(repo, issue))).body.length;
      expect((await bob.api.post(`${stopwatch(repo, issue)}/stop`)).status).toBe(201);
      const after = (await bob.api.get<TrackedTime[]>(times(repo, issue))).body;
      expect(after).toHaveLength(before + 1);
      expect(after[after.length - 1]).toMatchObject({ user_name: bob.username, time: expect.any(Number) });
      expect((await bob.api.get<StopWatch[]>('/user/stopwatches')).body).toEqual([]);
    });

    it('should answer 409 to stopping or deleting a stopwatch that is not running, and delete one without tracking (204)', async () => {
      const stop = await bob.api.post(`${stopwatch(repo, issue)}/stop`);
      expect(stop.status).toBe(409);
      expect(stop.body).toEqual(giteaError('cannot stop/cancel a non existent stopwatch'));
      expect((await bob.api.delete(`${stopwatch(repo, issue)}/delete`)).status).toBe(409);

      const count = (await bob.api.get<TrackedTime[]>(times(repo, issue))).body.length;
      expect((await bob.api.post(`${stopwatch(repo, issue)}/start`)).status).toBe(201);
      expect((await bob.api.delete(`${stopwatch(repo, issue)}/delete`)).status).toBe(204);
      expect((await bob.api.get<TrackedTime[]>(times(repo, issue))).body).toHaveLength(count);
      expect((await bob.api.get<StopWatch[]>('/user/stopwatches')).body).toEqual([]);
    });

    it('should stop a stopwatch running on another issue when one starts', async () => {
      const count = (await bob.api.get<TrackedTime[]>(times(repo, issue))).body.length;
      expect((await bob.api.post(`${stopwatch(repo, issue)}/start`)).status).toBe(201);
      expect((await bob.api.post(`${stopwatch(repo, other)}/start`)).status).toBe(201);
      expect((await bob.api.get<StopWatch[]>('/user/stopwatches')).body.map((s) => s.issue_index)).toEqual([other.number]);
      expect((await bob.api.get<TrackedTime[]>(times(repo, issue))).body).toHaveLength(count + 1);
      expect((await bob.api.delete(`${stopwatch(repo, other)}/delete`)).status).toBe(204);
    });

    it("should record each change in the issue's timeline as Gitea's time-tracking rows, and not among its comments", async () => {
      const logged = await createIssue(alice, repo, 'Logged');
      const added = (await add(alice.api, repo, logged, { time: 3660 })).body;
      const forBob = (await add(alice.api, repo, logged, { time: 45, user_name: bob.username })).body;
      expect((await bob.api.post(`${stopwatch(repo, logged)}/start`)).status).toBe(201);
      expect((await bob.api.post(`${stopwatch(repo, logged)}/stop`)).status).toBe(201);
      expect((await alice.api.post(`${stopwatch(repo, logged)}/start`)).status).toBe(201);
      expect((await alice.api.delete(`${stopwatch(repo, logged)}/delete`)).status).toBe(204);
      // Deleted by a site administrator: the row is still the time's owner's (Gitea's DeleteTime).
      expect((await api.admin.delete(`${times(repo, logged)}/${forBob.id}`)).status).toBe(204);
      expect((await alice.api.delete(times(repo, logged))).status).toBe(204);

      const timeline = (await alice.api.get<TimelineComment[]>(`/repos/${repo.full_name}/issues/${logged.number}/timeline`)).body;
      const rows = timeline.map((c) => [c.type, c.user!.login, c.body, c.tracked_time?.id ?? null]);
      const stopped = timeline.find((c) => c.type === 'stop_tracking')!;
      expect(rows).toEqual([
        ['add_time_manual', alice.username, '1 hour 1 minute', added.id],
        ['add_time_manual', bob.username, '45 seconds', forBob.id],
        ['start_tracking', bob.username, '', null],
        ['stop_tracking', bob.username, stopped.body, stopped.tracked_time!.id],
        ['start_tracking', alice.username, '', null],
        ['cancel_tracking', alice.username, '', null],
        ['delete_time_manual', bob.username, '45 seconds', null],
        ['delete_time_manual', alice.username, '1 hour 1 minute', null],
      ]);
      expect(timeline[0]!.tracked_time).toEqual({ ...added, issue: expect.objectContaining({ id: logged.id, number: logged.number }) });
      expect(stopped.tracked_time).toMatchObject({ user_name: bob.username, issue_id: logged.id });
      expect(stopped.body).toBe(stopped.tracked_time!.time > 0 ? expect.stringMatching(/second|minute|hour/) : '');
      // None of them is a comment.
      expect((await alice.api.get<unknown[]>(`/repos/${repo.full_name}/issues/${logged.number}/comments`)).body).toEqual([]);
    });

    it('should refuse stopwatches to readers (403) and to anonymous callers (401)', async () => {
      expect((await carol.api.post(`${stopwatch(repo, issue)}/start`)).status).toBe(403);
      expect((await api.anonymous.post(`${stopwatch(repo, issue)}/start`)).status).toBe(401);
      expect((await api.anonymous.get('/user/stopwatches')).status).toBe(401);
    });

    it("should remove an issue's times and stopwatches with the issue", async () => {
      const doomed = await createIssue(alice, repo);
      const logged = (await add(bob.api, repo, doomed, { time: 99 })).body;
      expect((await bob.api.post(`${stopwatch(repo, doomed)}/start`)).status).toBe(201);
      expect((await alice.api.delete(`/repos/${repo.full_name}/issues/${doomed.number}`)).status).toBe(204);
      expect((await bob.api.get<StopWatch[]>('/user/stopwatches')).body).toEqual([]);
      expect((await bob.api.get<TrackedTime[]>('/user/times')).body.map((t) => t.id)).not.toContain(logged.id);
      expect((await alice.api.get<TrackedTime[]>(`/repos/${repo.full_name}/times`)).body.map((t) => t.id)).not.toContain(logged.id);
    });
  });

  describe("the repository's tracker settings and permissions", () => {
    it("should list one user's times of a repository (deprecated times/{user}) to that user and administrators only", async () => {
      const r = await createRepo(alice);
      await addCollaborator(r, bob);
      const i = await createIssue(alice, r);
      const bobs = (await add(bob.api, r, i, { time: 60 })).body;
      await add(alice.api, r, i, { time: 30 });
      const own = await bob.api.get<TrackedTime[]>(`/repos/${r.full_name}/times/${bob.username}`);
      expect(own.status).toBe(200);
      expect(own.body).toEqual([expect.objectContaining({ id: bobs.id, user_name: bob.username, time: 60, issue_id: i.id })]);
      expect(own.headers.get('x-total-count')).toBeNull();
      // The repository administrator may ask for anyone's; a writer only for their own.
      expect((await alice.api.get<TrackedTime[]>(`/repos/${r.full_name}/times/${bob.username}`)).body.map((t) => t.id)).toEqual([bobs.id]);
      const refused = await bob.api.get(`/repos/${r.full_name}/times/${alice.username}`);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(giteaError('query by user not allowed; not enough rights'));
      expect((await alice.api.get(`/repos/${r.full_name}/times/${uniqueName('nobody')}`)).status).toBe(404);
      expect((await api.anonymous.get(`/repos/${r.full_name}/times/${bob.username}`)).status).toBe(401);
      const secret = await createRepo(alice, { private: true });
      expect((await carol.api.get(`/repos/${secret.full_name}/times/${carol.username}`)).status).toBe(404);
      await tracker(r, { enable_time_tracker: false });
      const off = await bob.api.get(`/repos/${r.full_name}/times/${bob.username}`);
      expect(off.status).toBe(400);
      expect(off.body).toEqual(giteaError('time tracking disabled'));
    });

    it("should answer Gitea's 400, 404 and 403 while time tracking is off", async () => {
      const r = await createRepo(alice);
      const i = await createIssue(alice, r);
      await tracker(r, { enable_time_tracker: false });
      const added = await add(alice.api, r, i, { time: 5 });
      expect(added.status).toBe(400);
      expect(added.body).toEqual(giteaError('time tracking disabled'));
      expect((await alice.api.delete(times(r, i))).status).toBe(400);
      expect((await alice.api.delete(`${times(r, i)}/1`)).status).toBe(400);
      const list = await alice.api.get(times(r, i));
      expect(list.status).toBe(404);
      expect(list.body).toEqual(giteaError('Timetracker is disabled'));
      const repoTimes = await alice.api.get(`/repos/${r.full_name}/times`);
      expect(repoTimes.status).toBe(400);
      expect(repoTimes.body).toEqual(giteaError('time tracking disabled'));
      expect((await alice.api.post(`${stopwatch(r, i)}/start`)).status).toBe(403);

      await tracker(r, { enable_time_tracker: true });
      expect((await add(alice.api, r, i, { time: 5 })).status).toBe(200);
    });

    it('should let only contributors, posters and assignees track unless the repository allows everyone', async () => {
      const r = await createRepo(alice);
      const i = await createIssue(alice, r);
      expect((await add(carol.api, r, i, { time: 5 })).status).toBe(403);
      const own = await createIssue(carol, r);
      expect((await add(carol.api, r, own, { time: 5 })).status).toBe(200);

      await tracker(r, { allow_only_contributors_to_track_time: false });
      const open = await add(carol.api, r, i, { time: 6 });
      expect(open.status).toBe(200);
      expect(open.body).toMatchObject({ user_name: carol.username, time: 6 });
      await tracker(r, { allow_only_contributors_to_track_time: true });
      expect((await add(carol.api, r, i, { time: 5 })).status).toBe(403);
    });

    it('should answer 404 to outsiders of a private repository and when the issue unit is off', async () => {
      const secret = await createRepo(alice, { private: true });
      const i = await createIssue(alice, secret);
      expect((await carol.api.get(times(secret, i))).status).toBe(404);
      expect((await add(carol.api, secret, i, { time: 5 })).status).toBe(404);
      expect((await carol.api.post(`${stopwatch(secret, i)}/start`)).status).toBe(404);
      expect((await carol.api.get(`/repos/${secret.full_name}/times`)).status).toBe(404);

      const r = await createRepo(alice);
      const j = await createIssue(alice, r);
      expect((await alice.api.patch(`/repos/${r.full_name}`, { has_issues: false } satisfies EditRepoOption)).status).toBe(200);
      expect((await alice.api.get(`/repos/${r.full_name}/times`)).status).toBe(404);
      expect((await add(alice.api, r, j, { time: 5 })).status).toBe(404);
    });

    it('should refuse every change in an archived repository with 423', async () => {
      const r = await createRepo(alice);
      const i = await createIssue(alice, r);
      const logged = (await add(alice.api, r, i, { time: 5 })).body;
      expect((await alice.api.patch(`/repos/${r.full_name}`, { archived: true } satisfies EditRepoOption)).status).toBe(200);
      const locked = await add(alice.api, r, i, { time: 5 });
      expect(locked.status).toBe(423);
      expect(locked.body).toEqual(giteaError('repo is archived'));
      expect((await alice.api.delete(`${times(r, i)}/${logged.id}`)).status).toBe(423);
      expect((await alice.api.delete(times(r, i))).status).toBe(423);
      expect((await alice.api.post(`${stopwatch(r, i)}/start`)).status).toBe(423);
      expect((await alice.api.get<TrackedTime[]>(times(r, i))).body.map((t) => t.id)).toEqual([logged.id]);
    });
  });
});
