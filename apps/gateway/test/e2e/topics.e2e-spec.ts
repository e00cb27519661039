import type { CreateRepoOption, Repository, RepoTopicOptions, TopicName } from '@gitforge/contracts';
import { Api, createUser, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

describe.each(layoutsUnderTest())('repository topics (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let repo: Repository;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
    repo = (
      await alice.api.post<Repository>('/user/repos', {
        name: uniqueName('topical'),
      } satisfies Partial<CreateRepoOption>)
    ).body;
  });

  afterAll(async () => {
    await layout?.stop();
  });

  const topics = async (as: Api = alice.api) =>
    (await as.get<TopicName>(`/repos/${repo.full_name}/topics`)).body.topics;

  it('should replace the topics (204), trimmed, lower-cased, without repeats, in name order', async () => {
    const res = await alice.api.put(`/repos/${repo.full_name}/topics`, {
      topics: [' Go ', 'web', 'go', '', 'api-v1.2'],
    } satisfies RepoTopicOptions);
    expect(res.status).toBe(204);
    const list = await bob.api.get<TopicName>(`/repos/${repo.full_name}/topics`);
    expect(list.body).toEqual({ topics: ['api-v1.2', 'go', 'web'] });
    expect(list.headers.get('x-total-count')).toBe('3');
    expect((await alice.api.get<Repository>(`/repos/${repo.full_name}`)).body.topics).toEqual([
      'api-v1.2',
      'go',
      'web',
    ]);
  });

  it('should refuse a hundred thousand topics with 422', async () => {
    const topics = Array.from({ length: 100_000 }, (_, i) => `t${i}`);
    const res = await alice.api.put(`/repos/${repo.full_name}/topics`, { topics } satisfies RepoTopicOptions);
    expect(res.status).toBe(422);
  });

  it('should add and delete single topics (204), 404 for one that is not there', async () => {
    expect((await alice.api.put(`/repos/${repo.full_name}/topics/Rust`)).status).toBe(204);
    expect(await topics()).toEqual(['api-v1.2', 'go', 'rust', 'web']);
    expect((await alice.api.delete(`/repos/${repo.full_name}/topics/go`)).status).toBe(204);
    expect((await alice.api.delete(`/repos/${repo.full_name}/topics/go`)).status).toBe(404);
    expect(await topics()).toEqual(['api-v1.2', 'rust', 'web']);
  });

  it('should find repositories by topic', async () => {
    const found = await bob.api.get<{ ok: boolean; data: Repository[] }>(`/repos/search?q=rust&topic=true`);
    expect(found.body.data.map((r) => r.full_name)).toContain(repo.full_name);
  });

  it("should answer Gitea's 422 bodies for invalid topics and too many of them", async () => {
    const invalid = await alice.api.put(`/repos/${repo.full_name}/topics`, {
      topics: ['ok', '-bad', 'Has Space'],
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toMatchObject({
      invalidTopics: ['-bad', 'has space'],
      message: 'Topic names are invalid',
    });
    const many = await alice.api.put(`/repos/${repo.full_name}/topics`, {
      topics: Array.from({ length: 26 }, (_, i) => `t${i}`),
    });
    expect(many.status).toBe(422);
    expect(many.body).toMatchObject({ message: 'Exceeding maximum number of topics per repo' });
    const one = await alice.api.put(`/repos/${repo.full_name}/topics/${encodeURIComponent('no way')}`);
    expect(one.status).toBe(422);
    expect(one.body).toMatchObject({ invalidTopics: 'no way', message: 'Topic name is invalid' });
    expect((await alice.api.put(`/repos/${repo.full_name}/topics`, { topics: 'x' })).status).toBe(422);
    expect(await topics()).toEqual(['api-v1.2', 'rust', 'web']);
  });

  it('should let only repository admins change topics, and hide private repositories', async () => {
    expect((await bob.api.put(`/repos/${repo.full_name}/topics/x`)).status).toBe(403);
    expect((await api.anonymous.put(`/repos/${repo.full_name}/topics/x`)).status).toBe(401);
    expect((await api.anonymous.get(`/repos/${repo.full_name}/topics`)).status).toBe(200);
    const secret = (
      await alice.api.post<Repository>('/user/repos', { name: uniqueName('secret'), private: true })
    ).body;
    expect((await bob.api.get(`/repos/${secret.full_name}/topics`)).status).toBe(404);
    expect((await bob.api.put(`/repos/${secret.full_name}/topics/x`)).status).toBe(404);
  });
});
