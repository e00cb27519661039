import type {
  AnnotatedTag,
  CreateRepoOption,
  CreateTagOption,
  CreateTagProtectionOption,
  Reference,
  Repository,
  Tag,
} from '@gitforge/contracts';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { gitOnDisk, repoEvents } from './support/repo-disk.js';

describe.each(layoutsUnderTest())('tags and git references (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let repo: Repository;
  let head: string;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
    const res = await alice.api.post<Repository>('/user/repos', {
      name: uniqueName('tagged'),
      auto_init: true,
    } satisfies Partial<CreateRepoOption>);
    repo = res.body;
    head = (await gitOnDisk(layout, repo.id, ['rev-parse', 'main'])).trim();
  });

  afterAll(async () => {
    await layout?.stop();
  });

  it('should create a lightweight tag on the default branch and an annotated one signed by the caller', async () => {
    const light = await alice.api.post<Tag>(`/repos/${repo.full_name}/tags`, {
      tag_name: 'v1.0',
    } satisfies CreateTagOption);
    expect(light.status).toBe(201);
    const api = `${layout.apiUrl}/repos/${repo.full_name}`;
    expect(light.body).toEqual({
      name: 'v1.0',
      message: 'Initial commit\n',
      id: head,
      commit: { url: `${api}/git/commits/${head}`, sha: head, created: expect.stringMatching(/^\d{4}-/) },
      zipball_url: `${layout.rootUrl}${repo.full_name}/archive/v1.0.zip`,
      tarball_url: `${layout.rootUrl}${repo.full_name}/archive/v1.0.tar.gz`,
    });

    const annotated = await alice.api.post<Tag>(`/repos/${repo.full_name}/tags`, {
      tag_name: 'release/2',
      message: 'Second\n\nrelease  ',
      target: head,
    } satisfies CreateTagOption);
    expect(annotated.status).toBe(201);
    expect(annotated.body).toMatchObject({
      name: 'release/2',
      message: 'Second\n\nrelease\n',
      commit: { sha: head },
    });
    expect(annotated.body.id).not.toBe(head);
    expect((await gitOnDisk(layout, repo.id, ['cat-file', '-t', 'release/2'])).trim()).toBe('tag');

    const object = await alice.api.get<AnnotatedTag>(
      `/repos/${repo.full_name}/git/tags/${annotated.body.id}`,
    );
    expect(object.status).toBe(200);
    expect(object.body).toMatchObject({
      tag: 'release/2',
      sha: annotated.body.id,
      url: `${api}/git/tags/${annotated.body.id}`,
      message: 'Second\n\nrelease\n',
      tagger: { name: alice.username, email: alice.email },
      object: { type: 'commit', sha: head, url: `${api}/git/commits/${head}` },
    });
    // Only annotated tag objects, by full id.
    expect((await alice.api.get(`/repos/${repo.full_name}/git/tags/${head}`)).status).toBe(400);
  });

  it('should list and get tags, and announce created tags as a push', async () => {
    const list = await bob.api.get<Tag[]>(`/repos/${repo.full_name}/tags`);
    expect(list.status).toBe(200);
    expect(list.body.map((t) => t.name).sort()).toEqual(['release/2', 'v1.0']);
    expect(list.headers.get('x-total-count')).toBe('2');
    const page = await bob.api.get<Tag[]>(`/repos/${repo.full_name}/tags?limit=1&page=2`);
    expect(page.body).toHaveLength(1);
    expect((await bob.api.get<Tag>(`/repos/${repo.full_name}/tags/release/2`)).body.name).toBe('release/2');
    const missing = await bob.api.get(`/repos/${repo.full_name}/tags/nope`);
    expect(missing.status).toBe(404);
    const events = (await repoEvents(layout, repo.id)).map(
      (e) => `${e.name} ${(e.payload as { ref?: string }).ref}`,
    );
    expect(events).toEqual(expect.arrayContaining(['repo.pushed refs/tags/v1.0', 'repo.ref_created v1.0']));
  });

  it('should refuse what Gitea refuses: existing tags, unknown targets, bad names, readers, protected tags', async () => {
    expect((await alice.api.post(`/repos/${repo.full_name}/tags`, { tag_name: 'v1.0' })).status).toBe(409);
    const target = await alice.api.post(`/repos/${repo.full_name}/tags`, {
      tag_name: 'v9',
      target: 'no-such-branch',
    });
    expect(target.status).toBe(404);
    expect(
      (await alice.api.post(`/repos/${repo.full_name}/tags`, { tag_name: '--upload-pack=x' })).status,
    ).toBe(422);
    expect((await alice.api.post(`/repos/${repo.full_name}/tags`, {})).status).toBe(422);
    expect((await bob.api.post(`/repos/${repo.full_name}/tags`, { tag_name: 'bobs' })).status).toBe(403);
    expect((await api.anonymous.post(`/repos/${repo.full_name}/tags`, { tag_name: 'anon' })).status).toBe(
      401,
    );
    expect((await bob.api.delete(`/repos/${repo.full_name}/tags/v1.0`)).status).toBe(403);

    const rule = await alice.api.post(`/repos/${repo.full_name}/tag_protections`, {
      name_pattern: 'v*',
      whitelist_usernames: [bob.username],
    } satisfies CreateTagProtectionOption);
    expect(rule.status).toBe(201);
    const refused = await alice.api.post(`/repos/${repo.full_name}/tags`, { tag_name: 'v2' });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(giteaError('user not allowed to create protected tag'));
    const undeletable = await alice.api.delete(`/repos/${repo.full_name}/tags/v1.0`);
    expect(undeletable.status).toBe(422);
    expect(undeletable.body).toEqual(giteaError('user not allowed to delete protected tag'));
  });

  it('should delete a tag and announce it', async () => {
    const res = await alice.api.delete(`/repos/${repo.full_name}/tags/release/2`);
    expect(res.status).toBe(204);
    expect((await alice.api.get(`/repos/${repo.full_name}/tags/release/2`)).status).toBe(404);
    expect((await alice.api.delete(`/repos/${repo.full_name}/tags/release/2`)).status).toBe(404);
    const events = (await repoEvents(layout, repo.id)).map(
      (e) => `${e.name} ${(e.payload as { ref?: string }).ref}`,
    );
    expect(events).toContain('repo.ref_deleted release/2');
  });

  it('should list git references, one named exactly as an object, none as 404', async () => {
    const api = `${layout.apiUrl}/repos/${repo.full_name}`;
    const all = await bob.api.get<Reference[]>(`/repos/${repo.full_name}/git/refs`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual([
      {
        ref: 'refs/heads/main',
        url: `${api}/git/refs/heads/main`,
        object: { type: 'commit', sha: head, url: `${api}/git/commits/${head}` },
      },
      {
        ref: 'refs/tags/v1.0',
        url: `${api}/git/refs/tags/v1.0`,
        object: { type: 'commit', sha: head, url: `${api}/git/commits/${head}` },
      },
    ]);
    const heads = await bob.api.get<Reference[]>(`/repos/${repo.full_name}/git/refs/heads`);
    expect(heads.body).toEqual([expect.objectContaining({ ref: 'refs/heads/main' })]);
    // A list even when one reference is named exactly, as Gitea answers (ReferenceList).
    const exact = await bob.api.get<Reference[]>(`/repos/${repo.full_name}/git/refs/heads/main`);
    expect(exact.body).toEqual([expect.objectContaining({ ref: 'refs/heads/main', object: expect.objectContaining({ sha: head }) })]);
    expect((await bob.api.get(`/repos/${repo.full_name}/git/refs/heads/nothing`)).status).toBe(404);
  });

  it("should hide a private repository's tags and references from outsiders", async () => {
    const secret = (
      await alice.api.post<Repository>('/user/repos', {
        name: uniqueName('secret'),
        auto_init: true,
        private: true,
      })
    ).body;
    expect((await bob.api.get(`/repos/${secret.full_name}/tags`)).status).toBe(404);
    expect((await api.anonymous.get(`/repos/${secret.full_name}/git/refs`)).status).toBe(404);
    expect((await alice.api.get(`/repos/${secret.full_name}/git/refs`)).status).toBe(200);
  });
});
