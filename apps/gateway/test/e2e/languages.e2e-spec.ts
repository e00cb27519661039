import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { LanguageStatistics, Repository, RepoTopicOptions, TopicResponse } from '@gitforge/contracts';
import { expectEventually } from '@gitforge/platform/testing';
import { Api, createUser, uniqueName, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { addCollaborator, createRepo } from './support/repos.js';

const bytes = (s: string): number => Buffer.byteLength(s);

/** Files of several languages, and files linguist skips; `.gitattributes` overrides some. */
const FILES: Record<string, string> = {
  'src/app.ts': 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n',
  'src/types.ts': 'export type Id = number;\n',
  'lib/tool.py': 'def main():\n    print("tool")\n',
  'web/index.html': '<!doctype html>\n<p>hello</p>\n',
  'web/site.css': 'p { color: red; }\n',
  'bin/deploy': '#!/usr/bin/env bash\necho deploy\n',
  'README.md': '# project\n',
  'docs/example.go': 'package docs\n',
  'vendor/dep.js': 'module.exports = 1;\n',
  'vendor/kept.rb': 'puts "kept"\n',
  'package.json': '{ "name": "x" }\n',
  '.eslintrc.js': 'module.exports = {};\n',
  'scripts/setup.txt': 'apt-get install -y git\n',
  'gen/out.ts': 'export const generated = true;\n',
  'assets/logo.c': 'GIF89a\u0000\u0001binary',
  '.gitattributes': [
    'scripts/*.txt linguist-language=Shell',
    'gen/** linguist-generated',
    'vendor/kept.rb linguist-vendored=false',
    'lib/*.py linguist-detectable=false',
    '',
  ].join('\n'),
};

describe.each(layoutsUnderTest())('languages and topic search (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let git: GitCli;
  let alice: TestUser;
  let outsider: TestUser;
  let repo: Repository;
  let work: string;

  const write = (files: Record<string, string>): void => {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), content);
    }
  };
  const commitAndPush = async (message: string, ref = 'main'): Promise<void> => {
    await git.run(['add', '--all'], { cwd: work });
    await git.run(['commit', '--quiet', '-m', message], { cwd: work });
    await git.run(['push', '--quiet', 'origin', `HEAD:refs/heads/${ref}`], { cwd: work });
  };
  const languages = (as: Api = alice.api, r: Repository = repo) =>
    as.get<LanguageStatistics>(`/repos/${r.full_name}/languages`);

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    git = GitCli.create();
    [alice, outsider] = await Promise.all([createUser(api, 'lalice'), createUser(api, 'loutsider')]);
    repo = await createRepo(alice.api, { private: true });
    work = git.dir();
    await git.run([
      'clone',
      '--quiet',
      gitUrl(layout, alice.username, repo.name, [alice.username, alice.password]),
      work,
    ]);
  });

  afterAll(async () => {
    git?.cleanup();
    await layout?.stop();
  });

  it('should answer {} for an empty repository', async () => {
    const res = await languages();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
  });

  it('should count bytes per language after a push, skipping what linguist skips and following .gitattributes', async () => {
    write(FILES);
    await commitAndPush('many languages');
    const res = await languages();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      TypeScript: bytes(FILES['src/app.ts']!) + bytes(FILES['src/types.ts']!),
      HTML: bytes(FILES['web/index.html']!),
      CSS: bytes(FILES['web/site.css']!),
      Shell: bytes(FILES['bin/deploy']!) + bytes(FILES['scripts/setup.txt']!),
      Ruby: bytes(FILES['vendor/kept.rb']!),
    });
    // Largest first, as Gitea lists them; the largest is the repository's language.
    const sizes = Object.values(res.body);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    const primary = Object.keys(res.body)[0];
    await expectEventually(async () => expect((await alice.api.get<Repository>(`/repos/${repo.full_name}`)).body.language).toBe(primary));
  });

  it('should follow new pushes to the default branch only', async () => {
    write({ 'src/more.py': 'print("more python")\n' });
    await commitAndPush('python on a topic branch', 'topic');
    expect((await languages()).body).not.toHaveProperty('Python');

    await git.run(['push', '--quiet', 'origin', 'HEAD:refs/heads/main'], { cwd: work });
    expect((await languages()).body).toMatchObject({
      Python: bytes('print("more python")\n'),
      Ruby: bytes(FILES['vendor/kept.rb']!),
    });

    // An override added later counts too: all Ruby becomes vendored again.
    write({ '.gitattributes': `${FILES['.gitattributes']}vendor/** linguist-vendored\n` });
    await commitAndPush('vendor everything');
    expect((await languages()).body).not.toHaveProperty('Ruby');
  });

  it('should hide a private repository’s languages from outsiders and anonymous callers', async () => {
    expect((await languages(outsider.api)).status).toBe(404);
    expect((await languages(api.anonymous)).status).toBe(404);
    await addCollaborator(alice.api, repo, outsider, 'read');
    expect((await languages(outsider.api)).body).toHaveProperty('TypeScript');
    expect((await api.anonymous.get(`/repos/${alice.username}/no-such-repo/languages`)).status).toBe(404);
  });

  describe('topic search', () => {
    const word = uniqueName('tq').toLowerCase();

    it('should find topics by keyword with their repository counts, most used first, and page them', async () => {
      const [one, two] = await Promise.all([createRepo(alice.api), createRepo(outsider.api)]);
      const put = async (r: Repository, as: Api, topics: string[]) =>
        expect(
          (await as.put(`/repos/${r.full_name}/topics`, { topics } satisfies RepoTopicOptions)).status,
        ).toBe(204);
      await put(one, alice.api, [`${word}-a`, `${word}-b`]);
      await put(two, outsider.api, [`${word}-b`]);
      expect((await alice.api.put(`/repos/${repo.full_name}/topics/${word}-c`)).status).toBe(204);

      const res = await api.anonymous.get<{ topics: TopicResponse[] }>(
        `/topics/search?q=${word.toUpperCase()}`,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total-count')).toBe('3');
      expect(res.body.topics.map((t) => [t.topic_name, t.repo_count])).toEqual([
        [`${word}-b`, 2],
        [`${word}-a`, 1],
        [`${word}-c`, 1],
      ]);
      expect(res.body.topics[0]).toEqual({
        id: expect.any(Number),
        topic_name: `${word}-b`,
        repo_count: 2,
        created: expect.stringMatching(/Z$/),
        updated: expect.stringMatching(/Z$/),
      });

      const page = await api.anonymous.get<{ topics: TopicResponse[] }>(
        `/topics/search?q=${word}&limit=1&page=2`,
      );
      expect(page.body.topics.map((t) => t.topic_name)).toEqual([`${word}-a`]);
      expect(page.headers.get('x-total-count')).toBe('3');

      // Counts follow the repositories: a replaced list and a deleted repository count no more.
      await put(one, alice.api, [`${word}-b`]);
      expect((await outsider.api.delete(`/repos/${two.full_name}`)).status).toBe(204);
      const after = await api.anonymous.get<{ topics: TopicResponse[] }>(`/topics/search?q=${word}`);
      expect(after.body.topics.map((t) => [t.topic_name, t.repo_count])).toEqual([
        [`${word}-b`, 1],
        [`${word}-c`, 1],
      ]);
    });

    it('should count a new topic that several repositories take at once (each 204, one row)', async () => {
      const repos = await Promise.all([0, 1, 2, 3].map(() => createRepo(alice.api)));
      const topic = `${word}-race`;
      const statuses = await Promise.all(repos.map(async (r) => (await alice.api.put(`/repos/${r.full_name}/topics/${topic}`)).status));
      expect(statuses).toEqual([204, 204, 204, 204]);
      const found = await api.anonymous.get<{ topics: TopicResponse[] }>(`/topics/search?q=${topic}`);
      expect(found.body.topics.map((t) => [t.topic_name, t.repo_count])).toEqual([[topic, 4]]);
    });

    it('should treat LIKE wildcards in the keyword literally', async () => {
      const res = await api.anonymous.get<{ topics: TopicResponse[] }>(
        `/topics/search?q=${encodeURIComponent('%_')}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.topics).toEqual([]);
    });
  });
});
