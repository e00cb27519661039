import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  Commit,
  ContentsResponse,
  CreateFileOptions,
  CreateRepoOption,
  DeleteFileOptions,
  EditRepoOption,
  GitignoreTemplateInfo,
  LicensesTemplateListEntry,
  LicenseTemplateInfo,
  Repository,
} from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { commitOnDisk } from './support/repo-disk.js';
import { addCollaborator, createRepo } from './support/repos.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const unb64 = (s: string): string => Buffer.from(s, 'base64').toString('utf8');
const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

describe.each(layoutsUnderTest())('gitignore and license templates, repository licenses (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let git: GitCli;
  let alice: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    git = GitCli.create();
    [alice, outsider] = await Promise.all([createUser(api, 'talice'), createUser(api, 'toutsider')]);
  });

  afterAll(async () => {
    git?.cleanup();
    await layout?.stop();
  });

  const file = async (repo: Repository, path: string): Promise<string> => {
    const res = await alice.api.get<ContentsResponse>(`/repos/${repo.full_name}/contents/${path}`);
    expect(res.status).toBe(200);
    return unb64(res.body.content!);
  };
  const licensesOf = async (repo: Repository, as: Api = alice.api): Promise<string[]> => {
    const res = await as.get<string[]>(`/repos/${repo.full_name}/licenses`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const template = async (name: string): Promise<string> => (await api.anonymous.get<LicenseTemplateInfo>(`/licenses/${name}`)).body.body;

  describe('templates', () => {
    it('should list the gitignore templates in byte order and show one to anyone; an unknown name is 404', async () => {
      const list = await api.anonymous.get<string[]>('/gitignore/templates');
      expect(list.status).toBe(200);
      expect(list.body).toEqual(expect.arrayContaining(['Go', 'Node', 'Python', 'macOS']));
      expect([...list.body].sort(byteOrder)).toEqual(list.body);

      const go = await api.anonymous.get<GitignoreTemplateInfo>('/gitignore/templates/Go');
      expect(go.status).toBe(200);
      expect(go.body).toEqual({ name: 'Go', source: expect.stringContaining('*.exe') });

      for (const unknown of ['Nope', 'go']) {
        const res = await api.anonymous.get(`/gitignore/templates/${unknown}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(giteaError('not found'));
      }
    });

    it("should list the licenses with Gitea's preferred ones first and show one with its placeholders; an unknown name is 404", async () => {
      const list = await api.anonymous.get<LicensesTemplateListEntry[]>('/licenses');
      expect(list.status).toBe(200);
      expect(list.body.slice(0, 2)).toEqual([
        { key: 'Apache-2.0', name: 'Apache-2.0', url: `${layout.apiUrl}/licenses/Apache-2.0` },
        { key: 'MIT', name: 'MIT', url: `${layout.apiUrl}/licenses/MIT` },
      ]);
      const rest = list.body.slice(2).map((l) => l.key);
      expect([...rest].sort(byteOrder)).toEqual(rest);
      expect(rest).toEqual(expect.arrayContaining(['GPL-3.0-only', 'BSD-3-Clause']));

      const mit = await api.anonymous.get<LicenseTemplateInfo>('/licenses/MIT');
      expect(mit.status).toBe(200);
      expect(mit.body).toEqual({
        key: 'MIT',
        name: 'MIT',
        url: `${layout.apiUrl}/licenses/MIT`,
        body: expect.stringContaining('Copyright (c) <year> <copyright holders>'),
        implementation: expect.stringContaining('Create a text file (typically named LICENSE or LICENSE.txt)'),
      });

      const unknown = await api.anonymous.get('/licenses/Nope');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(giteaError('not found'));
    });
  });

  describe('creating with auto_init', () => {
    it('should write README.md, the .gitignore of the templates named and the filled-in LICENSE in one first commit', async () => {
      const name = uniqueName('tmpl');
      const res = await alice.api.post<Repository>('/user/repos', {
        name,
        description: 'a tool',
        auto_init: true,
        gitignores: 'Go,Node',
        license: 'MIT',
      } satisfies CreateRepoOption);
      expect(res.status).toBe(201);
      expect(res.body.licenses).toEqual(['MIT']);
      const repo = res.body;

      const [go, node] = await Promise.all(['Go', 'Node'].map(async (t) => (await api.anonymous.get<GitignoreTemplateInfo>(`/gitignore/templates/${t}`)).body.source));
      expect(await file(repo, '.gitignore')).toBe(`# ---> Go\n${go}\n# ---> Node\n${node}\n`);
      const license = await file(repo, 'LICENSE');
      expect(license).toContain(`Copyright (c) ${new Date().getFullYear()} ${alice.username}\n`);
      expect(license).not.toMatch(/<year>|<copyright holders>/);
      expect(await file(repo, 'README.md')).toBe(`# ${name}\n\na tool`);

      const commits = await alice.api.get<Commit[]>(`/repos/${repo.full_name}/commits`);
      expect(commits.body).toHaveLength(1);
      expect(commits.body[0]!.files?.map((f) => f.filename).sort()).toEqual(['.gitignore', 'LICENSE', 'README.md']);
      expect(await licensesOf(repo)).toEqual(['MIT']);
      expect((await alice.api.get<Repository>(`/repos/${repo.full_name}`)).body.licenses).toEqual(['MIT']);
      // A fork starts with the same license file, and its licenses.
      const fork = await outsider.api.post<Repository>(`/repos/${repo.full_name}/forks`, {});
      expect(fork.status).toBe(202);
      expect(fork.body.licenses).toEqual(['MIT']);
    });

    it('should refuse an unknown gitignore or license template (422) and create nothing', async () => {
      for (const [extra, message] of [
        [{ gitignores: 'Go,Nope' }, 'initRepository: prepareRepoCommit: GetRepoInitFile[Nope]: file does not exist'],
        [{ license: 'Nope' }, 'initRepository: prepareRepoCommit: getLicense[Nope]: GetRepoInitFile[Nope]: file does not exist'],
      ] as const) {
        const name = uniqueName('bad');
        const res = await alice.api.post('/user/repos', { name, auto_init: true, ...extra } satisfies CreateRepoOption);
        expect(res.status).toBe(422);
        expect(res.body).toEqual(giteaError(message));
        expect((await alice.api.get(`/repos/${alice.username}/${name}`)).status).toBe(404);
      }
    });

    it('should ignore the templates without auto_init, as the empty repository has no files to hold them', async () => {
      const res = await alice.api.post<Repository>('/user/repos', { name: uniqueName('bare'), gitignores: 'Nope', license: 'MIT' } satisfies CreateRepoOption);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ empty: true, licenses: [] });
      expect(await licensesOf(res.body)).toEqual([]);
    });
  });

  describe('repository licenses', () => {
    it('should follow pushes and API writes that change the default branch’s license file', async () => {
      const repo = await createRepo(alice.api, { auto_init: true, license: 'MIT' });
      const work = git.dir();
      await git.run(['clone', '--quiet', gitUrl(layout, alice.username, repo.name, [alice.username, alice.password]), work]);
      writeFileSync(join(work, 'LICENSE'), (await template('Apache-2.0')).replace('[yyyy] [name of copyright owner]', '2026 Alice'));
      await git.run(['commit', '--quiet', '-am', 'Apache-2.0 instead'], { cwd: work });
      await git.run(['push', '--quiet', 'origin', 'HEAD:refs/heads/main'], { cwd: work });
      await expectEventually(async () => expect(await licensesOf(repo)).toEqual(['Apache-2.0']));
      expect((await alice.api.get<Repository>(`/repos/${repo.full_name}`)).body.licenses).toEqual(['Apache-2.0']);

      // Deleting the file through the API forgets the licenses; a COPYING declaring two brings both.
      const license = await alice.api.get<ContentsResponse>(`/repos/${repo.full_name}/contents/LICENSE`);
      const removed = await alice.api.delete(`/repos/${repo.full_name}/contents/LICENSE`, { sha: license.body.sha, message: 'no license' } satisfies DeleteFileOptions);
      expect(removed.status).toBe(200);
      await expectEventually(async () => expect(await licensesOf(repo)).toEqual([]));
      const copying = await alice.api.post(`/repos/${repo.full_name}/contents/COPYING`, {
        content: b64('SPDX-License-Identifier: MIT OR Apache-2.0\n'),
      } satisfies CreateFileOptions);
      expect(copying.status).toBe(201);
      await expectEventually(async () => expect(await licensesOf(repo)).toEqual(['Apache-2.0', 'MIT']));
    });

    it('should read the license file of a new default branch', async () => {
      const repo = await createRepo(alice.api, { auto_init: true, license: 'MIT' });
      // LICENSE.md outranks LICENSE, on a branch that is not the default one yet.
      const isc = (await template('ISC')).replace(/Copyright.*\n/g, 'Copyright (c) 2026 Alice\n');
      const written = await alice.api.post(`/repos/${repo.full_name}/contents/LICENSE.md`, {
        content: b64(isc),
        new_branch: 'isc',
      } satisfies CreateFileOptions);
      expect(written.status).toBe(201);
      expect(await licensesOf(repo)).toEqual(['MIT']);

      const edited = await alice.api.patch<Repository>(`/repos/${repo.full_name}`, { default_branch: 'isc' } satisfies EditRepoOption);
      expect(edited.status).toBe(200);
      await expectEventually(async () => expect(await licensesOf(repo)).toEqual(['ISC']));
      expect((await alice.api.get<Repository>(`/repos/${repo.full_name}`)).body.licenses).toEqual(['ISC']);
    });

    it('should hide a private repository’s licenses from outsiders and anonymous callers (404)', async () => {
      const repo = await createRepo(alice.api, { private: true, auto_init: true, license: 'MIT' });
      expect(await licensesOf(repo)).toEqual(['MIT']);
      for (const as of [outsider.api, api.anonymous]) {
        const res = await as.get(`/repos/${repo.full_name}/licenses`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(giteaError());
      }
      const missing = await alice.api.get(`/repos/${alice.username}/${uniqueName('none')}/licenses`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(giteaError());
      await addCollaborator(alice.api, repo, outsider, 'read');
      expect(await licensesOf(repo, outsider.api)).toEqual(['MIT']);
    });

    it('should read every license file again when sync_repo_licenses runs, changed behind its back or not', async () => {
      const repo = await createRepo(alice.api, { auto_init: true, license: 'MIT' });
      // Moved on disk, without a push: nothing tells repo-service.
      await commitOnDisk(layout, repo.id, 'main', [{ path: 'LICENSE', content: (await template('ISC')).replace(/Copyright.*\n/g, 'Copyright (c) 2026 Alice\n') }], 'ISC');
      expect(await licensesOf(repo)).toEqual(['MIT']);
      const run = await api.admin.post('/admin/cron/sync_repo_licenses');
      expect(run.status).toBe(204);
      expect(await licensesOf(repo)).toEqual(['ISC']);
    });
  });
});
