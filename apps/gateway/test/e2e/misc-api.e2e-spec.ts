import type {
  EditRepoOption,
  GeneralAPISettings,
  GeneralAttachmentSettings,
  GeneralRepoSettings,
  GeneralUISettings,
  MarkdownOption,
  MarkupOption,
  NewIssuePinsAllowed,
  Organization,
  PullRequest,
  Repository,
  User,
  UserHeatmapData,
  UserSettingsOptions,
} from '@gitforge/contracts';
import { MAX_MARKUP_TEXT_LENGTH } from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { addToTeam, createOrg, createTeam, tokenApi } from './support/accounts.js';
import { Api, createUser, giteaError, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { addCollaborator, createIssue, createRepo } from './support/repos.js';

describe.each(layoutsUnderTest())('settings, assignees and reviewers (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    layout = await Layout.start(kind, {
      env: { GITFORGE_ATTACHMENT_MAX_SIZE_MB: '7', GITFORGE_ATTACHMENT_ALLOWED_TYPES: '.txt,image/*' },
    });
    api = new Api(layout);
    [alice, writer, reader, outsider] = await Promise.all([
      createUser(api, 'alice'),
      createUser(api, 'writer'),
      createUser(api, 'reader'),
      createUser(api, 'outsider'),
    ]);
  });

  afterAll(async () => {
    await layout?.stop();
  });

  describe('signing keys', () => {
    it("should answer Gitea's 404 'no signing key' for the instance and for a visible repository, and a hidden one's plain 404", async () => {
      for (const path of ['/signing-key.gpg', '/signing-key.pub']) {
        expect(await api.anonymous.get(path)).toMatchObject({ status: 404, body: giteaError('no signing key') });
      }
      const open = await createRepo(alice.api, { name: 'signed-open' });
      const hidden = await createRepo(alice.api, { name: 'signed-hidden', private: true });
      expect(await outsider.api.get(`/repos/${open.full_name}/signing-key.gpg`)).toMatchObject({ status: 404, body: giteaError('no signing key') });
      expect(await alice.api.get(`/repos/${hidden.full_name}/signing-key.pub`)).toMatchObject({ status: 404, body: giteaError('no signing key') });
      expect(await outsider.api.get(`/repos/${hidden.full_name}/signing-key.gpg`)).toMatchObject({ status: 404, body: giteaError() });
    });
  });

  describe('GET /settings/*', () => {
    it("should answer the API's limits to anyone", async () => {
      const res = await api.anonymous.get<GeneralAPISettings>('/settings/api');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        max_response_items: 50,
        default_paging_num: 30,
        default_git_trees_per_page: 1000,
        default_max_blob_size: 10 * 1024 * 1024,
        default_max_response_size: 50 * 1024 * 1024,
      } satisfies GeneralAPISettings);
    });

    it('should answer the configured attachment limits', async () => {
      const res = await api.anonymous.get<GeneralAttachmentSettings>('/settings/attachment');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ enabled: true, allowed_types: '.txt,image/*', max_size: 7, max_files: 5 } satisfies GeneralAttachmentSettings);
    });

    it('should answer which repository features are off', async () => {
      const res = await alice.api.get<GeneralRepoSettings>('/settings/repository');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        mirrors_disabled: true,
        http_git_disabled: false,
        migrations_disabled: true,
        stars_disabled: false,
        time_tracking_disabled: false,
        lfs_disabled: false,
      } satisfies GeneralRepoSettings);
    });

    it("should answer the allowed reactions and Gitea's UI defaults", async () => {
      const res = await api.anonymous.get<GeneralUISettings>('/settings/ui');
      expect(res.status).toBe(200);
      expect(res.body.allowed_reactions).toEqual(['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes']);
      expect(res.body.default_theme).toBe('gitea-auto');
      expect(res.body.custom_emojis).toEqual(expect.arrayContaining(['gitea', 'git']));
    });
  });

  describe('GET /repos/{owner}/{repo}/assignees and /reviewers', () => {
    const logins = (users: User[]) => users.map((u) => u.login);

    it("should list a user's repository: writers by name, then the owner; readers may review but not be assigned", async () => {
      const repo = await createRepo(alice.api, { private: true });
      await addCollaborator(alice.api, repo, writer, 'write');
      await addCollaborator(alice.api, repo, reader, 'read');

      const assignees = await reader.api.get<User[]>(`/repos/${repo.full_name}/assignees`);
      expect(assignees.status).toBe(200);
      expect(logins(assignees.body)).toEqual([writer.username, alice.username]);
      expect(assignees.body[0]).toMatchObject({ id: writer.id, login: writer.username, avatar_url: expect.any(String) });

      const reviewers = await writer.api.get<User[]>(`/repos/${repo.full_name}/reviewers`);
      expect(reviewers.status).toBe(200);
      expect(logins(reviewers.body)).toEqual([reader.username, writer.username].sort((a, b) => a.localeCompare(b)).concat(alice.username));
    });

    it('should list the members of teams reaching an organization repository by their units', async () => {
      const org: Organization = await createOrg(alice.api);
      const repo = await createRepo(alice.api, { private: true }, org.username);
      const coders = await createTeam(alice.api, org.username, { permission: 'write', units: ['repo.code', 'repo.pulls'] });
      const watchers = await createTeam(alice.api, org.username, { permission: 'read', units: ['repo.code', 'repo.pulls'] });
      const other = await createTeam(alice.api, org.username, { permission: 'write', units: ['repo.code'] });
      await addToTeam(alice.api, coders.id, writer);
      await addToTeam(alice.api, watchers.id, reader);
      await addToTeam(alice.api, other.id, outsider);
      for (const team of [coders, watchers]) expect((await alice.api.put(`/repos/${repo.full_name}/teams/${team.name}`)).status).toBe(204);

      const assignees = await writer.api.get<User[]>(`/repos/${repo.full_name}/assignees`);
      expect(assignees.status).toBe(200);
      // alice is in Owners, which reaches every repository; the organization itself is never listed.
      // As Gitea's GetRepoAssignees: members of a team that reads pull requests (or issues) are listed too.
      expect(logins(assignees.body).sort()).toEqual([alice.username, reader.username, writer.username].sort());

      const reviewers = await reader.api.get<User[]>(`/repos/${repo.full_name}/reviewers`);
      expect(reviewers.status).toBe(200);
      expect(logins(reviewers.body).sort()).toEqual([alice.username, reader.username, writer.username].sort());

      // A member of a team that does not reach the repository cannot see it.
      expect((await outsider.api.get(`/repos/${repo.full_name}/assignees`)).status).toBe(404);
    });

    it('should refuse reviewers to readers of a public repository who may not request reviews (403)', async () => {
      const repo = await createRepo(alice.api);
      const res = await outsider.api.get(`/repos/${repo.full_name}/reviewers`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(giteaError('doer has no permission to get reviewers'));
      const assignees = await outsider.api.get<User[]>(`/repos/${repo.full_name}/assignees`);
      expect(assignees.status).toBe(200);
      expect(logins(assignees.body)).toEqual([alice.username]);
    });

    it('should refuse reviewers of an archived repository (403)', async () => {
      const repo = await createRepo(alice.api);
      expect((await alice.api.patch(`/repos/${repo.full_name}`, { archived: true } satisfies EditRepoOption)).status).toBe(200);
      expect((await alice.api.get(`/repos/${repo.full_name}/reviewers`)).status).toBe(403);
      expect((await alice.api.get(`/repos/${repo.full_name}/assignees`)).status).toBe(200);
    });

    it('should hide a private repository from outsiders and anonymous callers (404), and ask anonymous callers of a public one for a token (401)', async () => {
      const repo: Repository = await createRepo(alice.api, { private: true });
      const open: Repository = await createRepo(alice.api);
      for (const path of ['assignees', 'reviewers']) {
        expect((await outsider.api.get(`/repos/${repo.full_name}/${path}`)).status).toBe(404);
        // Gitea assigns the repository before its reqToken: what the caller cannot see is 404 first.
        const hidden = await api.anonymous.get(`/repos/${repo.full_name}/${path}`);
        expect(hidden.status).toBe(404);
        expect(hidden.body).toEqual(giteaError());
        expect((await api.anonymous.get(`/repos/${alice.username}/missing-repo/${path}`)).status).toBe(404);
        const anonymous = await api.anonymous.get(`/repos/${open.full_name}/${path}`);
        expect(anonymous.status).toBe(401);
        expect(anonymous.body).toEqual(giteaError('token is required'));
        expect((await alice.api.get(`/repos/${alice.username}/missing-repo/${path}`)).status).toBe(404);
      }
    });
  });

  describe('POST /markdown, /markdown/raw, /markup', () => {
    const root = () => layout.rootUrl;

    it("should answer anonymous callers Gitea's 401, whatever their body (each route has reqToken)", async () => {
      for (const path of ['/markdown', '/markup']) {
        for (const body of [{ Text: '# a' }, { Text: 42 }]) {
          const res = await api.anonymous.post(path, body);
          expect(res.status).toBe(401);
          expect(res.body).toEqual(giteaError('token is required'));
        }
      }
      expect((await api.anonymous.request('POST', '/markdown/raw', '# a', { 'content-type': 'text/plain' })).status).toBe(401);
    });

    it('should render Gitea-flavoured markdown with links into the repository, mentions of real users and issue references', async () => {
      const res = await writer.api.post('/markdown', {
        Mode: 'gfm',
        Context: `/${alice.username}/proj/src/branch/main`,
        Text: `# Title\n\nSee #3, thanks @${writer.username} and @ghost${Date.now()}.\n\n[Link](docs/a.md)\n\n- [x] done\n- [ ] todo`,
      } satisfies MarkdownOption);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const repo = `${root()}${alice.username}/proj/`;
      expect(res.text).toContain('<h1 id="user-content-title">Title</h1>');
      expect(res.text).toContain(`<a href="${repo}issues/3" class="ref-issue" rel="nofollow">#3</a>`);
      expect(res.text).toContain(`<a href="${root()}${writer.username}" class="mention" rel="nofollow">@${writer.username}</a>`);
      expect(res.text).toMatch(/and @ghost\d+\./);
      expect(res.text).toContain(`<a href="${repo}src/branch/main/docs/a.md" rel="nofollow">Link</a>`);
      expect(res.text).toContain('<li class="task-list-item"><input type="checkbox" disabled="" checked=""/>done</li>');
    });

    it('should render plain markdown (the default mode) without references, and sanitise raw HTML', async () => {
      const res = await alice.api.post('/markdown', { Text: 'see #3\n\n<script>alert(1)</script><b onclick="x()">bold</b>' } satisfies MarkdownOption);
      expect(res.status).toBe(200);
      expect(res.text).toBe('<p>see #3</p>\n<b>bold</b>');
      expect((await writer.api.post('/markdown', { Text: '' } satisfies MarkdownOption)).text).toBe('');
    });

    it('should render the body of /markdown/raw as it is, whatever its content type', async () => {
      for (const type of ['text/plain', 'application/json', 'application/x-www-form-urlencoded']) {
        const res = await writer.api.request('POST', '/markdown/raw', '**a=b** {"x":1}', { 'content-type': type });
        expect(res.status).toBe(200);
        expect(res.text).toBe('<p><strong>a=b</strong> {"x":1}</p>\n');
      }
    });

    it('should render a file by its extension against its directory (/markup), 422 for other files', async () => {
      const res = await writer.api.post('/markup', {
        Mode: 'file',
        FilePath: 'path/new-file.md',
        Context: `/${alice.username}/proj/src/branch/main/path`,
        Text: '[Link](test.md)\n![Image](image.png)',
      } satisfies MarkupOption);
      expect(res.status).toBe(200);
      const repo = `${root()}${alice.username}/proj/`;
      expect(res.text).toBe(
        `<p><a href="${repo}src/branch/main/path/test.md" rel="nofollow">Link</a>\n` +
          `<a href="${repo}media/branch/main/path/image.png" target="_blank" rel="nofollow noopener"><img src="${repo}media/branch/main/path/image.png" alt="Image"/></a></p>\n`,
      );
      const unsupported = await writer.api.post('/markup', { Mode: 'file', FilePath: 'path/test.unknown', Text: '## Test' } satisfies MarkupOption);
      expect(unsupported.status).toBe(422);
      expect(unsupported.body).toEqual(giteaError('unsupported file to render: "path/test.unknown"'));
    });

    it('should render wiki links in wiki mode (and with the deprecated Wiki flag)', async () => {
      const wiki = `<p><a href="${root()}${alice.username}/proj/wiki/Link" rel="nofollow">Name</a></p>\n`;
      const byMode = await writer.api.post('/markup', { Mode: 'wiki', Context: `/${alice.username}/proj`, Text: '[[Name|Link]]' } satisfies MarkupOption);
      expect(byMode.text).toBe(wiki);
      const byFlag = await writer.api.post('/markdown', { Wiki: true, Context: `/${alice.username}/proj`, Text: '[[Name|Link]]' } satisfies MarkdownOption);
      expect(byFlag.text).toBe(wiki);
    });

    it("should answer Gitea's 422 for an unknown mode and for fields of the wrong type", async () => {
      for (const path of ['/markdown', '/markup']) {
        const res = await writer.api.post(path, { Mode: 'unknown', Text: '## Test' } satisfies MarkupOption);
        expect(res.status).toBe(422);
        expect(res.body).toEqual(giteaError('Unknown mode: unknown'));
        expect((await writer.api.post(path, { Text: 42 })).status).toBe(422);
      }
    });

    it('should refuse a text longer than the render limit with 422 rather than stall issue-service', async () => {
      const long = 'a'.repeat(MAX_MARKUP_TEXT_LENGTH + 1);
      for (const path of ['/markdown', '/markup']) {
        const res = await writer.api.post(path, { Text: long } satisfies MarkupOption);
        expect(res.status).toBe(422);
        expect(res.body).toEqual(expect.objectContaining({ message: expect.any(String), url: expect.any(String) }));
      }
      const raw = await writer.api.request('POST', '/markdown/raw', long, { 'content-type': 'text/plain' });
      expect(raw.status).toBe(422);
      expect(raw.body).toEqual(giteaError(`the text to render is longer than ${MAX_MARKUP_TEXT_LENGTH} characters`));
      const atLimit = await writer.api.request('POST', '/markdown/raw', 'a'.repeat(MAX_MARKUP_TEXT_LENGTH), { 'content-type': 'text/plain' });
      expect(atLimit.status).toBe(200);
    });

    it('should look up tens of thousands of distinct mentions (more than SQLite binds in one statement)', async () => {
      const names = Array.from({ length: 40_000 }, (_, i) => `@u${i.toString(36)}`);
      const res = await writer.api.post('/markdown', { Mode: 'gfm', Text: `${names.join(' ')} @${alice.username}` } satisfies MarkdownOption);
      expect(res.status).toBe(200);
      expect(res.text).toContain(`class="mention"`);
    });

    it('should render a text of a hundred thousand references and mentions, not answer 500', async () => {
      const text = `#1 @${alice.username} `.repeat(50_000).slice(0, MAX_MARKUP_TEXT_LENGTH);
      const res = await writer.api.post('/markdown', { Mode: 'gfm', Context: `/${alice.username}/proj`, Text: text } satisfies MarkdownOption);
      expect(res.status).toBe(200);
      expect(res.text).toContain('class="ref-issue"');
      expect(res.text).toContain('class="mention"');
    });
  });

  describe('GET /users/{username}/heatmap', () => {
    const total = (data: UserHeatmapData[]) => data.reduce((n, d) => n + d.contributions, 0);

    it("should count a user's actions per quarter hour, private repositories only for who can read them, nothing to others when activity is hidden", async () => {
      const heat = await createUser(api, 'heat');
      await createRepo(heat.api);
      await createRepo(heat.api, { private: true });

      const own = await expectEventually(async () => {
        const res = await heat.api.get<UserHeatmapData[]>(`/users/${heat.username}/heatmap`);
        expect(res.status).toBe(200);
        expect(total(res.body)).toBe(2);
        return res.body;
      });
      const now = Math.floor(Date.now() / 1000);
      for (const bucket of own) {
        expect(bucket.timestamp % 900).toBe(0);
        expect(bucket.timestamp).toBeGreaterThan(now - 2 * 3600);
        expect(bucket.timestamp).toBeLessThanOrEqual(now);
      }
      expect(total((await outsider.api.get<UserHeatmapData[]>(`/users/${heat.username}/heatmap`)).body)).toBe(1);
      expect(total((await api.anonymous.get<UserHeatmapData[]>(`/users/${heat.username}/heatmap`)).body)).toBe(1);

      expect((await heat.api.patch('/user/settings', { hide_activity: true } satisfies UserSettingsOptions)).status).toBe(200);
      const hidden = await outsider.api.get<UserHeatmapData[]>(`/users/${heat.username}/heatmap`);
      expect(hidden.status).toBe(200);
      expect(hidden.body).toEqual([]);
      expect(total((await heat.api.get<UserHeatmapData[]>(`/users/${heat.username}/heatmap`)).body)).toBe(2);
      expect(total((await api.admin.get<UserHeatmapData[]>(`/users/${heat.username}/heatmap`)).body)).toBe(2);
    });

    it('should answer 404 for a user that does not exist', async () => {
      const res = await api.anonymous.get(`/users/nobody${Date.now()}/heatmap`);
      expect(res.status).toBe(404);
    });
  });

  describe('GET /repos/{owner}/{repo}/new_pin_allowed', () => {
    it('should say whether another issue or pull request may be pinned (at most 3 of each)', async () => {
      const repo = await createRepo(alice.api);
      const fresh = await api.anonymous.get<NewIssuePinsAllowed>(`/repos/${repo.full_name}/new_pin_allowed`);
      expect(fresh.status).toBe(200);
      expect(fresh.body).toEqual({ issues: true, pull_requests: true } satisfies NewIssuePinsAllowed);
      for (let i = 0; i < 3; i++) {
        const issue = await createIssue(alice.api, repo);
        expect((await alice.api.post(`/repos/${repo.full_name}/issues/${issue.number}/pin`)).status).toBe(204);
      }
      const full = await outsider.api.get<NewIssuePinsAllowed>(`/repos/${repo.full_name}/new_pin_allowed`);
      expect(full.body).toEqual({ issues: false, pull_requests: true } satisfies NewIssuePinsAllowed);
    });

    it('should hide a private repository from outsiders (404)', async () => {
      const repo = await createRepo(alice.api, { private: true });
      expect((await alice.api.get(`/repos/${repo.full_name}/new_pin_allowed`)).status).toBe(200);
      expect((await outsider.api.get(`/repos/${repo.full_name}/new_pin_allowed`)).status).toBe(404);
      expect((await api.anonymous.get(`/repos/${repo.full_name}/new_pin_allowed`)).status).toBe(404);
    });
  });

  describe('POST /org/{org}/repos (deprecated)', () => {
    it('should create a repository of the organization, as POST /orgs/{org}/repos', async () => {
      const org = await createOrg(alice.api);
      const res = await alice.api.post<Repository>(`/org/${org.username}/repos`, { name: 'legacy', private: true });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ full_name: `${org.username}/legacy`, private: true, owner: { login: org.username } });
      const again = await alice.api.post(`/org/${org.username}/repos`, { name: 'legacy' });
      expect(again.status).toBe(409);
      expect((await alice.api.post(`/org/${org.username}/repos`, { name: 'bad name!' })).status).toBe(422);
    });

    it('should refuse anonymous callers (401), non-members (403 or 404 as the new route), and tokens without the repository scope (403)', async () => {
      const org = await createOrg(alice.api);
      const anonymous = await api.anonymous.post(`/org/${org.username}/repos`, { name: 'x' });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual(giteaError('token is required'));
      const byOutsider = await outsider.api.post(`/org/${org.username}/repos`, { name: 'x' });
      const byOutsiderNew = await outsider.api.post(`/orgs/${org.username}/repos`, { name: 'x' });
      expect(byOutsider.status).toBe(byOutsiderNew.status);
      expect(byOutsider.body).toEqual(byOutsiderNew.body);
      expect([403, 404]).toContain(byOutsider.status);
      const orgOnly = await tokenApi(alice, ['write:organization']);
      const refused = await orgOnly.post(`/org/${org.username}/repos`, { name: 'x' });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(giteaError(/token does not have at least one of required scope/));
      expect((await orgOnly.post(`/orgs/${org.username}/repos`, { name: 'y' })).status).toBe(201);
    });
  });

  describe('GET /repos/{owner}/{repo}/commits/{sha}/pull', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');

    it('should answer the pull request merged as the commit, 404 for other commits, 403 to those who cannot read code, 404 to outsiders', async () => {
      const org = await createOrg(alice.api);
      const repo = await createRepo(alice.api, { private: true, auto_init: true }, org.username);
      const change = await alice.api.post<{ commit: { sha: string } }>(`/repos/${repo.full_name}/contents/notes.md`, {
        content: b64('notes'),
        message: 'notes',
        branch: repo.default_branch,
        new_branch: 'topic',
      });
      expect(change.status).toBe(201);
      const opened = await alice.api.post<PullRequest>(`/repos/${repo.full_name}/pulls`, { head: 'topic', base: repo.default_branch, title: 'Notes' });
      expect(opened.status).toBe(201);
      expect((await alice.api.post(`/repos/${repo.full_name}/pulls/${opened.body.number}/merge`, { Do: 'merge' })).status).toBe(200);
      const merged = (await alice.api.get<PullRequest>(`/repos/${repo.full_name}/pulls/${opened.body.number}`)).body;
      expect(merged.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);

      const res = await alice.api.get<PullRequest>(`/repos/${repo.full_name}/commits/${merged.merge_commit_sha}/pull`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ number: opened.body.number, merged: true, merge_commit_sha: merged.merge_commit_sha, title: 'Notes' });

      const head = await alice.api.get(`/repos/${repo.full_name}/commits/${change.body.commit.sha}/pull`);
      expect(head.status).toBe(404);
      expect(head.body).toEqual(giteaError(/^pull request does not exist \[id: 0, issue_id: 0, head_repo_id: 0, base_repo_id: \d+/));

      const issuesOnly = await createUser(api, 'issues');
      const team = await createTeam(alice.api, org.username, { permission: 'read', units: ['repo.issues'] });
      await addToTeam(alice.api, team.id, issuesOnly);
      expect((await alice.api.put(`/repos/${repo.full_name}/teams/${team.name}`)).status).toBe(204);
      const refused = await issuesOnly.api.get(`/repos/${repo.full_name}/commits/${merged.merge_commit_sha}/pull`);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(giteaError('user should have specific read permission or be a repo admin or a site admin'));

      expect((await outsider.api.get(`/repos/${repo.full_name}/commits/${merged.merge_commit_sha}/pull`)).status).toBe(404);
      expect((await api.anonymous.get(`/repos/${repo.full_name}/commits/${merged.merge_commit_sha}/pull`)).status).toBe(404);
    });
  });
});
