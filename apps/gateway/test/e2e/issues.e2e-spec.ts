import type { CreateIssueOption, EditIssueOption, EditRepoOption, Issue, IssueDeadline, Repository } from '@gitforge/contracts';
import { createOrg } from './support/accounts.js';
import { Api, createUser, giteaError, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { addCollaborator, createIssue, createRepo } from './support/repos.js';

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe.each(layoutsUnderTest())('issues API (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let repo: Repository;
  let secret: Repository;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    [owner, writer, reader, outsider] = await Promise.all([
      createUser(api, 'owner'),
      createUser(api, 'writer'),
      createUser(api, 'reader'),
      createUser(api, 'outsider'),
    ]);
    repo = await createRepo(owner.api);
    secret = await createRepo(owner.api, { private: true });
    for (const r of [repo, secret]) {
      await addCollaborator(owner.api, r, writer, 'write');
      await addCollaborator(owner.api, r, reader, 'read');
    }
  });

  afterAll(async () => {
    await layout?.stop();
  });

  const path = (r: Repository, rest = '') => `/repos/${r.full_name}/issues${rest}`;
  const openCount = async (r: Repository) => (await owner.api.get<Repository>(`/repos/${r.full_name}`)).body.open_issues_count;

  it('should create an issue (201) in Gitea’s shape, with assignees and a due date from writers', async () => {
    const due = '2030-01-02T03:04:05Z';
    const res = await writer.api.post<Issue>(path(repo), {
      title: 'The first',
      body: 'hello @reader',
      assignees: [writer.username],
      due_date: due,
      ref: 'main',
    } satisfies CreateIssueOption);
    expect(res.status).toBe(201);
    const issue = res.body;
    expect(issue).toMatchObject({
      title: 'The first',
      body: 'hello @reader',
      ref: 'main',
      state: 'open',
      comments: 0,
      is_locked: false,
      labels: [],
      milestone: null,
      assets: [],
      closed_at: null,
      due_date: due,
      pull_request: null,
      pin_order: 0,
      content_version: 0,
      original_author: '',
      original_author_id: 0,
      repository: { id: repo.id, name: repo.name, owner: owner.username, full_name: repo.full_name },
      url: `${layout.apiUrl}/repos/${repo.full_name}/issues/${issue.number}`,
      html_url: `${layout.rootUrl}${repo.full_name}/issues/${issue.number}`,
    });
    expect(issue.user.login).toBe(writer.username);
    expect(issue.assignee?.login).toBe(writer.username);
    expect(issue.assignees?.map((u) => u.login)).toEqual([writer.username]);
    expect(issue.created_at).toMatch(TIME);
    const got = await outsider.api.get<Issue>(path(repo, `/${issue.number}`));
    expect(got.status).toBe(200);
    // The same issue; its poster is shown as each caller sees them (below).
    expect({ ...got.body, user: null }).toEqual({ ...issue, user: null });
  });

  it('should show the poster as the caller sees them (Gitea’s ToAPIIssue), assignees as anyone does', async () => {
    const created = await writer.api.post<Issue>(path(repo), { title: 'Whose e-mail', assignees: [owner.username] });
    expect(created.status).toBe(201);
    const number = created.body.number;
    // The poster itself sees its own private fields; another signed-in user its e-mail only.
    expect(created.body.user).toMatchObject({ login: writer.username, email: writer.email, active: true });
    const asReader = await reader.api.get<Issue>(path(repo, `/${number}`));
    expect(asReader.body.user).toMatchObject({ email: writer.email, active: false, last_login: '0001-01-01T00:00:00Z' });
    const asAnyone = await api.anonymous.get<Issue>(path(repo, `/${number}`));
    expect(asAnyone.body.user.email).toBe(`${writer.id}+${writer.username.toLowerCase()}@noreply.localhost`);
    // Assignees are shown as to anyone (ToUser without a doer), whoever asks.
    expect(asReader.body.assignees?.[0]).toMatchObject({ login: owner.username, email: `${owner.id}+${owner.username.toLowerCase()}@noreply.localhost` });
    const listed = (await reader.api.get<Issue[]>(path(repo, '?type=issues&state=all&limit=50'))).body.find((i) => i.number === number);
    expect(listed?.user.email).toBe(writer.email);
  });

  it('should record a replaced assignee before the new one, as Gitea\'s UpdateAssignees does', async () => {
    const issue = await createIssue(owner.api, repo, { title: 'hand over', assignees: [writer.username] });
    expect((await owner.api.patch(path(repo, `/${issue.number}`), { assignees: [owner.username] } satisfies EditIssueOption)).status).toBe(201);
    const timeline = (await owner.api.get<Array<{ type: string; assignee: { login: string } | null; removed_assignee: boolean }>>(path(repo, `/${issue.number}/timeline`))).body;
    expect(timeline.filter((t) => t.type === 'assignees').map((t) => [t.assignee?.login, t.removed_assignee])).toEqual([
      [writer.username, false],
      [writer.username, true],
      [owner.username, false],
    ]);
  });

  it('should let readers open issues on a public repository, ignoring what only writers may set', async () => {
    const res = await outsider.api.post<Issue>(path(repo), {
      title: 'from a stranger',
      assignees: [writer.username],
      due_date: '2030-01-01T00:00:00Z',
      closed: false,
    } satisfies CreateIssueOption);
    expect(res.status).toBe(201);
    expect(res.body.assignees).toBeNull();
    expect(res.body.due_date).toBeNull();
  });

  it('should refuse bad input with Gitea’s 4xx bodies', async () => {
    expect(await writer.api.post(path(repo), { body: 'no title' })).toMatchObject({ status: 422, body: giteaError('[Title]: Required') });
    expect(await writer.api.post(path(repo), { title: 'x'.repeat(256) })).toMatchObject({ status: 422, body: giteaError('[Title]: MaxSize') });
    // Gitea's NewIssueWithIndex drops a milestone or labels that do not exist.
    expect(await writer.api.post(path(repo), { title: 't', milestone: 999999 })).toMatchObject({ status: 201, body: { milestone: null } });
    expect(await writer.api.post(path(repo), { title: 't', labels: [999999] })).toMatchObject({ status: 201, body: { labels: [] } });
    expect(await writer.api.post(path(repo), { title: 't', assignees: ['no-such-user-x'] })).toMatchObject({
      status: 422,
      body: giteaError(/user does not exist/),
    });
    // An outsider reads a public repository's pull requests, so Gitea lets them be assigned there; not in a private one.
    expect(await writer.api.post(path(secret), { title: 't', assignees: [outsider.username] })).toMatchObject({
      status: 422,
      body: giteaError(/does not have access to repo/),
    });
    expect(await writer.api.post(path(repo), { title: 't', labels: 'x' })).toMatchObject({ status: 422 });
    expect(await writer.api.post(path(repo), { title: 't\u0000x' })).toMatchObject({ status: 422, body: giteaError(/NUL/) });
    expect((await writer.api.get(path(repo, '/abc'))).status).toBe(404);
    expect((await writer.api.get(path(repo, '/999999'))).status).toBe(404);
    expect((await writer.api.get(`${path(repo)}?since=yesterday`)).status).toBe(422);
    // Ids no row can have, impossible dates and NUL characters name nothing: never a 5xx.
    expect((await writer.api.get(path(repo, '/3000000000'))).status).toBe(404);
    expect((await writer.api.post(path(repo), { title: 't', milestone: 3000000000 })).status).toBe(422);
    expect((await writer.api.post(path(repo), { title: 't', labels: [1e20] })).status).toBe(422);
    expect(await writer.api.post(path(repo), { title: 't', due_date: '2024-W05-1' })).toMatchObject({ status: 422, body: giteaError('[DueDate]: Date') });
    expect((await writer.api.get(`${path(repo)}?labels=%00&milestones=%00&q=%00`)).status).toBe(200);
    expect((await writer.api.get(`/repos/${owner.username}%00/${repo.name}/issues`)).status).toBe(404);
    expect((await writer.api.get(`/repos/${repo.full_name}/milestones/%00`)).status).toBe(404);
  });

  it('should hide private repositories’ issues from outsiders and need a token to write', async () => {
    const issue = await createIssue(reader.api, secret, { title: 'secret' });
    expect((await outsider.api.get(path(secret, `/${issue.number}`))).status).toBe(404);
    expect((await outsider.api.get(path(secret))).status).toBe(404);
    expect((await outsider.api.post(path(secret), { title: 'x' })).status).toBe(404);
    expect((await api.anonymous.get(path(secret))).status).toBe(404);
    expect((await api.anonymous.get(path(repo))).status).toBe(200);
    expect(await api.anonymous.post(path(repo), { title: 'x' })).toMatchObject({ status: 401 });
    // Gitea assigns the repository before its reqToken: a hidden one is 404 to anonymous writers too.
    expect((await api.anonymous.post(path(secret), { title: 'x' })).status).toBe(404);
    expect((await api.anonymous.patch(path(secret, `/${issue.number}`), { title: 'x' })).status).toBe(404);
    expect((await api.anonymous.post(path(secret, `/${issue.number}/comments`), { body: 'x' })).status).toBe(404);
    expect((await api.anonymous.post(`/repos/${owner.username}/no-such-repo/issues`, { title: 'x' })).status).toBe(404);
    expect((await api.anonymous.patch(path(repo, `/${issue.number}`), { title: 'x' })).status).toBe(401);
    // Gitea binds the body after assigning the repository: a body it would refuse (422) still gets the 404 first.
    expect((await outsider.api.post(path(secret), {})).status).toBe(404);
    expect((await api.anonymous.post(path(secret), {})).status).toBe(404);
    expect((await api.anonymous.post(`/repos/${owner.username}/no-such-repo/issues`, {})).status).toBe(404);
    // ...and its reqToken comes before the body too: an anonymous write to a visible repository is 401 whatever it sends.
    expect(await api.anonymous.post(path(repo), {})).toMatchObject({ status: 401, body: giteaError('token is required') });
    expect((await api.anonymous.patch(path(repo, `/${issue.number}`), { title: 42 })).status).toBe(401);
    expect(await reader.api.post(path(secret), {})).toMatchObject({ status: 422, body: giteaError('[Title]: Required') });
    expect((await reader.api.get(path(secret, `/${issue.number}`))).body).toMatchObject({ title: 'secret' });
  });

  it('should number issues once each under concurrent creation and count the open ones exactly', async () => {
    const fresh = await createRepo(owner.api);
    await addCollaborator(owner.api, fresh, writer, 'write');
    const created = await Promise.all(Array.from({ length: 12 }, (_, i) => createIssue(i % 2 ? writer.api : owner.api, fresh, { title: `n${i}` })));
    const numbers = created.map((i) => i.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(await openCount(fresh)).toBe(12);
    const closes = await Promise.all(created.slice(0, 5).map((i) => writer.api.patch(path(fresh, `/${i.number}`), { state: 'closed' } satisfies EditIssueOption)));
    expect(closes.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(await openCount(fresh)).toBe(7);
    const closed = await owner.api.get<Issue[]>(`${path(fresh)}?state=closed&limit=50`);
    expect(closed.headers.get('x-total-count')).toBe('5');
    const all = await owner.api.get<Issue[]>(`${path(fresh)}?state=all&limit=5&page=2`);
    expect(all.headers.get('x-total-count')).toBe('12');
    expect(all.body.map((i) => i.number)).toEqual([7, 6, 5, 4, 3]);
    expect(all.headers.get('link')).toContain('rel="next"');
  });

  it('should filter the list as Gitea does (state, q, type, created_by, assigned_by, mentioned_by, since)', async () => {
    const fresh = await createRepo(owner.api);
    await addCollaborator(owner.api, fresh, writer, 'write');
    const a = await createIssue(writer.api, fresh, { title: 'Alpha bug', body: `ping @${reader.username}`, assignees: [owner.username] });
    expect(a.assignees?.map((u) => u.login)).toEqual([owner.username]);
    const b = await createIssue(reader.api, fresh, { title: 'beta', body: 'the ALPHA word' });
    const c = await createIssue(owner.api, fresh, { title: 'gamma', closed: true });
    const numbers = async (query: string) => (await outsider.api.get<Issue[]>(`${path(fresh)}?${query}`)).body.map((i) => i.number);
    expect(await numbers('')).toEqual([b.number, a.number]);
    expect(await numbers('state=closed')).toEqual([c.number]);
    expect(await numbers('state=all')).toEqual([c.number, b.number, a.number]);
    expect(await numbers('q=alpha')).toEqual([b.number, a.number]);
    expect(await numbers('q=BETA')).toEqual([b.number]);
    // Comments are searched too (Gitea's issue indexer), not other timeline entries.
    expect((await owner.api.post(path(fresh, `/${a.number}/comments`), { body: 'seen in Zeta builds' })).status).toBe(201);
    expect(await numbers('q=zeta')).toEqual([a.number]);
    expect(await numbers('q=no-such-word-anywhere')).toEqual([]);
    expect(await numbers('type=pulls')).toEqual([]);
    expect(await numbers('milestones=no-such-milestone')).toEqual([b.number, a.number]);
    // Several labels: the repository list wants all of them (Gitea's LabelIDs), the search any (its label names).
    const [l1, l2] = await Promise.all(['ux', 'api'].map(async (name) => (await owner.api.post<{ id: number }>(`/repos/${fresh.full_name}/labels`, { name, color: '#112233' })).body));
    await owner.api.post(path(fresh, `/${a.number}/labels`), { labels: [l1!.id, l2!.id] });
    await owner.api.post(path(fresh, `/${b.number}/labels`), { labels: [l1!.id] });
    expect(await numbers('labels=ux,api')).toEqual([a.number]);
    expect(await numbers('labels=ux,no-such-label')).toEqual([b.number, a.number]);
    const anyOf = await outsider.api.get<Issue[]>(`/repos/issues/search?owner=${owner.username}&labels=ux,api&state=all`);
    expect(anyOf.body.filter((i) => i.repository.id === fresh.id).map((i) => i.number)).toEqual([b.number, a.number]);
    expect(await numbers(`created_by=${reader.username}`)).toEqual([b.number]);
    expect(await numbers(`assigned_by=${owner.username}`)).toEqual([a.number]);
    expect(await numbers(`mentioned_by=${reader.username}`)).toEqual([a.number]);
    expect(await numbers(`since=${encodeURIComponent('2000-01-01T00:00:00Z')}&before=${encodeURIComponent('2100-01-01T00:00:00Z')}`)).toEqual([b.number, a.number]);
    expect(await numbers(`before=${encodeURIComponent('2000-01-01T00:00:00Z')}`)).toEqual([]);
    expect((await outsider.api.get(`${path(fresh)}?created_by=no-such-user-y`)).status).toBe(404);
  });

  it('should edit issues (201): title, body with content_version, state with closed_at, deadline, assignees', async () => {
    const issue = await createIssue(reader.api, repo, { title: 'to edit', body: 'v0' });
    const before = await openCount(repo);
    const edited = await reader.api.patch<Issue>(path(repo, `/${issue.number}`), { title: 'edited', body: 'v1', state: 'closed' } satisfies EditIssueOption);
    expect(edited.status).toBe(201);
    expect(edited.body).toMatchObject({ title: 'edited', body: 'v1', state: 'closed', content_version: 1 });
    expect(edited.body.closed_at).toMatch(TIME);
    expect(await openCount(repo)).toBe(before - 1);
    const stale = await reader.api.patch(path(repo, `/${issue.number}`), { body: 'v2', content_version: 0 } satisfies EditIssueOption);
    expect(stale).toMatchObject({ status: 409, body: giteaError('the issue is already changed') });
    // A stale version fails the whole edit, whatever else it asks.
    expect(await reader.api.patch(path(repo, `/${issue.number}`), { title: 'other', content_version: 0 } satisfies EditIssueOption)).toMatchObject({ status: 409 });
    // The poster may not set a deadline or assignees; those are ignored for non-writers.
    const ignored = await reader.api.patch<Issue>(path(repo, `/${issue.number}`), { due_date: '2031-05-06T07:08:09Z', assignees: [writer.username] } satisfies EditIssueOption);
    expect(ignored.body).toMatchObject({ due_date: null, assignees: null });
    const byWriter = await writer.api.patch<Issue>(path(repo, `/${issue.number}`), {
      due_date: '2031-05-06T07:08:09Z',
      assignees: [writer.username, owner.username],
      state: 'open',
    } satisfies EditIssueOption);
    expect(byWriter.body).toMatchObject({ due_date: '2031-05-06T23:59:59Z', state: 'open', closed_at: null });
    expect(byWriter.body.assignees?.map((u) => u.login).sort()).toEqual([owner.username, writer.username].sort());
    const cleared = await writer.api.patch<Issue>(path(repo, `/${issue.number}`), { unset_due_date: true, assignees: [] } satisfies EditIssueOption);
    expect(cleared.body).toMatchObject({ due_date: null, assignees: null, assignee: null });
    expect(await openCount(repo)).toBe(before);
    expect((await outsider.api.patch(path(repo, `/${issue.number}`), { title: 'hijack' })).status).toBe(403);
    // A null state is no state (Gitea's *string).
    expect(await writer.api.patch(path(repo, `/${issue.number}`), { state: null })).toMatchObject({ status: 201, body: { state: 'open' } });
    // Gitea binds no rule on the state: closeOrReopenIssue answers 412 for one it does not know.
    expect(await writer.api.patch(path(repo, `/${issue.number}`), { state: 'done' })).toMatchObject({ status: 412, body: giteaError('unknown state: done') });
  });

  it('should set and remove deadlines (201 with the deadline)', async () => {
    const issue = await createIssue(writer.api, repo);
    const set = await writer.api.post<IssueDeadline>(path(repo, `/${issue.number}/deadline`), { due_date: '2032-02-03T10:00:00Z' });
    expect(set).toMatchObject({ status: 201, body: { due_date: '2032-02-03T23:59:59Z' } });
    expect((await api.anonymous.get<Issue>(path(repo, `/${issue.number}`))).body.due_date).toBe('2032-02-03T23:59:59Z');
    expect((await writer.api.post<IssueDeadline>(path(repo, `/${issue.number}/deadline`), { due_date: null })).body).toEqual({ due_date: null });
    expect((await reader.api.post(path(repo, `/${issue.number}/deadline`), { due_date: '2032-02-03T10:00:00Z' })).status).toBe(403);
  });

  it('should lock and unlock (204) for repository admins only (Gitea’s reqAdmin), before it looks for the issue', async () => {
    const issue = await createIssue(reader.api, repo);
    const admins = giteaError('user should be an owner or a collaborator with admin write of a repository');
    expect(await reader.api.put(path(repo, `/${issue.number}/lock`), { lock_reason: 'spam' })).toMatchObject({ status: 403, body: admins });
    expect(await writer.api.put(path(repo, `/${issue.number}/lock`), { lock_reason: 'spam' })).toMatchObject({ status: 403, body: admins });
    expect(await writer.api.delete(path(repo, '/999999/lock'))).toMatchObject({ status: 403, body: admins });
    expect((await owner.api.put(path(repo, '/999999/lock'), { lock_reason: 'spam' })).status).toBe(404);
    expect((await owner.api.put(path(repo, `/${issue.number}/lock`), { lock_reason: 'spam' })).status).toBe(204);
    expect((await writer.api.get<Issue>(path(repo, `/${issue.number}`))).body.is_locked).toBe(true);
    expect((await owner.api.delete(path(repo, `/${issue.number}/lock`))).status).toBe(204);
    expect((await writer.api.get<Issue>(path(repo, `/${issue.number}`))).body.is_locked).toBe(false);
  });

  it('should pin, order and unpin issues (repository admins), at most three', async () => {
    const fresh = await createRepo(owner.api);
    const issues = await Promise.all([1, 2, 3, 4].map((n) => createIssue(owner.api, fresh, { title: `pin${n}` })));
    expect((await writer.api.post(path(fresh, `/${issues[0]!.number}/pin`))).status).toBe(403);
    for (const i of issues.slice(0, 3)) expect((await owner.api.post(path(fresh, `/${i.number}/pin`))).status).toBe(204);
    expect(await owner.api.post(path(fresh, `/${issues[3]!.number}/pin`))).toMatchObject({ status: 400, body: giteaError(/max number of pinned/) });
    expect((await owner.api.patch(path(fresh, `/${issues[2]!.number}/pin/1`))).status).toBe(204);
    const pinned = async () => (await reader.api.get<Issue[]>(`/repos/${fresh.full_name}/issues/pinned`)).body.map((i) => [i.title, i.pin_order]);
    expect(await pinned()).toEqual([['pin3', 1], ['pin1', 2], ['pin2', 3]]);
    expect((await owner.api.delete(path(fresh, `/${issues[2]!.number}/pin`))).status).toBe(204);
    expect(await pinned()).toEqual([['pin1', 1], ['pin2', 2]]);
  });

  it('should add (201) and remove (200) assignees, refusing users who cannot be assigned', async () => {
    const issue = await createIssue(reader.api, repo);
    const added = await writer.api.post<Issue>(path(repo, `/${issue.number}/assignees`), { assignees: [writer.username, owner.username] });
    expect(added.status).toBe(201);
    expect(added.body.assignees?.map((u) => u.login)).toEqual([writer.username, owner.username]);
    const removed = await writer.api.delete<Issue>(path(repo, `/${issue.number}/assignees`), { assignees: [writer.username] });
    expect(removed.status).toBe(200);
    expect(removed.body.assignees?.map((u) => u.login)).toEqual([owner.username]);
    expect((await reader.api.post(path(repo, `/${issue.number}/assignees`), { assignees: [writer.username] })).status).toBe(403);
    const hidden = await createIssue(owner.api, secret);
    expect((await writer.api.post(path(secret, `/${hidden.number}/assignees`), { assignees: [outsider.username] })).status).toBe(403);
    // As Gitea (since 1.21): whoever reads pull requests may be assigned, a reader here and anyone in a public repository.
    const readers = await writer.api.post<Issue>(path(repo, `/${issue.number}/assignees`), { assignees: [reader.username, outsider.username] });
    expect(readers.status).toBe(201);
    expect(readers.body.assignees?.map((u) => u.login).sort()).toEqual([owner.username, reader.username, outsider.username].sort());
    expect((await writer.api.post(path(repo, `/${issue.number}/assignees`), { assignees: ['nobody-here-z'] })).status).toBe(422);
  });

  it('should tell whether a user may be assigned, in the repository (token) and on one issue (204, else 404)', async () => {
    const issue = await createIssue(reader.api, repo);
    const hidden = await createIssue(owner.api, secret);
    const inRepo = (as: Api, r: Repository, name: string) => as.get(`/repos/${r.full_name}/assignees/${name}`);
    const onIssue = (as: Api, r: Repository, index: number, name: string) => as.get(path(r, `/${index}/assignees/${name}`));
    // Writers, the owner and readers of pull requests may be assigned: in a public repository, anyone.
    for (const name of [writer.username, owner.username, reader.username, outsider.username]) {
      expect((await inRepo(reader.api, repo, name)).status).toBe(204);
      expect((await onIssue(api.anonymous, repo, issue.number, name)).status).toBe(204);
    }
    // In a private one, not an outsider; nor a reader once the repository has no pull requests.
    expect((await inRepo(reader.api, secret, outsider.username)).status).toBe(404);
    expect((await onIssue(reader.api, secret, hidden.number, outsider.username)).status).toBe(404);
    const closed = await createRepo(owner.api, { private: true });
    await addCollaborator(owner.api, closed, reader, 'read');
    expect((await owner.api.patch(`/repos/${closed.full_name}`, { has_pull_requests: false })).status).toBe(200);
    expect((await inRepo(owner.api, closed, reader.username)).status).toBe(404);
    expect((await inRepo(owner.api, closed, owner.username)).status).toBe(204);
    expect(await inRepo(reader.api, repo, 'nobody-here-z')).toMatchObject({ status: 404, body: giteaError('user does not exist [uid: 0, name: nobody-here-z]') });
    const org = await createOrg(owner.api);
    const orgRefused = giteaError(`organization can't be added as assignee [user_id: ${org.id}, repo_id: ${repo.id}]`);
    expect(await inRepo(reader.api, repo, org.username)).toMatchObject({ status: 400, body: orgRefused });
    expect(await onIssue(reader.api, repo, issue.number, org.username)).toMatchObject({ status: 400, body: orgRefused });
    expect((await onIssue(reader.api, repo, issue.number, 'nobody-here-z')).status).toBe(404);
    expect((await onIssue(reader.api, repo, 9999, writer.username)).status).toBe(404);
    // As Gitea: the repository check wants a token; a private repository is 404 to outsiders either way.
    expect((await inRepo(api.anonymous, repo, writer.username)).status).toBe(401);
    expect((await inRepo(outsider.api, secret, writer.username)).status).toBe(404);
    expect((await onIssue(outsider.api, secret, hidden.number, writer.username)).status).toBe(404);
    expect((await onIssue(reader.api, secret, hidden.number, writer.username)).status).toBe(204);
  });

  it('should delete issues for repository admins only (204) and recount', async () => {
    const fresh = await createRepo(owner.api);
    await addCollaborator(owner.api, fresh, writer, 'write');
    const issue = await createIssue(writer.api, fresh);
    expect(await openCount(fresh)).toBe(1);
    expect((await writer.api.delete(path(fresh, `/${issue.number}`))).status).toBe(403);
    expect((await owner.api.delete(path(fresh, `/${issue.number}`))).status).toBe(204);
    expect((await owner.api.get(path(fresh, `/${issue.number}`))).status).toBe(404);
    expect(await openCount(fresh)).toBe(0);
    // Numbers are never reused.
    expect((await createIssue(owner.api, fresh)).number).toBe(2);
  });

  it('should answer 423 to every write on an archived repository', async () => {
    const fresh = await createRepo(owner.api);
    const issue = await createIssue(owner.api, fresh);
    expect((await owner.api.patch(`/repos/${fresh.full_name}`, { archived: true } satisfies EditRepoOption)).status).toBe(200);
    expect(await owner.api.post(path(fresh), { title: 'x' })).toMatchObject({ status: 423, body: giteaError('repo is archived') });
    expect((await owner.api.patch(path(fresh, `/${issue.number}`), { title: 'y' })).status).toBe(423);
    expect((await owner.api.put(path(fresh, `/${issue.number}/lock`), {})).status).toBe(423);
    expect((await owner.api.post(path(fresh, `/${issue.number}/assignees`), { assignees: [owner.username] })).status).toBe(423);
    expect((await owner.api.get(path(fresh, `/${issue.number}`))).status).toBe(200);
  });

  it('should answer as Gitea when the issue tracker is off', async () => {
    const fresh = await createRepo(owner.api);
    const issue = await createIssue(owner.api, fresh);
    expect((await owner.api.patch(`/repos/${fresh.full_name}`, { has_issues: false } satisfies EditRepoOption)).status).toBe(200);
    expect((await reader.api.get(path(fresh, `/${issue.number}`))).status).toBe(404);
    expect(await reader.api.get<Issue[]>(path(fresh))).toMatchObject({ status: 200, body: [] });
    expect((await reader.api.get(`${path(fresh)}?type=issues`)).status).toBe(404);
    expect((await reader.api.post(path(fresh), { title: 'x' })).status).toBe(403);
    const off = await owner.api.patch<Repository>(`/repos/${fresh.full_name}`, { has_pull_requests: false } satisfies EditRepoOption);
    expect(off.status).toBe(200);
    // Gitea's innerToRepo while the unit is off: no merge style, manual merges, no maintainer edits.
    expect(off.body).toMatchObject({ has_pull_requests: false, allow_merge_commits: false, allow_squash_merge: false, allow_manual_merge: true, default_allow_maintainer_edit: false });
    expect((await reader.api.get(path(fresh))).status).toBe(404);
  });

  it('should search issues across the repositories the caller reaches', async () => {
    const tag = `needle${Date.now()}`;
    const open = await createIssue(owner.api, repo, { title: `${tag} public` });
    const hidden = await createIssue(owner.api, secret, { title: `${tag} private` });
    const search = (as: Api, query: string) => as.get<Issue[]>(`/repos/issues/search?q=${tag}&${query}`);
    expect((await search(outsider.api, '')).body.map((i) => i.id)).toEqual([open.id]);
    expect((await search(reader.api, '')).body.map((i) => i.id).sort()).toEqual([open.id, hidden.id].sort());
    expect((await search(reader.api, `priority_repo_id=${secret.id}`)).body.map((i) => i.id)).toEqual([hidden.id, open.id]);
    expect((await search(reader.api, `owner=${owner.username}&type=issues`)).headers.get('x-total-count')).toBe('2');
    expect((await search(reader.api, 'owner=no-such-owner-q')).status).toBe(400);
    expect((await search(api.anonymous, '')).body.map((i) => i.id)).toEqual([open.id]);
    expect((await search(reader.api, 'state=closed')).body).toEqual([]);
    // created_by filters by poster (an unknown user is 404); names of no label or milestone are no filter; the caller's own filters need a caller.
    const byReader = await createIssue(reader.api, repo, { title: `${tag} by reader` });
    expect((await search(outsider.api, `created_by=${reader.username}`)).body.map((i) => i.id)).toEqual([byReader.id]);
    expect((await search(outsider.api, 'created_by=no-such-user-q')).status).toBe(404);
    expect((await search(outsider.api, 'labels=no-such-label-q&milestones=no-such-milestone-q')).body.map((i) => i.id).sort()).toEqual([open.id, byReader.id].sort());
    expect((await search(api.anonymous, 'created=true')).body.map((i) => i.id).sort()).toEqual([open.id, byReader.id].sort());
    expect((await search(reader.api, 'created=true')).body.map((i) => i.id)).toEqual([byReader.id]);
  });

  it('should keep dependencies: blockers keep an issue open (412) until they close, across repositories', async () => {
    const fresh = await createRepo(owner.api);
    await addCollaborator(owner.api, fresh, writer, 'write');
    const [blocked, blocker] = [await createIssue(writer.api, fresh, { title: 'blocked' }), await createIssue(writer.api, fresh, { title: 'blocker' })];
    const other = await createIssue(owner.api, repo, { title: 'elsewhere' });
    const deps = path(fresh, `/${blocked.number}/dependencies`);
    const added = await writer.api.post<Issue>(deps, { index: blocker.number });
    expect(added).toMatchObject({ status: 201, body: { number: blocked.number } });
    expect((await writer.api.post(deps, { index: other.number, owner: owner.username, repo: repo.name })).status).toBe(201);
    expect((await writer.api.post(deps, { index: blocker.number })).status).toBe(409);
    expect((await writer.api.post(path(fresh, `/${blocker.number}/dependencies`), { index: blocked.number })).status).toBe(422);
    expect((await writer.api.post(deps, { index: blocked.number })).status).toBe(422);
    expect((await reader.api.post(deps, { index: blocker.number })).status).toBe(404);
    expect((await writer.api.post(deps, { index: 999999 })).status).toBe(404);
    expect((await writer.api.post(deps, {})).status).toBe(422);
    const listed = await reader.api.get<Issue[]>(deps);
    expect(listed.status).toBe(200);
    expect(listed.body.map((i) => i.title)).toEqual(['blocker', 'elsewhere']);
    expect((await reader.api.get<Issue[]>(path(fresh, `/${blocker.number}/blocks`))).body.map((i) => i.title)).toEqual(['blocked']);
    const refused = await writer.api.patch(path(fresh, `/${blocked.number}`), { state: 'closed' });
    expect(refused).toMatchObject({ status: 412, body: giteaError('cannot close this issue because it still has open dependencies') });
    expect((await writer.api.patch(path(fresh, `/${blocker.number}`), { state: 'closed' })).status).toBe(201);
    expect((await writer.api.delete(deps, { index: other.number, owner: owner.username, repo: repo.name })).status).toBe(201);
    expect((await writer.api.delete(deps, { index: other.number, owner: owner.username, repo: repo.name })).status).toBe(404);
    expect((await writer.api.patch(path(fresh, `/${blocked.number}`), { state: 'closed' })).status).toBe(201);
    // The tracker's dependency switch: off, the list is 404 and links cannot be made.
    await owner.api.patch(`/repos/${fresh.full_name}`, { internal_tracker: { enable_issue_dependencies: false } } satisfies EditRepoOption);
    expect((await reader.api.get(deps)).status).toBe(404);
    expect((await writer.api.post(path(fresh, `/${blocker.number}/blocks`), { index: blocked.number })).status).toBe(404);
  });

  it('should keep open_issues_count equal to the open issues listed', async () => {
    const listed = await owner.api.get<Issue[]>(`${path(repo)}?state=open&limit=1`);
    expect(await openCount(repo)).toBe(Number(listed.headers.get('x-total-count')));
  });
});
