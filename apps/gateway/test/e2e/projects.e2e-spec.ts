import type {
  CreateIssueOption,
  CreateProjectColumnOption,
  CreateProjectOption,
  EditIssueOption,
  EditProjectColumnOption,
  EditProjectOption,
  Issue,
  MoveProjectIssueOption,
  Project,
  ProjectColumn,
  Repository,
} from '@gitforge/contracts';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

describe.each(layoutsUnderTest())('projects (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let repo: Repository;
  let secret: Repository;
  let org: string;
  let orgRepo: Repository;

  async function createRepo(owner: Api, path: string, body: Record<string, unknown>): Promise<Repository> {
    const res = await owner.post<Repository>(path, body);
    expect(res.status).toBe(201);
    return res.body;
  }

  async function createIssue(r: Repository, title = 'Task'): Promise<Issue> {
    const res = await alice.api.post<Issue>(`/repos/${r.full_name}/issues`, {
      title,
    } satisfies CreateIssueOption);
    expect(res.status).toBe(201);
    return res.body;
  }

  async function createProject(
    path: string,
    body: CreateProjectOption = { title: uniqueName('board') },
    as: Api = alice.api,
  ): Promise<Project> {
    const res = await as.post<Project>(path, body);
    expect(res.status).toBe(201);
    return res.body;
  }

  const columnsOf = async (project: Project, as: Api = alice.api): Promise<ProjectColumn[]> => {
    const res = await as.get<ProjectColumn[]>(`/projects/${project.id}/columns`);
    expect(res.status).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
    carol = await createUser(api, 'carol');
    repo = await createRepo(alice.api, '/user/repos', { name: uniqueName('board') });
    secret = await createRepo(alice.api, '/user/repos', { name: uniqueName('secret'), private: true });
    expect(
      (await alice.api.put(`/repos/${repo.full_name}/collaborators/${bob.username}`, { permission: 'read' }))
        .status,
    ).toBe(204);
    org = uniqueName('org');
    expect((await alice.api.post('/orgs', { username: org })).status).toBe(201);
    orgRepo = await createRepo(alice.api, `/orgs/${org}/repos`, { name: uniqueName('orgrepo') });
  });

  afterAll(async () => {
    await layout?.stop();
  });

  describe('repository projects', () => {
    it("should create a project (201) with Gitea's default column", async () => {
      const res = await alice.api.post<Project>(`/repos/${repo.full_name}/projects`, {
        title: 'Roadmap',
        description: 'What comes next',
      } satisfies CreateProjectOption);
      expect(res.status).toBe(201);
      const id = res.body.id;
      expect(res.body).toEqual({
        id: expect.any(Number),
        title: 'Roadmap',
        description: 'What comes next',
        repo_id: repo.id,
        owner_id: 0,
        creator_id: alice.id,
        is_closed: false,
        template_type: 'none',
        card_type: 'text_only',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        closed_at: null,
        url: `${layout.apiUrl}/projects/${id}`,
        html_url: `${repo.html_url}/projects/${id}`,
      });
      const columns = await columnsOf(res.body);
      expect(columns).toEqual([
        {
          id: expect.any(Number),
          project_id: id,
          title: 'Uncategorized',
          color: '',
          default: true,
          sorting: 0,
          num_issues: 0,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      ]);
      expect((await bob.api.get<Project>(`/projects/${id}`)).body).toEqual(res.body);
    });

    it("should start a template's project with its columns, Backlog the default", async () => {
      const kanban = await createProject(`/repos/${repo.full_name}/projects`, {
        title: 'Kanban',
        template_type: 'basic_kanban',
        card_type: 'images_and_text',
      });
      expect(kanban).toMatchObject({ template_type: 'basic_kanban', card_type: 'images_and_text' });
      expect((await columnsOf(kanban)).map((c) => [c.title, c.default])).toEqual([
        ['Backlog', true],
        ['To Do', false],
        ['In Progress', false],
        ['Done', false],
      ]);
      const triage = await createProject(`/repos/${repo.full_name}/projects`, {
        title: 'Bugs',
        template_type: 'bug_triage',
      });
      expect((await columnsOf(triage)).map((c) => c.title)).toEqual([
        'Backlog',
        'Needs Triage',
        'High Priority',
        'Low Priority',
        'Closed',
      ]);
    });

    it('should refuse bad input with 422', async () => {
      const missing = await alice.api.post(`/repos/${repo.full_name}/projects`, { description: 'no title' });
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual(giteaError('[Title]: Required'));
      const template = await alice.api.post(`/repos/${repo.full_name}/projects`, {
        title: 'x',
        template_type: 'scrum',
      });
      expect(template.status).toBe(422);
      expect(template.body).toEqual(giteaError(/TemplateType/));
    });

    it('should list projects newest first, open ones by default, with X-Total-Count and Link', async () => {
      const own = await createRepo(alice.api, '/user/repos', { name: uniqueName('lists') });
      const first = await createProject(`/repos/${own.full_name}/projects`, { title: 'first' });
      const second = await createProject(`/repos/${own.full_name}/projects`, { title: 'second' });
      const third = await createProject(`/repos/${own.full_name}/projects`, { title: 'third' });
      const closed = await alice.api.patch<Project>(`/projects/${first.id}`, {
        state: 'closed',
      } satisfies EditProjectOption);
      expect(closed.status).toBe(200);
      expect(closed.body).toMatchObject({ is_closed: true, closed_at: expect.stringMatching(/Z$/) });
      const open = await bob.api.get<Project[]>(`/repos/${own.full_name}/projects?limit=1`);
      expect(open.status).toBe(200);
      expect(open.body.map((p) => p.id)).toEqual([third.id]);
      expect(open.headers.get('x-total-count')).toBe('2');
      expect(open.headers.get('link')).toContain('rel="next"');
      expect(
        (await api.anonymous.get<Project[]>(`/repos/${own.full_name}/projects?state=closed`)).body.map(
          (p) => p.id,
        ),
      ).toEqual([first.id]);
      expect(
        (await alice.api.get<Project[]>(`/repos/${own.full_name}/projects?state=all`)).body.map((p) => p.id),
      ).toEqual([third.id, second.id, first.id]);
      const reopened = await alice.api.patch<Project>(`/projects/${first.id}`, {
        state: 'open',
        title: 'first again',
        description: 'back',
      } satisfies EditProjectOption);
      expect(reopened.body).toMatchObject({
        is_closed: false,
        closed_at: null,
        title: 'first again',
        description: 'back',
      });
    });

    it("should keep private repositories' projects from outsiders (404) and changes from readers (403) and anonymous callers (401)", async () => {
      const hidden = await createProject(`/repos/${secret.full_name}/projects`);
      expect((await carol.api.get(`/repos/${secret.full_name}/projects`)).status).toBe(404);
      expect((await carol.api.get(`/projects/${hidden.id}`)).status).toBe(404);
      expect((await api.anonymous.get(`/projects/${hidden.id}/columns`)).status).toBe(404);
      expect((await carol.api.post(`/repos/${secret.full_name}/projects`, { title: 'x' })).status).toBe(404);

      const visible = await createProject(`/repos/${repo.full_name}/projects`);
      const denied = await bob.api.post(`/repos/${repo.full_name}/projects`, {
        title: 'x',
      } satisfies CreateProjectOption);
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual(giteaError('user should have permission to write projects'));
      expect((await bob.api.patch(`/projects/${visible.id}`, { title: 'y' })).status).toBe(403);
      expect((await bob.api.delete(`/projects/${visible.id}`)).status).toBe(403);
      expect((await bob.api.post(`/projects/${visible.id}/columns`, { title: 'y' })).status).toBe(403);
      const anonymous = await api.anonymous.post(`/repos/${repo.full_name}/projects`, { title: 'x' });
      expect(anonymous.status).toBe(401);
      expect((await api.anonymous.patch(`/projects/${visible.id}`, { title: 'x' })).status).toBe(401);
      expect((await alice.api.get('/projects/999999999')).status).toBe(404);
      expect((await alice.api.get('/projects/abc')).status).toBe(404);
    });

    it('should answer 404 when the projects unit is off, and 423 for changes in an archived repository', async () => {
      const off = await createRepo(alice.api, '/user/repos', { name: uniqueName('noproj') });
      expect((await alice.api.patch(`/repos/${off.full_name}`, { has_projects: false })).status).toBe(200);
      expect((await alice.api.get(`/repos/${off.full_name}/projects`)).status).toBe(404);
      expect((await alice.api.post(`/repos/${off.full_name}/projects`, { title: 'x' })).status).toBe(404);

      const archived = await createRepo(alice.api, '/user/repos', { name: uniqueName('archived') });
      const project = await createProject(`/repos/${archived.full_name}/projects`);
      expect((await alice.api.patch(`/repos/${archived.full_name}`, { archived: true })).status).toBe(200);
      const locked = await alice.api.post(`/repos/${archived.full_name}/projects`, { title: 'x' });
      expect(locked.status).toBe(423);
      expect(locked.body).toEqual(giteaError('repo is archived'));
      expect((await alice.api.patch(`/projects/${project.id}`, { title: 'x' })).status).toBe(423);
      expect((await alice.api.get(`/projects/${project.id}`)).status).toBe(200);
    });
  });

  describe('columns and issues', () => {
    let project: Project;
    let issue: Issue;

    beforeAll(async () => {
      project = await createProject(`/repos/${repo.full_name}/projects`, { title: 'Board' });
      issue = await createIssue(repo, 'On the board');
    });

    it('should add columns after the last one, edit them and move the default', async () => {
      const res = await alice.api.post<ProjectColumn>(`/projects/${project.id}/columns`, {
        title: 'Doing',
        color: '#00aabb',
      } satisfies CreateProjectColumnOption);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        project_id: project.id,
        title: 'Doing',
        color: '#00aabb',
        default: false,
        sorting: 1,
        num_issues: 0,
      });
      const bad = await alice.api.post(`/projects/${project.id}/columns`, { title: 'x', color: 'blue' });
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual(giteaError(/Color/));
      const edited = await alice.api.patch<ProjectColumn>(`/projects/${project.id}/columns/${res.body.id}`, {
        title: 'In progress',
        color: '',
        default: true,
      } satisfies EditProjectColumnOption);
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ title: 'In progress', color: '', default: true, sorting: 1 });
      expect((await columnsOf(project)).map((c) => [c.title, c.default])).toEqual([
        ['Uncategorized', false],
        ['In progress', true],
      ]);
      expect(
        (await alice.api.patch(`/projects/${project.id}/columns/999999999`, { title: 'x' })).status,
      ).toBe(404);
    });

    it("should put an issue on the board, move it between columns, and show it in the issue's projects", async () => {
      const [uncategorized, doing] = await columnsOf(project);
      const add = await alice.api.post(`/projects/${project.id}/columns/${uncategorized!.id}/issues`, {
        issue_id: issue.id,
      } satisfies MoveProjectIssueOption);
      expect(add.status).toBe(204);
      const listed = await bob.api.get<Issue[]>(
        `/projects/${project.id}/columns/${uncategorized!.id}/issues`,
      );
      expect(listed.status).toBe(200);
      expect(listed.body.map((i) => i.id)).toEqual([issue.id]);
      expect(listed.headers.get('x-total-count')).toBe('1');
      const shown = await bob.api.get<Issue>(`/repos/${repo.full_name}/issues/${issue.number}`);
      expect(shown.body.projects).toEqual([(await alice.api.get<Project>(`/projects/${project.id}`)).body]);

      expect(
        (await alice.api.post(`/projects/${project.id}/columns/${doing!.id}/issues`, { issue_id: issue.id }))
          .status,
      ).toBe(204);
      expect((await columnsOf(project)).map((c) => c.num_issues)).toEqual([0, 1]);
      expect(
        (await alice.api.get<Issue[]>(`/projects/${project.id}/columns/${uncategorized!.id}/issues`)).body,
      ).toEqual([]);

      const elsewhere = await createIssue(secret, 'Not here');
      const foreign = await alice.api.post(`/projects/${project.id}/columns/${doing!.id}/issues`, {
        issue_id: elsewhere.id,
      });
      expect(foreign.status).toBe(422);
      expect(foreign.body).toEqual(giteaError("the issue does not belong to the project's repository"));
      expect(
        (await alice.api.post(`/projects/${project.id}/columns/${doing!.id}/issues`, { issue_id: 999999999 }))
          .status,
      ).toBe(404);
      const invalid = await alice.api.post(`/projects/${project.id}/columns/${doing!.id}/issues`, {});
      expect(invalid.status).toBe(422);
      expect(invalid.body).toEqual(giteaError('[IssueId]: Required'));
      expect(
        (await bob.api.post(`/projects/${project.id}/columns/${doing!.id}/issues`, { issue_id: issue.id }))
          .status,
      ).toBe(403);
    });

    it("should keep the default column, and move a deleted column's issues to it", async () => {
      const [uncategorized, doing] = await columnsOf(project);
      const refused = await alice.api.delete(`/projects/${project.id}/columns/${doing!.id}`);
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(giteaError('the default column cannot be deleted'));
      expect(
        (await alice.api.patch(`/projects/${project.id}/columns/${uncategorized!.id}`, { default: true }))
          .status,
      ).toBe(200);
      expect((await alice.api.delete(`/projects/${project.id}/columns/${doing!.id}`)).status).toBe(204);
      expect((await columnsOf(project)).map((c) => [c.title, c.num_issues])).toEqual([['Uncategorized', 1]]);
      expect((await alice.api.get(`/projects/${project.id}/columns/${doing!.id}/issues`)).status).toBe(404);
    });

    it('should take an issue off the board (204, then 404) and delete projects with their boards', async () => {
      expect((await bob.api.delete(`/projects/${project.id}/issues/${issue.id}`)).status).toBe(403);
      expect((await alice.api.delete(`/projects/${project.id}/issues/${issue.id}`)).status).toBe(204);
      expect((await alice.api.delete(`/projects/${project.id}/issues/${issue.id}`)).status).toBe(404);
      expect(
        (await alice.api.get<Issue>(`/repos/${repo.full_name}/issues/${issue.number}`)).body.projects,
      ).toBeNull();

      const doomed = await createProject(`/repos/${repo.full_name}/projects`);
      const [column] = await columnsOf(doomed);
      expect(
        (await alice.api.post(`/projects/${doomed.id}/columns/${column!.id}/issues`, { issue_id: issue.id }))
          .status,
      ).toBe(204);
      expect((await alice.api.delete(`/projects/${doomed.id}`)).status).toBe(204);
      expect((await alice.api.get(`/projects/${doomed.id}`)).status).toBe(404);
      expect(
        (await alice.api.get<Issue>(`/repos/${repo.full_name}/issues/${issue.number}`)).body.projects,
      ).toBeNull();
    });

    it("should take an issue's projects from CreateIssueOption and EditIssueOption (replacing them), into the default column", async () => {
      const other = await createProject(`/repos/${repo.full_name}/projects`, {
        title: 'Other',
        template_type: 'basic_kanban',
      });
      const created = await alice.api.post<Issue>(`/repos/${repo.full_name}/issues`, {
        title: 'Planned from the start',
        projects: [project.id, other.id],
      } satisfies CreateIssueOption);
      expect(created.status).toBe(201);
      expect(created.body.projects!.map((p) => p.id)).toEqual([project.id, other.id]);
      const backlog = (await columnsOf(other)).find((c) => c.default)!;
      expect(backlog).toMatchObject({ title: 'Backlog', num_issues: 1 });

      const hidden = await createProject(`/repos/${secret.full_name}/projects`);
      const refused = await alice.api.post(`/repos/${repo.full_name}/issues`, {
        title: 'x',
        projects: [hidden.id],
      } satisfies CreateIssueOption);
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(giteaError(`project does not exist [id: ${hidden.id}]`));

      const edited = await alice.api.patch<Issue>(`/repos/${repo.full_name}/issues/${created.body.number}`, {
        projects: [other.id],
      } satisfies EditIssueOption);
      expect(edited.status).toBe(201);
      expect(edited.body.projects!.map((p) => p.id)).toEqual([other.id]);
      const cleared = await alice.api.patch<Issue>(`/repos/${repo.full_name}/issues/${created.body.number}`, {
        projects: [],
      } satisfies EditIssueOption);
      expect(cleared.body.projects).toBeNull();
      expect((await columnsOf(other)).find((c) => c.default)).toMatchObject({ num_issues: 0 });
    });

    it('should take a deleted issue off its boards', async () => {
      const gone = await createIssue(repo, 'Short-lived');
      const [column] = await columnsOf(project);
      expect(
        (await alice.api.post(`/projects/${project.id}/columns/${column!.id}/issues`, { issue_id: gone.id }))
          .status,
      ).toBe(204);
      expect((await alice.api.delete(`/repos/${repo.full_name}/issues/${gone.number}`)).status).toBe(204);
      expect((await columnsOf(project)).map((c) => c.num_issues)).toEqual([0]);
    });
  });

  describe('organization projects', () => {
    it('should let the owners create them and anyone read them in a public organization', async () => {
      const res = await alice.api.post<Project>(`/orgs/${org}/projects`, {
        title: 'Company roadmap',
      } satisfies CreateProjectOption);
      expect(res.status).toBe(201);
      const orgUser = (await api.anonymous.get<{ id: number }>(`/orgs/${org}`)).body;
      expect(res.body).toMatchObject({
        repo_id: 0,
        owner_id: orgUser.id,
        creator_id: alice.id,
        html_url: `${layout.rootUrl}${org}/-/projects/${res.body.id}`,
      });
      const list = await api.anonymous.get<Project[]>(`/orgs/${org}/projects`);
      expect(list.status).toBe(200);
      expect(list.body.map((p) => p.id)).toEqual([res.body.id]);
      expect((await carol.api.get(`/projects/${res.body.id}/columns`)).status).toBe(200);
      const denied = await carol.api.post(`/orgs/${org}/projects`, { title: 'x' });
      expect(denied.status).toBe(403);
      expect((await carol.api.patch(`/projects/${res.body.id}`, { title: 'x' })).status).toBe(403);
      expect((await api.anonymous.post(`/orgs/${org}/projects`, { title: 'x' })).status).toBe(401);
      expect((await alice.api.get(`/orgs/no-such-org-${uniqueName('x')}/projects`)).status).toBe(404);
      // Users have no projects under /orgs.
      expect((await alice.api.get(`/orgs/${alice.username}/projects`)).status).toBe(404);
    });

    it('should let members of a team with write access to projects change them, and not those with read access', async () => {
      const writers = await alice.api.post<{ id: number }>(`/orgs/${org}/teams`, {
        name: uniqueName('planners'),
        permission: 'write',
        units: ['repo.projects'],
        includes_all_repositories: true,
      });
      expect(writers.status).toBe(201);
      const readers = await alice.api.post<{ id: number }>(`/orgs/${org}/teams`, {
        name: uniqueName('watchers'),
        permission: 'read',
        units: ['repo.projects', 'repo.code'],
        includes_all_repositories: true,
      });
      expect(readers.status).toBe(201);
      const dave = await createUser(api, 'dave');
      const erin = await createUser(api, 'erin');
      expect((await alice.api.put(`/teams/${writers.body.id}/members/${dave.username}`)).status).toBe(204);
      expect((await alice.api.put(`/teams/${readers.body.id}/members/${erin.username}`)).status).toBe(204);
      const project = await createProject(`/orgs/${org}/projects`, { title: 'Planned' }, dave.api);
      expect(project.creator_id).toBe(dave.id);
      expect((await dave.api.post(`/projects/${project.id}/columns`, { title: 'Next' })).status).toBe(201);
      expect((await erin.api.get(`/projects/${project.id}`)).status).toBe(200);
      expect((await erin.api.post(`/orgs/${org}/projects`, { title: 'x' })).status).toBe(403);
      expect((await erin.api.delete(`/projects/${project.id}`)).status).toBe(403);
    });

    it("should take the organization's repositories' issues only", async () => {
      const project = await createProject(`/orgs/${org}/projects`, {
        title: 'Cross-repo',
        template_type: 'basic_kanban',
      });
      const [backlog] = await columnsOf(project);
      const own = await createIssue(orgRepo, 'Org work');
      expect(
        (await alice.api.post(`/projects/${project.id}/columns/${backlog!.id}/issues`, { issue_id: own.id }))
          .status,
      ).toBe(204);
      expect(
        (await api.anonymous.get<Issue[]>(`/projects/${project.id}/columns/${backlog!.id}/issues`)).body.map(
          (i) => i.id,
        ),
      ).toEqual([own.id]);
      const shown = await alice.api.get<Issue>(`/repos/${orgRepo.full_name}/issues/${own.number}`);
      expect(shown.body.projects!.map((p) => [p.id, p.html_url])).toEqual([
        [project.id, `${layout.rootUrl}${org}/-/projects/${project.id}`],
      ]);
      const planned = await alice.api.post<Issue>(`/repos/${orgRepo.full_name}/issues`, {
        title: 'Org plan',
        projects: [project.id],
      } satisfies CreateIssueOption);
      expect(planned.body.projects!.map((p) => p.id)).toEqual([project.id]);
      const personal = await alice.api.post(`/repos/${repo.full_name}/issues`, {
        title: 'x',
        projects: [project.id],
      } satisfies CreateIssueOption);
      expect(personal.status).toBe(422);
      const foreign = await createIssue(repo, 'Personal');
      const refused = await alice.api.post(`/projects/${project.id}/columns/${backlog!.id}/issues`, {
        issue_id: foreign.id,
      });
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(
        giteaError("the issue does not belong to a repository of the project's owner"),
      );
    });

    it("should hide a private organization's projects and the issues of private repositories from outsiders", async () => {
      const hidden = uniqueName('privorg');
      expect((await alice.api.post('/orgs', { username: hidden, visibility: 'private' })).status).toBe(201);
      const project = await createProject(`/orgs/${hidden}/projects`);
      expect((await carol.api.get(`/orgs/${hidden}/projects`)).status).toBe(404);
      expect((await carol.api.get(`/projects/${project.id}`)).status).toBe(404);
      expect((await alice.api.get(`/projects/${project.id}`)).status).toBe(200);

      const board = await createProject(`/orgs/${org}/projects`);
      const [column] = await columnsOf(board);
      const privateRepo = await createRepo(alice.api, `/orgs/${org}/repos`, {
        name: uniqueName('orgsecret'),
        private: true,
      });
      const confidential = await createIssue(privateRepo, 'Confidential');
      expect(
        (
          await alice.api.post(`/projects/${board.id}/columns/${column!.id}/issues`, {
            issue_id: confidential.id,
          })
        ).status,
      ).toBe(204);
      expect(
        (await alice.api.get<Issue[]>(`/projects/${board.id}/columns/${column!.id}/issues`)).body.map(
          (i) => i.id,
        ),
      ).toEqual([confidential.id]);
      const outsider = await carol.api.get<Issue[]>(`/projects/${board.id}/columns/${column!.id}/issues`);
      expect(outsider.status).toBe(200);
      expect(outsider.body).toEqual([]);
      expect(outsider.headers.get('x-total-count')).toBe('0');
      // The counts do not tell outsiders about issues they cannot see.
      expect((await carol.api.get<ProjectColumn[]>(`/projects/${board.id}/columns`)).body[0]).toMatchObject({
        num_issues: 0,
      });
      expect((await alice.api.get<ProjectColumn[]>(`/projects/${board.id}/columns`)).body[0]).toMatchObject({
        num_issues: 1,
      });
    });
  });
});
