import type {
  Branch,
  ChangeFilesOptions,
  CreateFileOptions,
  CreateRepoOption,
  EditorConfigDefinition,
  FileResponse,
  IssueConfig,
  IssueConfigValidation,
  IssueTemplate,
  Note,
  Repository,
  UpdateBranchRepoOption,
} from '@gitforge/contracts';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { b64, commitOnDisk, gitOnDisk, markMirror, repoEvents } from './support/repo-disk.js';

/** Endpoints read from (or written to) a repository's git data: raw diffs, branch updates, issue templates, `.editorconfig`, notes. */
describe.each(layoutsUnderTest())('repository git data (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;

  const createRepo = async (user: TestUser, body: Partial<CreateRepoOption> = {}): Promise<Repository> => {
    const res = await user.api.post<Repository>('/user/repos', { name: uniqueName('repo'), auto_init: true, ...body } satisfies Partial<CreateRepoOption>);
    if (res.status !== 201) throw new Error(`create repo: ${res.status} ${res.text}`);
    return res.body;
  };
  const write = async (repo: Repository, path: string, content: string, extra: Partial<CreateFileOptions> = {}): Promise<string> => {
    const res = await alice.api.post<FileResponse>(`/repos/${repo.full_name}/contents/${path}`, { content: b64(content), ...extra } satisfies CreateFileOptions);
    if (res.status !== 201) throw new Error(`write ${path}: ${res.status} ${res.text}`);
    return res.body.commit.sha;
  };
  const writeFiles = async (repo: Repository, files: Record<string, string>): Promise<void> => {
    const body = { files: Object.entries(files).map(([path, text]) => ({ operation: 'create', path, content: b64(text) })) } satisfies ChangeFilesOptions;
    const res = await alice.api.post(`/repos/${repo.full_name}/contents`, body);
    if (res.status !== 201) throw new Error(`write files: ${res.status} ${res.text}`);
  };

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  describe('git/commits/{sha}.{diffType}', () => {
    it('should answer a commit’s diff and patch as text, a ref with a dot still being a commit', async () => {
      const repo = await createRepo(alice);
      const sha = await write(repo, 'notes.txt', 'hello\n');
      await gitOnDisk(layout, repo.id, ['tag', 'v1.0', sha]);
      const diff = await alice.api.get(`/repos/${repo.full_name}/git/commits/${sha}.diff`);
      expect(diff.status).toBe(200);
      expect(diff.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(diff.text).toMatch(/^diff --git a\/notes\.txt b\/notes\.txt\n/);
      expect(diff.text).toContain('+hello');
      const patch = await alice.api.get(`/repos/${repo.full_name}/git/commits/${sha}.patch`);
      expect(patch.text).toMatch(new RegExp(`^From ${sha} `));
      expect(patch.text).toContain('Subject: [PATCH] Add notes.txt');
      expect((await alice.api.get(`/repos/${repo.full_name}/git/commits/v1.0.diff`)).text).toBe(diff.text);
      // `v1.0` is a tag, not `v1` with a `.0` diff type.
      expect((await alice.api.get<{ sha: string }>(`/repos/${repo.full_name}/git/commits/v1.0`)).body.sha).toBe(sha);
    });

    it('should answer 404 for an unknown commit and hide private repositories', async () => {
      const repo = await createRepo(alice, { private: true });
      const sha = await write(repo, 'a.txt', 'a');
      const missing = await alice.api.get(`/repos/${repo.full_name}/git/commits/${'0'.repeat(40)}.patch`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(giteaError());
      expect((await bob.api.get(`/repos/${repo.full_name}/git/commits/${sha}.diff`)).status).toBe(404);
      expect((await api.anonymous.get(`/repos/${repo.full_name}/git/commits/${sha}.diff`)).status).toBe(404);
    });
  });

  describe('PUT branches/{branch}', () => {
    it('should move a branch forward (204), and only with force backwards, each heard as a push', async () => {
      const repo = await createRepo(alice);
      const base = (await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/main`)).body.commit.id;
      await alice.api.post(`/repos/${repo.full_name}/branches`, { new_branch_name: 'feature/x' });
      const ahead = await write(repo, 'x.txt', 'x');
      const forward = await alice.api.put(`/repos/${repo.full_name}/branches/feature/x`, { new_commit_id: ahead } satisfies UpdateBranchRepoOption);
      expect(forward.status).toBe(204);
      expect((await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/feature/x`)).body.commit.id).toBe(ahead);

      const back = await alice.api.put(`/repos/${repo.full_name}/branches/feature/x`, { new_commit_id: base } satisfies UpdateBranchRepoOption);
      expect(back.status).toBe(409);
      expect(back.body).toEqual(giteaError('The update is not a fast-forward.'));
      const forced = await alice.api.put(`/repos/${repo.full_name}/branches/feature/x`, { new_commit_id: base, force: true, old_commit_id: ahead } satisfies UpdateBranchRepoOption);
      expect(forced.status).toBe(204);
      expect((await gitOnDisk(layout, repo.id, ['rev-parse', 'refs/heads/feature/x'])).trim()).toBe(base);
      // A branch name resolves too; the same target again changes nothing.
      expect((await alice.api.put(`/repos/${repo.full_name}/branches/feature/x`, { new_commit_id: 'main' })).status).toBe(204);
      expect((await alice.api.put(`/repos/${repo.full_name}/branches/feature/x`, { new_commit_id: ahead })).status).toBe(204);

      const pushes = (await repoEvents(layout, repo.id))
        .filter((e) => e.name === 'repo.pushed' && (e.payload as { ref: string }).ref === 'refs/heads/feature/x')
        .map((e) => [(e.payload as { before: string }).before, (e.payload as { after: string }).after]);
      // The first is the branch's creation.
      expect(pushes).toEqual([['0'.repeat(40), base], [base, ahead], [ahead, base], [base, ahead]]);
    });

    it('should answer Gitea’s errors: unknown branch or commit, stale old_commit_id, bad body', async () => {
      const repo = await createRepo(alice);
      const head = (await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/main`)).body.commit.id;
      const missing = await alice.api.put(`/repos/${repo.full_name}/branches/nope`, { new_commit_id: head });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(giteaError("Branch doesn't exist."));
      const unknown = await alice.api.put(`/repos/${repo.full_name}/branches/main`, { new_commit_id: 'f'.repeat(40) });
      expect(unknown.status).toBe(422);
      expect(unknown.body).toEqual(giteaError(`object does not exist [id: ${'f'.repeat(40)}, rel_path: ]`));
      const next = await write(repo, 'n.txt', 'n');
      const stale = await alice.api.put(`/repos/${repo.full_name}/branches/main`, { new_commit_id: head, old_commit_id: head, force: true });
      expect(stale.status).toBe(409);
      expect((await gitOnDisk(layout, repo.id, ['rev-parse', 'refs/heads/main'])).trim()).toBe(next);
      expect((await alice.api.put(`/repos/${repo.full_name}/branches/main`, {})).status).toBe(422);
      expect((await alice.api.put(`/repos/${repo.full_name}/branches/main`, { new_commit_id: head, force: 'yes' })).status).toBe(422);
      // An option-looking revision is no option to git.
      expect((await alice.api.put(`/repos/${repo.full_name}/branches/main`, { new_commit_id: '--all' })).status).toBe(422);
    });

    it('should apply branch protection as a push would', async () => {
      const repo = await createRepo(alice);
      const base = (await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/main`)).body.commit.id;
      const ahead = await write(repo, 'p.txt', 'p');
      await alice.api.post(`/repos/${repo.full_name}/branch_protections`, { rule_name: 'main', enable_push: true });
      const refused = await alice.api.put(`/repos/${repo.full_name}/branches/main`, { new_commit_id: base, force: true });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(giteaError('Branch main is protected from force push'));
      await alice.api.post(`/repos/${repo.full_name}/branch_protections`, { rule_name: 'locked' });
      await alice.api.post(`/repos/${repo.full_name}/branches`, { new_branch_name: 'locked', old_ref_name: base });
      const locked = await alice.api.put(`/repos/${repo.full_name}/branches/locked`, { new_commit_id: ahead });
      expect(locked.status).toBe(403);
      expect(locked.body).toEqual(giteaError('Not allowed to push to protected branch locked'));
    });

    it('should need write access, and refuse archived (423) and mirror (403) repositories', async () => {
      const repo = await createRepo(alice);
      const head = (await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/main`)).body.commit.id;
      expect((await bob.api.put(`/repos/${repo.full_name}/branches/main`, { new_commit_id: head })).status).toBe(403);
      expect((await api.anonymous.put(`/repos/${repo.full_name}/branches/main`, { new_commit_id: head })).status).toBe(401);
      const priv = await createRepo(alice, { private: true });
      expect((await bob.api.put(`/repos/${priv.full_name}/branches/main`, { new_commit_id: head })).status).toBe(404);
      const mirror = await createRepo(alice);
      await markMirror(layout, mirror.id);
      const mirrored = await alice.api.put(`/repos/${mirror.full_name}/branches/main`, { new_commit_id: 'main' });
      expect(mirrored.status).toBe(403);
      const archived = await createRepo(alice);
      await commitOnDisk(layout, archived.id, 'side', [{ path: 's.txt', content: 's' }], 'side');
      expect((await alice.api.patch(`/repos/${archived.full_name}`, { archived: true })).status).toBe(200);
      expect((await alice.api.put(`/repos/${archived.full_name}/branches/main`, { new_commit_id: 'side', force: true })).status).toBe(423);
    });
  });

  describe('issue templates and config', () => {
    const form = [
      'name: Feature',
      'description: Ask for a feature',
      'labels: [enhancement]',
      'body:',
      '  - type: textarea',
      '    id: what',
      '    attributes: { label: What }',
      '    validations: { required: true }',
    ].join('\n');

    it('should list the default branch’s valid templates from every template directory, warning of the others', async () => {
      const repo = await createRepo(alice);
      await writeFiles(repo, {
        '.gitea/ISSUE_TEMPLATE/bug.md': '---\nname: Bug\nabout: Report a bug\ntitle: "[bug] "\nlabels: bug\n---\nWhat happened?\n',
        '.gitea/ISSUE_TEMPLATE/config.yml': 'blank_issues_enabled: false\n',
        '.gitea/ISSUE_TEMPLATE/notes.txt': 'not a template',
        '.github/ISSUE_TEMPLATE/feature.yaml': form,
        '.github/ISSUE_TEMPLATE/broken.yml': 'name: Broken\nabout: no body\n',
      });
      const res = await alice.api.get<IssueTemplate[]>(`/repos/${repo.full_name}/issue_templates`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-gitea-warning')).toBe('error occurs when parsing issue template: count=1');
      expect(res.body).toEqual([
        {
          name: 'Bug',
          title: '[bug] ',
          about: 'Report a bug',
          labels: ['bug'],
          assignees: null,
          ref: 'refs/heads/',
          content: 'What happened?\n',
          body: null,
          file_name: '.gitea/ISSUE_TEMPLATE/bug.md',
        },
        {
          name: 'Feature',
          title: '',
          about: 'Ask for a feature',
          labels: ['enhancement'],
          assignees: null,
          ref: 'refs/heads/',
          content: '',
          body: [{ type: 'textarea', id: 'what', attributes: { label: 'What' }, validations: { required: true }, visible: ['form', 'content'] }],
          file_name: '.github/ISSUE_TEMPLATE/feature.yaml',
        },
      ]);
      const none = await createRepo(alice);
      const empty = await alice.api.get<IssueTemplate[]>(`/repos/${none.full_name}/issue_templates`);
      expect(empty.body).toEqual([]);
      expect(empty.headers.get('x-gitea-warning')).toBeNull();
    });

    it('should count a template whose YAML aliases expand past the parser limit as invalid, not fail', async () => {
      const repo = await createRepo(alice);
      const nine = (name: string) => `[${Array(9).fill(name).join(',')}]`;
      const bomb = `a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b ${nine('*a')}\nc: &c ${nine('*b')}\nd: &d ${nine('*c')}\n`;
      await writeFiles(repo, { '.gitea/ISSUE_TEMPLATE/bomb.yaml': `${bomb}name: X\nabout: Y\nbody: *d\n`, '.gitea/ISSUE_TEMPLATE/config.yaml': `${bomb}contact_links: *d\n` });
      const res = await alice.api.get<IssueTemplate[]>(`/repos/${repo.full_name}/issue_templates`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect(res.headers.get('x-gitea-warning')).toContain('count=1');
      expect((await alice.api.get<IssueConfigValidation>(`/repos/${repo.full_name}/issue_config/validate`)).body).toMatchObject({ valid: false });
    });

    it('should answer the issue config, its defaults, and whether it is valid', async () => {
      const repo = await createRepo(alice);
      const defaults = await alice.api.get<IssueConfig>(`/repos/${repo.full_name}/issue_config`);
      expect(defaults.body).toEqual({ blank_issues_enabled: true, contact_links: [] });
      expect((await alice.api.get<IssueConfigValidation>(`/repos/${repo.full_name}/issue_config/validate`)).body).toEqual({ valid: true, message: '' });
      await writeFiles(repo, {
        '.github/ISSUE_TEMPLATE/config.yaml': 'blank_issues_enabled: false\ncontact_links:\n  - name: Forum\n    url: https://forum.example.com\n    about: Questions go there\n',
      });
      expect((await alice.api.get<IssueConfig>(`/repos/${repo.full_name}/issue_config`)).body).toEqual({
        blank_issues_enabled: false,
        contact_links: [{ name: 'Forum', url: 'https://forum.example.com', about: 'Questions go there' }],
      });
      // A .gitea config comes before a .github one; an invalid one falls back to the defaults.
      await writeFiles(repo, { '.gitea/ISSUE_TEMPLATE/config.yml': 'contact_links:\n  - name: Chat\n    about: x\n' });
      expect((await alice.api.get<IssueConfig>(`/repos/${repo.full_name}/issue_config`)).body).toEqual({ blank_issues_enabled: true, contact_links: [] });
      expect((await alice.api.get<IssueConfigValidation>(`/repos/${repo.full_name}/issue_config/validate`)).body).toEqual({
        valid: false,
        message: 'contact_link at position 1 is missing url key',
      });
    });

    it('should read nothing from an empty repository and hide private ones', async () => {
      const empty = await createRepo(alice, { auto_init: false });
      expect((await alice.api.get(`/repos/${empty.full_name}/issue_templates`)).body).toEqual([]);
      expect((await alice.api.get(`/repos/${empty.full_name}/issue_config`)).body).toEqual({ blank_issues_enabled: true, contact_links: [] });
      const priv = await createRepo(alice, { private: true });
      for (const path of ['issue_templates', 'issue_config', 'issue_config/validate']) {
        expect((await bob.api.get(`/repos/${priv.full_name}/${path}`)).status).toBe(404);
        expect((await api.anonymous.get(`/repos/${priv.full_name}/${path}`)).status).toBe(404);
      }
      expect((await api.anonymous.get(`/repos/${alice.username}/nope/issue_templates`)).status).toBe(404);
    });
  });

  describe('editorconfig/{filepath}', () => {
    it('should answer the root .editorconfig’s properties for a file, at a ref', async () => {
      const repo = await createRepo(alice);
      await writeFiles(repo, {
        '.editorconfig': 'root = true\n\n[*]\nindent_style = space\nindent_size = 2\nend_of_line = lf\ncharset = utf-8\ntrim_trailing_whitespace = true\n\n[*.go]\nindent_style = tab\nindent_size = unset\n\n[Makefile]\nindent_style = tab\n',
      });
      const ts = await alice.api.get<EditorConfigDefinition>(`/repos/${repo.full_name}/editorconfig/src/app.ts`);
      expect(ts.status).toBe(200);
      expect(ts.body).toEqual({ charset: 'utf-8', indent_style: 'space', indent_size: '2', end_of_line: 'lf' });
      expect((await alice.api.get(`/repos/${repo.full_name}/editorconfig/main.go`)).body).toEqual({ charset: 'utf-8', indent_style: 'tab', indent_size: 'tab', end_of_line: 'lf' });
      expect((await alice.api.get(`/repos/${repo.full_name}/editorconfig/Makefile`)).body).toMatchObject({ indent_style: 'tab' });
      const first = (await alice.api.get<Branch>(`/repos/${repo.full_name}/branches/main`)).body.commit.id;
      await alice.api.put(`/repos/${repo.full_name}/contents/.editorconfig`, {
        content: b64('[*]\nindent_style = tab\n'),
        sha: (await alice.api.get<{ sha: string }>(`/repos/${repo.full_name}/contents/.editorconfig`)).body.sha,
      });
      expect((await alice.api.get(`/repos/${repo.full_name}/editorconfig/a.ts`)).body).toEqual({ indent_style: 'tab', indent_size: 'tab' });
      expect((await alice.api.get(`/repos/${repo.full_name}/editorconfig/a.ts?ref=${first}`)).body).toMatchObject({ indent_style: 'space' });
    });

    it('should answer 404 without .editorconfig or ref, 422 for a malformed path, 404 to outsiders of a private repository', async () => {
      const repo = await createRepo(alice);
      const none = await alice.api.get(`/repos/${repo.full_name}/editorconfig/a.ts`);
      expect(none.status).toBe(404);
      expect(none.body).toEqual(giteaError());
      await writeFiles(repo, { '.editorconfig': '[*]\nindent_style = tab\n' });
      expect((await alice.api.get(`/repos/${repo.full_name}/editorconfig/a.ts?ref=nope`)).status).toBe(404);
      expect((await alice.api.get(`/repos/${repo.full_name}/editorconfig/docs%2F..%2F..%2Fetc`)).status).toBe(422);
      expect((await alice.api.get(`/repos/${repo.full_name}/editorconfig/.git%2Fconfig`)).status).toBe(422);
      const priv = await createRepo(alice, { private: true });
      await writeFiles(priv, { '.editorconfig': '[*]\nindent_style = tab\n' });
      expect((await alice.api.get(`/repos/${priv.full_name}/editorconfig/a.ts`)).status).toBe(200);
      expect((await bob.api.get(`/repos/${priv.full_name}/editorconfig/a.ts`)).status).toBe(404);
    });

    // The file is the repository's: a glob that would backtrack or expand without end (minimatch)
    // matches nothing, and repo-service keeps answering; a file past 256 KiB is not read.
    it('should answer at once for hostile section globs, and 404 for a file over 256 KiB', async () => {
      const repo = await createRepo(alice);
      await writeFiles(repo, { '.editorconfig': `[*]\nindent_style = tab\n[${'*a'.repeat(20)}b]\nindent_size = 3\n[{1..1000000000}]\nindent_size = 4\n` });
      const res = await alice.api.get(`/repos/${repo.full_name}/editorconfig/${'a'.repeat(400)}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ indent_style: 'tab', indent_size: 'tab' });
      const large = await createRepo(alice);
      await writeFiles(large, { '.editorconfig': `[*]\nindent_style = tab\n${'# padding\n'.repeat(30_000)}` });
      expect((await alice.api.get(`/repos/${large.full_name}/editorconfig/a.ts`)).status).toBe(404);
    });

    // Each of these sections compiles to some 60 KB of expression: all of them took 11 s of
    // repo-service's event loop; past the file's budget the rest match nothing instead.
    it('should answer at once for a file of many large sections', async () => {
      const repo = await createRepo(alice);
      const large = '{0..999}'.repeat(9);
      const sections = Array.from({ length: 100 }, (_, i) => `[${large}${i}]\nindent_size = ${i}\n`).join('');
      await writeFiles(repo, { '.editorconfig': `[*]\nindent_style = tab\n${sections}[*.md]\nindent_size = 8\n` });
      const res = await alice.api.get(`/repos/${repo.full_name}/editorconfig/README.md`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ indent_style: 'tab', indent_size: 'tab' });
    });
  });

  describe('git/notes/{sha}', () => {
    it('should answer a commit’s note with the notes commit that wrote it, also under fan-out', async () => {
      const repo = await createRepo(alice);
      const sha = await write(repo, 'n.txt', 'n');
      await gitOnDisk(layout, repo.id, ['notes', 'add', '-m', 'Reviewed-by: someone', sha]);
      const notesHead = (await gitOnDisk(layout, repo.id, ['rev-parse', 'refs/notes/commits'])).trim();
      const res = await alice.api.get<Note>(`/repos/${repo.full_name}/git/notes/${sha}`);
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Reviewed-by: someone\n');
      expect(res.body.commit).toMatchObject({ sha: notesHead, stats: expect.any(Object) });
      expect(res.body.commit.files).toEqual([{ filename: sha, status: 'added' }]);
      expect((await alice.api.get<Note>(`/repos/${repo.full_name}/git/notes/main?files=false`)).body.commit.files).toBeNull();

      // git stores notes under fan-out directories (ab/cdef…) once there are many.
      const other = await write(repo, 'm.txt', 'm');
      const blob = (await gitOnDisk(layout, repo.id, ['hash-object', '-w', '--stdin'], 'Fanned out\n')).trim();
      const inner = (await gitOnDisk(layout, repo.id, ['mktree'], `100644 blob ${blob}\t${other.slice(2)}\n`)).trim();
      const root = (await gitOnDisk(layout, repo.id, ['mktree'], `040000 tree ${inner}\t${other.slice(0, 2)}\n`)).trim();
      const notesCommit = (await gitOnDisk(layout, repo.id, ['commit-tree', root, '-p', notesHead, '-m', 'fan out'])).trim();
      await gitOnDisk(layout, repo.id, ['update-ref', 'refs/notes/commits', notesCommit]);
      const fanned = await alice.api.get<Note>(`/repos/${repo.full_name}/git/notes/${other}`);
      expect(fanned.body.message).toBe('Fanned out\n');
      expect(fanned.body.commit.sha).toBe(notesCommit);
    });

    it('should answer 404 without a note or commit, 422 for a bad ref, and hide private repositories', async () => {
      const repo = await createRepo(alice, { private: true });
      const sha = await write(repo, 'a.txt', 'a');
      const noNotes = await alice.api.get(`/repos/${repo.full_name}/git/notes/${sha}`);
      expect(noNotes.status).toBe(404);
      expect(noNotes.body).toEqual(giteaError(`commit doesn't exist: ${sha}`));
      await gitOnDisk(layout, repo.id, ['notes', 'add', '-m', 'x', sha]);
      const parent = (await gitOnDisk(layout, repo.id, ['rev-parse', `${sha}^`])).trim();
      expect((await alice.api.get(`/repos/${repo.full_name}/git/notes/${parent}`)).status).toBe(404);
      expect((await alice.api.get(`/repos/${repo.full_name}/git/notes/${'0'.repeat(40)}`)).status).toBe(404);
      expect((await alice.api.get(`/repos/${repo.full_name}/git/notes/a..b`)).status).toBe(422);
      expect((await alice.api.get(`/repos/${repo.full_name}/git/notes/${sha}`)).status).toBe(200);
      expect((await bob.api.get(`/repos/${repo.full_name}/git/notes/${sha}`)).status).toBe(404);
      expect((await api.anonymous.get(`/repos/${repo.full_name}/git/notes/${sha}`)).status).toBe(404);
    });
  });
});
