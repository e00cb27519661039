import type {
  CreateIssueOption,
  CreateLabelOption,
  CreateMilestoneOption,
  CreateRepoOption,
  EditIssueOption,
  EditLabelOption,
  EditMilestoneOption,
  Issue,
  IssueLabelsOption,
  Label,
  Milestone,
  Organization,
  Repository,
} from '@gitforge/contracts';
import { createOrg } from './support/accounts.js';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

describe.each(layoutsUnderTest())('labels and milestones (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let reader: TestUser;
  let repo: Repository;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    [alice, bob, reader] = await Promise.all([createUser(api, 'alice'), createUser(api, 'bob'), createUser(api, 'reader')]);
    repo = await createRepo(alice.api, 'labelled');
    expect((await alice.api.put(`/repos/${repo.full_name}/collaborators/${reader.username}`, { permission: 'read' })).status).toBe(204);
  });

  afterAll(async () => {
    await layout?.stop();
  });

  async function createRepo(as: Api, prefix: string, extra: Partial<CreateRepoOption> = {}, path = '/user/repos'): Promise<Repository> {
    const res = await as.post<Repository>(path, { name: uniqueName(prefix), ...extra } satisfies Partial<CreateRepoOption>);
    expect(res.status).toBe(201);
    return res.body;
  }

  async function createLabel(target: string, body: CreateLabelOption, as: Api = alice.api): Promise<Label> {
    const res = await as.post<Label>(`${target}/labels`, body);
    expect(res.status).toBe(201);
    return res.body;
  }

  async function createIssue(full: string, body: Partial<CreateIssueOption> = {}): Promise<Issue> {
    const res = await alice.api.post<Issue>(`/repos/${full}/issues`, { title: uniqueName('issue'), ...body } satisfies CreateIssueOption);
    expect(res.status).toBe(201);
    return res.body;
  }

  const names = (labels: Label[]) => labels.map((l) => l.name);

  describe('repository labels', () => {
    it('should create labels with colours normalised as Gitea stores them and send them without #', async () => {
      const base = `/repos/${repo.full_name}`;
      const bug = await createLabel(base, { name: 'bug', color: '#EE0701', description: 'Something is broken' });
      expect(bug).toEqual({
        id: expect.any(Number),
        name: 'bug',
        exclusive: false,
        is_archived: false,
        color: 'ee0701',
        description: 'Something is broken',
        url: `${layout.rootUrl}api/v1/repos/${repo.full_name}/labels/${bug.id}`,
      });
      expect((await createLabel(base, { name: 'short', color: ' Abc ' })).color).toBe('aabbcc');
      expect((await createLabel(base, { name: 'bare', color: '00FF7f' })).color).toBe('00ff7f');
      expect((await createLabel(base, { name: 'archived', color: 'fff', is_archived: true })).is_archived).toBe(true);
    });

    it("should answer Gitea's 422 for a bad colour and missing fields", async () => {
      const base = `/repos/${repo.full_name}/labels`;
      for (const color of ['red', '#12345', 'ggg', '#1234567']) {
        const res = await alice.api.post(base, { name: 'x', color } satisfies CreateLabelOption);
        expect(res.status).toBe(422);
        expect(res.body).toEqual(giteaError(`invalid color: ${color}`));
      }
      expect((await alice.api.post(base, { color: '#fff' })).body).toEqual(giteaError('[Name]: Required'));
      expect((await alice.api.post(base, { name: 'x' })).body).toEqual(giteaError('[Color]: Required'));
      const [first] = (await alice.api.get<Label[]>(base)).body;
      const edit = await alice.api.patch(`${base}/${first!.id}`, { color: 'blue' } satisfies EditLabelOption);
      expect(edit.status).toBe(422);
      expect(edit.body).toEqual(giteaError('invalid color: blue'));
    });

    it('should list by name with X-Total-Count only, and page', async () => {
      const all = await bob.api.get<Label[]>(`/repos/${repo.full_name}/labels`);
      expect(all.status).toBe(200);
      expect(names(all.body)).toEqual(['archived', 'bare', 'bug', 'short']);
      expect(all.headers.get('x-total-count')).toBe('4');
      expect(all.headers.get('link')).toBeNull();
      const second = await api.anonymous.get<Label[]>(`/repos/${repo.full_name}/labels?page=2&limit=3`);
      expect(names(second.body)).toEqual(['short']);
    });

    it('should get a label by id or by name, 404 otherwise', async () => {
      const [archived] = (await alice.api.get<Label[]>(`/repos/${repo.full_name}/labels`)).body;
      expect((await bob.api.get<Label>(`/repos/${repo.full_name}/labels/${archived!.id}`)).body).toEqual(archived);
      expect((await bob.api.get<Label>(`/repos/${repo.full_name}/labels/bug`)).body.name).toBe('bug');
      expect((await bob.api.get(`/repos/${repo.full_name}/labels/999999`)).status).toBe(404);
      expect((await bob.api.get(`/repos/${repo.full_name}/labels/nope`)).status).toBe(404);
    });

    it('should change only the fields given, and un-archive a label when is_archived is absent', async () => {
      const label = await createLabel(`/repos/${repo.full_name}`, { name: 'to-edit', color: '#111111', description: 'd', is_archived: true });
      const renamed = await alice.api.patch<Label>(`/repos/${repo.full_name}/labels/${label.id}`, { name: 'edited', exclusive: true } satisfies EditLabelOption);
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ ...label, name: 'edited', exclusive: true, is_archived: false });
      const archived = await alice.api.patch<Label>(`/repos/${repo.full_name}/labels/${label.id}`, { color: '#ABC', is_archived: true });
      expect(archived.body).toMatchObject({ name: 'edited', color: 'aabbcc', description: 'd', is_archived: true });
      expect((await alice.api.get<Label>(`/repos/${repo.full_name}/labels/${label.id}`)).body).toEqual(archived.body);
      expect((await alice.api.delete(`/repos/${repo.full_name}/labels/${label.id}`)).status).toBe(204);
      expect((await alice.api.get(`/repos/${repo.full_name}/labels/${label.id}`)).status).toBe(404);
      // Gitea's DeleteLabel answers 204 for a label that is not there.
      expect((await alice.api.delete(`/repos/${repo.full_name}/labels/${label.id}`)).status).toBe(204);
    });
  });

  describe('label templates', () => {
    it("should list Gitea's templates and show one's labels to anyone, 404 for an unknown name", async () => {
      const list = await api.anonymous.get<string[]>('/label/templates');
      expect(list.status).toBe(200);
      expect(list.body).toEqual(['Advanced', 'Default']);
      const one = await api.anonymous.get<Array<{ name: string; exclusive: boolean; color: string; description: string }>>('/label/templates/Default');
      expect(one.status).toBe(200);
      expect(one.body).toHaveLength(7);
      expect(one.body[0]).toEqual({ name: 'bug', exclusive: false, color: 'ee0701', description: 'Something is not working' });
      const unknown = await api.anonymous.get('/label/templates/Nope');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(giteaError('label template "Nope" does not exist'));
      expect((await api.anonymous.get('/label/templates/default')).status).toBe(404);
    });

    it('should give a new repository the labels of the template it names, before the creation is answered', async () => {
      const plain = await createRepo(alice.api, 'tmpl-default', { issue_labels: 'Default' });
      const labels = (await alice.api.get<Label[]>(`/repos/${plain.full_name}/labels?limit=50`)).body;
      expect(names(labels)).toEqual(['bug', 'duplicate', 'enhancement', 'help wanted', 'invalid', 'question', 'wontfix']);
      expect(labels.find((l) => l.name === 'help wanted')).toMatchObject({ color: '128a0c', description: 'Need some help', exclusive: false, is_archived: false });

      const org = await createOrg(alice.api);
      const advanced = await createRepo(alice.api, 'tmpl-adv', { issue_labels: 'Advanced', private: true }, `/orgs/${org.username}/repos`);
      const adv = (await alice.api.get<Label[]>(`/repos/${advanced.full_name}/labels?limit=50`)).body;
      expect(adv).toHaveLength(18);
      expect(adv.find((l) => l.name === 'Priority/High')).toMatchObject({ exclusive: true, color: 'd32f2f' });
      expect(adv.find((l) => l.name === 'Kind/Bug')).toMatchObject({ exclusive: false });
      // Without a template, none.
      const bare = await createRepo(alice.api, 'tmpl-none');
      expect((await alice.api.get<Label[]>(`/repos/${bare.full_name}/labels`)).body).toEqual([]);
    });
  });

  describe('issue labels', () => {
    let base: string;
    let bug: Label;
    let docs: Label;
    let kindBug: Label;
    let kindFeature: Label;
    let kindDocs: Label;

    beforeAll(async () => {
      const own = await createRepo(alice.api, 'issues');
      base = `/repos/${own.full_name}`;
      bug = await createLabel(base, { name: 'bug', color: '#ee0701' });
      docs = await createLabel(base, { name: 'docs', color: '#0000ff' });
      kindBug = await createLabel(base, { name: 'kind/bug', color: '#ff0000', exclusive: true });
      kindFeature = await createLabel(base, { name: 'kind/feature', color: '#00ff00', exclusive: true });
      kindDocs = await createLabel(base, { name: 'kind/docs', color: '#00ffff', exclusive: true });
    });

    it('should add labels by id and by name (200 with the issue labels), and list them by name', async () => {
      const issue = await createIssue(base.replace('/repos/', ''));
      const added = await alice.api.post<Label[]>(`${base}/issues/${issue.number}/labels`, { labels: [docs.id, bug.id] } satisfies IssueLabelsOption);
      expect(added.status).toBe(200);
      expect(added.body).toEqual([bug, docs]);
      // Names and ids of no label are dropped, as Gitea drops them.
      expect((await alice.api.post<Label[]>(`${base}/issues/${issue.number}/labels`, { labels: [999999] })).body).toEqual([bug, docs]);
      const byName = await alice.api.post<Label[]>(`${base}/issues/${issue.number}/labels`, { labels: ['kind/bug', 'no-such-label'] });
      expect(names(byName.body)).toEqual(['bug', 'docs', 'kind/bug']);
      expect((await bob.api.get<Label[]>(`${base}/issues/${issue.number}/labels`)).body).toEqual(byName.body);
      expect(names((await alice.api.get<Issue>(`${base}/issues/${issue.number}`)).body.labels)).toEqual(['bug', 'docs', 'kind/bug']);

      // The repository's list in Gitea's other orders: by how many issues carry each (ties in creation order), or by name backwards.
      const another = await createIssue(base.replace('/repos/', ''));
      expect((await alice.api.post(`${base}/issues/${another.number}/labels`, { labels: [docs.id] })).status).toBe(200);
      const sorted = async (sort: string) => names((await bob.api.get<Label[]>(`${base}/labels?sort=${sort}`)).body);
      expect(await sorted('mostissues')).toEqual(['docs', 'bug', 'kind/bug', 'kind/feature', 'kind/docs']);
      expect(await sorted('leastissues')).toEqual(['kind/feature', 'kind/docs', 'bug', 'kind/bug', 'docs']);
      expect(await sorted('reversealphabetically')).toEqual(['kind/feature', 'kind/docs', 'kind/bug', 'docs', 'bug']);
      expect(await sorted('no-such-order')).toEqual(['bug', 'docs', 'kind/bug', 'kind/docs', 'kind/feature']);
    });

    it('should keep one label per exclusive scope when adding and replacing', async () => {
      const issue = await createIssue(base.replace('/repos/', ''), { labels: [kindBug.id, bug.id] });
      const added = await alice.api.post<Label[]>(`${base}/issues/${issue.number}/labels`, { labels: [kindFeature.id] });
      expect(names(added.body)).toEqual(['bug', 'kind/feature']);
      // Of several given for one scope, Gitea keeps the label it reads last: the highest id.
      const replaced = await alice.api.put<Label[]>(`${base}/issues/${issue.number}/labels`, { labels: [kindDocs.id, docs.id, kindBug.id] });
      expect(replaced.status).toBe(200);
      expect(names(replaced.body)).toEqual(['docs', 'kind/docs']);
      const emptied = await alice.api.put<Label[]>(`${base}/issues/${issue.number}/labels`, { labels: [] });
      expect(emptied.body).toEqual([]);
    });

    it('should remove one label and clear them all (204)', async () => {
      const issue = await createIssue(base.replace('/repos/', ''), { labels: [bug.id, docs.id] });
      expect((await alice.api.delete(`${base}/issues/${issue.number}/labels/${bug.id}`)).status).toBe(204);
      expect(names((await alice.api.get<Label[]>(`${base}/issues/${issue.number}/labels`)).body)).toEqual(['docs']);
      const unknown = await alice.api.delete(`${base}/issues/${issue.number}/labels/999999`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(giteaError(`label does not exist [label_id: 999999, repo_id: ${(await alice.api.get<Repository>(base)).body.id}]`));
      expect((await alice.api.delete(`${base}/issues/${issue.number}/labels`)).status).toBe(204);
      expect((await alice.api.get<Label[]>(`${base}/issues/${issue.number}/labels`)).body).toEqual([]);
    });

    it("should answer Gitea's errors: unknown issue 404, mixed or odd items 400", async () => {
      expect((await alice.api.get(`${base}/issues/9999/labels`)).status).toBe(404);
      expect((await alice.api.post(`${base}/issues/9999/labels`, { labels: [bug.id] })).status).toBe(404);
      const issue = await createIssue(base.replace('/repos/', ''));
      const mixed = await alice.api.post(`${base}/issues/${issue.number}/labels`, { labels: [bug.id, 'docs'] });
      expect(mixed.status).toBe(400);
      expect(mixed.body).toEqual(giteaError('labels should be an array of strings or integers'));
      const odd = await alice.api.put(`${base}/issues/${issue.number}/labels`, { labels: [true] });
      expect(odd.status).toBe(400);
      expect(odd.body).toEqual(giteaError('a label must be an integer or a string'));
    });

    it("should take a deleted label off the issues that carried it", async () => {
      const doomed = await createLabel(base, { name: 'doomed', color: '#123456' });
      const issue = await createIssue(base.replace('/repos/', ''), { labels: [doomed.id, bug.id] });
      expect(names(issue.labels)).toEqual(['bug', 'doomed']);
      expect((await alice.api.delete(`${base}/labels/${doomed.id}`)).status).toBe(204);
      expect(names((await alice.api.get<Label[]>(`${base}/issues/${issue.number}/labels`)).body)).toEqual(['bug']);
    });
  });

  describe('organization labels', () => {
    let org: Organization;
    let orgRepo: Repository;
    let team: Label;

    beforeAll(async () => {
      org = await createOrg(alice.api);
      orgRepo = await createRepo(alice.api, 'orgrepo', {}, `/orgs/${org.name}/repos`);
    });

    it('should let owners manage them and anyone list them; is_archived is ignored on create', async () => {
      team = await createLabel(`/orgs/${org.name}`, { name: 'team/backend', color: 'C0FFEE', exclusive: true, is_archived: true });
      expect(team).toEqual({
        id: expect.any(Number),
        name: 'team/backend',
        exclusive: true,
        is_archived: false,
        color: 'c0ffee',
        description: '',
        url: `${layout.rootUrl}api/v1/orgs/${org.name}/labels/${team.id}`,
      });
      const list = await api.anonymous.get<Label[]>(`/orgs/${org.name}/labels`);
      expect(list.status).toBe(200);
      expect(list.body).toEqual([team]);
      expect(list.headers.get('x-total-count')).toBe('1');
      expect((await bob.api.get<Label>(`/orgs/${org.name}/labels/${team.id}`)).body).toEqual(team);
      expect((await bob.api.get<Label>(`/orgs/${org.name}/labels/team%2Fbackend`)).body).toEqual(team);
      expect((await api.anonymous.get(`/orgs/${org.name}/labels/${team.id}`)).status).toBe(401);
      expect((await bob.api.get(`/orgs/${org.name}/labels/999999`)).status).toBe(404);
      expect((await bob.api.get(`/orgs/${bob.username}/labels`)).status).toBe(404);
      const archived = await alice.api.patch<Label>(`/orgs/${org.name}/labels/${team.id}`, { is_archived: true, description: 'server side' });
      expect(archived.body).toMatchObject({ is_archived: true, description: 'server side' });
      const unarchived = await alice.api.patch<Label>(`/orgs/${org.name}/labels/${team.id}`, { color: '#c0ffee' });
      expect(unarchived.body).toMatchObject({ is_archived: false, description: 'server side' });
      const bad = await alice.api.post(`/orgs/${org.name}/labels`, { name: 'x', color: 'nope' });
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual(giteaError('invalid color: nope'));
    });

    it('should answer 403 to non-owners, 401 to anonymous writers and 404 for a hidden organization', async () => {
      const denied = await bob.api.post(`/orgs/${org.name}/labels`, { name: 'x', color: '#fff' });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(giteaError('Must be an organization owner'));
      expect((await bob.api.patch(`/orgs/${org.name}/labels/${team.id}`, { name: 'y' })).status).toBe(403);
      expect((await bob.api.delete(`/orgs/${org.name}/labels/${team.id}`)).status).toBe(403);
      expect((await api.anonymous.post(`/orgs/${org.name}/labels`, { name: 'x', color: '#fff' })).status).toBe(401);
      // Site administrators manage any organization's labels (Gitea's reqOrgOwnership lets them through).
      const byAdmin = await api.admin.post<Label>(`/orgs/${org.name}/labels`, { name: 'by-admin', color: '#fff' });
      expect(byAdmin.status).toBe(201);
      expect((await api.admin.delete(`/orgs/${org.name}/labels/by-admin`)).status).toBe(204);
      const hidden = await createOrg(alice.api, { visibility: 'private' });
      expect((await bob.api.get(`/orgs/${hidden.name}/labels`)).status).toBe(404);
      expect((await bob.api.post(`/orgs/${hidden.name}/labels`, { name: 'x', color: '#fff' })).status).toBe(404);
      expect((await alice.api.get(`/orgs/${hidden.name}/labels`)).status).toBe(200);
    });

    it("should label an organization repository's issue with organization labels, by id and by name", async () => {
      const frontend = await createLabel(`/orgs/${org.name}`, { name: 'team/frontend', color: '#abcdef', exclusive: true });
      const local = await createLabel(`/repos/${orgRepo.full_name}`, { name: 'local', color: '#000' });
      const issue = await createIssue(orgRepo.full_name, { labels: [team.id, local.id] });
      expect(names(issue.labels)).toEqual(['local', 'team/backend']);
      const added = await alice.api.post<Label[]>(`/repos/${orgRepo.full_name}/issues/${issue.number}/labels`, { labels: ['team/frontend'] });
      expect(added.body).toEqual([local, frontend]);
      expect(added.body[1]!.url).toBe(`${layout.rootUrl}api/v1/orgs/${org.name}/labels/${frontend.id}`);
      // Organization labels are no use to a repository outside the organization.
      const elsewhere = await createIssue(repo.full_name);
      // Another owner's organization labels are not this repository's to use.
      const refused = await alice.api.post(`/repos/${repo.full_name}/issues/${elsewhere.number}/labels`, { labels: [frontend.id] });
      expect(refused).toMatchObject({ status: 200, body: [] });
      expect((await alice.api.delete(`/orgs/${org.name}/labels/${frontend.id}`)).status).toBe(204);
      expect(names((await alice.api.get<Label[]>(`/repos/${orgRepo.full_name}/issues/${issue.number}/labels`)).body)).toEqual(['local']);
    });
  });

  describe('milestones', () => {
    let base: string;
    let full: string;

    beforeAll(async () => {
      const own = await createRepo(alice.api, 'planned');
      full = own.full_name;
      base = `/repos/${full}/milestones`;
    });

    it('should create milestones (201), closed ones with closed_at, no due date as null', async () => {
      const res = await alice.api.post<Milestone>(base, { title: 'v1.0', description: 'first', due_on: '2030-01-02T03:04:05Z' } satisfies CreateMilestoneOption);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        title: 'v1.0',
        description: 'first',
        state: 'open',
        open_issues: 0,
        closed_issues: 0,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        closed_at: null,
        due_on: '2030-01-02T03:04:05Z',
      });
      const closed = await alice.api.post<Milestone>(base, { title: 'v0.9', state: 'closed' } satisfies CreateMilestoneOption);
      expect(closed.body).toMatchObject({ state: 'closed', closed_at: expect.any(String), due_on: null });
      await alice.api.post<Milestone>(base, { title: 'v2.0', due_on: '2029-06-01T00:00:00Z' } satisfies CreateMilestoneOption);
      await alice.api.post<Milestone>(base, { title: 'Someday' } satisfies CreateMilestoneOption);
    });

    it('should list open ones by due date by default, filter by state and name, X-Total-Count only', async () => {
      const open = await bob.api.get<Milestone[]>(base);
      expect(open.body.map((m) => m.title)).toEqual(['v2.0', 'v1.0', 'Someday']);
      expect(open.headers.get('x-total-count')).toBe('3');
      expect(open.headers.get('link')).toBeNull();
      expect((await bob.api.get<Milestone[]>(`${base}?state=closed`)).body.map((m) => m.title)).toEqual(['v0.9']);
      // Those without a due date last, by name (Gitea's deadline_unix ASC, name ASC).
      expect((await bob.api.get<Milestone[]>(`${base}?state=all`)).body.map((m) => m.title)).toEqual(['v2.0', 'v1.0', 'Someday', 'v0.9']);
      expect((await bob.api.get<Milestone[]>(`${base}?state=all&name=V1`)).body.map((m) => m.title)).toEqual(['v1.0']);
      expect((await bob.api.get<Milestone[]>(`${base}?state=all&limit=1&page=2`)).body.map((m) => m.title)).toEqual(['v1.0']);
    });

    it('should get a milestone by id or by title, and count its open and closed issues', async () => {
      const [v1] = (await bob.api.get<Milestone[]>(`${base}?name=v1.0`)).body;
      const one = await createIssue(full, { milestone: v1!.id });
      const two = await createIssue(full, { milestone: v1!.id });
      await createIssue(full, { milestone: v1!.id, closed: true });
      expect(one.milestone).toMatchObject({ id: v1!.id, open_issues: 1, closed_issues: 0 });
      expect((await alice.api.patch(`/repos/${full}/issues/${two.number}`, { state: 'closed' } satisfies EditIssueOption)).status).toBe(201);
      const byId = await bob.api.get<Milestone>(`${base}/${v1!.id}`);
      expect(byId.body).toMatchObject({ title: 'v1.0', open_issues: 1, closed_issues: 2 });
      const byTitle = await bob.api.get<Milestone>(`${base}/v1.0`);
      expect(byTitle.body).toEqual(byId.body);
      expect((await bob.api.get(`${base}/999999`)).status).toBe(404);
      expect((await bob.api.get(`${base}/no-such-title`)).status).toBe(404);
    });

    it('should edit present fields, stamp closed_at on closing, and take a deleted milestone off its issues', async () => {
      const created = (await alice.api.post<Milestone>(base, { title: 'temp', description: 'keep' })).body;
      const issue = await createIssue(full, { milestone: created.id });
      const edited = await alice.api.patch<Milestone>(`${base}/${created.id}`, { title: '', state: 'closed', due_on: '2031-01-01T00:00:00Z' } satisfies EditMilestoneOption);
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({
        title: 'temp',
        description: 'keep',
        state: 'closed',
        closed_at: expect.any(String),
        due_on: '2031-01-01T00:00:00Z',
        open_issues: 1,
      });
      const renamed = await alice.api.patch<Milestone>(`${base}/temp`, { title: 'renamed', description: '', state: 'open' } satisfies EditMilestoneOption);
      expect(renamed.body).toMatchObject({ id: created.id, title: 'renamed', description: '', state: 'open', closed_at: null });
      expect((await alice.api.delete(`${base}/renamed`)).status).toBe(204);
      expect((await alice.api.get(`${base}/${created.id}`)).status).toBe(404);
      expect((await alice.api.get<Issue>(`/repos/${full}/issues/${issue.number}`)).body.milestone).toBeNull();
      expect((await alice.api.delete(`${base}/${created.id}`)).status).toBe(404);
    });
  });

  describe('permissions', () => {
    it('should hide a private repository from outsiders (404)', async () => {
      const secret = await createRepo(alice.api, 'secret', { private: true });
      const label = await createLabel(`/repos/${secret.full_name}`, { name: 'hidden', color: '#000000' });
      const issue = await createIssue(secret.full_name);
      for (const path of [`/labels`, `/labels/${label.id}`, `/milestones`, `/issues/${issue.number}/labels`]) {
        expect((await bob.api.get(`/repos/${secret.full_name}${path}`)).status).toBe(404);
        expect((await api.anonymous.get(`/repos/${secret.full_name}${path}`)).status).toBe(404);
      }
      expect((await bob.api.post(`/repos/${secret.full_name}/labels`, { name: 'x', color: '#fff' })).status).toBe(404);
      expect((await bob.api.post(`/repos/${secret.full_name}/milestones`, { title: 'x' })).status).toBe(404);
      expect((await bob.api.post(`/repos/${secret.full_name}/issues/${issue.number}/labels`, { labels: [label.id] })).status).toBe(404);
    });

    it('should let readers read and answer 403 to their writes, 401 to anonymous writers', async () => {
      const base = `/repos/${repo.full_name}`;
      const [label] = (await reader.api.get<Label[]>(`${base}/labels`)).body;
      const issue = await createIssue(repo.full_name);
      const denied = await reader.api.post(`${base}/labels`, { name: 'x', color: '#fff' });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(giteaError('user should have a permission to write to a repo'));
      expect((await reader.api.patch(`${base}/labels/${label!.id}`, { name: 'x' })).status).toBe(403);
      expect((await reader.api.delete(`${base}/labels/${label!.id}`)).status).toBe(403);
      expect((await reader.api.post(`${base}/milestones`, { title: 'x' })).status).toBe(403);
      const onIssue = await reader.api.post(`${base}/issues/${issue.number}/labels`, { labels: [label!.id] });
      expect(onIssue.status).toBe(403);
      expect(onIssue.body).toEqual(giteaError('write permission is required'));
      expect((await reader.api.put(`${base}/issues/${issue.number}/labels`, { labels: [] })).status).toBe(403);
      expect((await reader.api.delete(`${base}/issues/${issue.number}/labels`)).status).toBe(403);
      expect((await reader.api.delete(`${base}/issues/${issue.number}/labels/${label!.id}`)).status).toBe(403);
      expect((await reader.api.get(`${base}/issues/${issue.number}/labels`)).status).toBe(200);
      expect((await reader.api.get(`${base}/milestones`)).status).toBe(200);
      expect((await api.anonymous.post(`${base}/labels`, { name: 'x', color: '#fff' })).status).toBe(401);
      expect((await api.anonymous.post(`${base}/milestones`, { title: 'x' })).status).toBe(401);
      expect((await api.anonymous.post(`${base}/issues/${issue.number}/labels`, { labels: [] })).status).toBe(401);
    });

    it('should answer 423 to every write in an archived repository', async () => {
      const archived = await createRepo(alice.api, 'frozen');
      const base = `/repos/${archived.full_name}`;
      const label = await createLabel(base, { name: 'old', color: '#000' });
      const milestone = (await alice.api.post<Milestone>(`${base}/milestones`, { title: 'old' })).body;
      const issue = await createIssue(archived.full_name);
      expect((await alice.api.patch(base, { archived: true })).status).toBe(200);
      const writes = [
        alice.api.post(`${base}/labels`, { name: 'x', color: '#fff' }),
        alice.api.patch(`${base}/labels/${label.id}`, { name: 'x' }),
        alice.api.delete(`${base}/labels/${label.id}`),
        alice.api.post(`${base}/milestones`, { title: 'x' }),
        alice.api.patch(`${base}/milestones/${milestone.id}`, { title: 'x' }),
        alice.api.delete(`${base}/milestones/${milestone.id}`),
        alice.api.post(`${base}/issues/${issue.number}/labels`, { labels: [label.id] }),
        alice.api.put(`${base}/issues/${issue.number}/labels`, { labels: [label.id] }),
        alice.api.delete(`${base}/issues/${issue.number}/labels`),
      ];
      for (const res of await Promise.all(writes)) {
        expect(res.status).toBe(423);
        expect(res.body).toEqual(giteaError('repo is archived'));
      }
      expect((await alice.api.get<Label[]>(`${base}/labels`)).body).toEqual([label]);
    });
  });
});
