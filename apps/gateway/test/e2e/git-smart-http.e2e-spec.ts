import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type {
  AccessToken,
  AddCollaboratorOption,
  CreateBranchProtectionOption,
  CreateRepoOption,
  CreateTagProtectionOption,
  EditRepoOption,
  EventEnvelope,
  Repository,
} from '@gitforge/contracts';
import { expectEventually, readOutboxEvents } from '@gitforge/platform/testing';
import { Api, createUser, type TestUser } from './support/api.js';
import { GitCli, gitUrl } from './support/git.js';
import { basicAuth, pkt, rawRequest } from './support/http.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

const ZERO = '0'.repeat(40);
const BODY_LIMIT = 4 * 1024 * 1024;

describe.each(layoutsUnderTest())('git over smart HTTP (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let git: GitCli;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  beforeAll(async () => {
    layout = await Layout.start(kind, {
      env: {
        GITFORGE_AUTH_CACHE_TTL_MS: '300',
        GITFORGE_GIT_MAX_BODY_BYTES: String(BODY_LIMIT),
        GITFORGE_GIT_IDLE_TIMEOUT_MS: '8000',
      },
    });
    api = new Api(layout);
    git = GitCli.create();
    alice = await createUser(api, 'alice');
    bob = await createUser(api, 'bob');
    carol = await createUser(api, 'carol');
  });

  afterAll(async () => {
    git?.cleanup();
    await layout?.stop();
  });

  const creds = (u: TestUser): [string, string] => [u.username, u.password];
  const url = (owner: TestUser, repo: string, who: TestUser | null = owner, suffix = '.git') => gitUrl(layout, owner.username, repo, who ? creds(who) : null, suffix);

  async function createRepo(owner: TestUser, name: string, extra: Partial<CreateRepoOption> = {}): Promise<Repository> {
    const res = await owner.api.post<Repository>('/user/repos', { name, ...extra } satisfies CreateRepoOption);
    if (res.status !== 201) throw new Error(`creating ${name}: ${res.status} ${res.text}`);
    return res.body;
  }

  async function addCollaborator(owner: TestUser, repo: string, user: TestUser, permission: 'read' | 'write' | 'admin'): Promise<void> {
    const res = await owner.api.put(`/repos/${owner.username}/${repo}/collaborators/${user.username}`, { permission } satisfies AddCollaboratorOption);
    expect(res.status).toBe(204);
  }

  /** A working copy of `repo` cloned as `who`, with one commit on top when `files` are given. */
  async function workingCopy(owner: TestUser, repo: string, who: TestUser = owner): Promise<string> {
    const dir = git.dir(repo);
    await git.run(['clone', '--quiet', url(owner, repo, who), dir]);
    return dir;
  }

  async function repoEvents(repoId: number): Promise<EventEnvelope[]> {
    const all = await readOutboxEvents({ service: 'repo', dataDir: layout.dataDir, databaseUrl: layout.env.DATABASE_URL });
    return all.filter((e) => e.repoId === repoId);
  }

  const repoDir = (repo: Repository) => join(layout.dataDir, 'repositories', `${repo.id}.git`);

  /** Quarantine directories, temporary packs and lock files git leaves when it dies mid-push. */
  function leftovers(repo: Repository): string[] {
    const found: string[] = [];
    const walk = (dir: string, rel: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = `${rel}${entry.name}`;
        if (entry.name.startsWith('incoming-') || entry.name.startsWith('tmp_') || entry.name.endsWith('.lock')) found.push(path);
        if (entry.isDirectory()) walk(join(dir, entry.name), `${path}/`);
      }
    };
    walk(repoDir(repo), '');
    return found;
  }

  describe('clone, push and fetch', () => {
    let repo: Repository;
    let work: string;
    let main: string;

    beforeAll(async () => {
      repo = await createRepo(alice, 'shared');
    });

    it('should clone an empty repository', async () => {
      work = git.dir('shared');
      const res = await git.run(['clone', url(alice, 'shared'), work]);
      expect(res.stderr).toContain('You appear to have cloned an empty repository');
      expect(existsSync(join(work, '.git'))).toBe(true);
    });

    it('should push main, a second branch and lightweight and annotated tags', async () => {
      await git.commit(work, { 'README.md': '# shared\n' }, 'first');
      main = await git.commit(work, { 'a.txt': 'a\n' }, 'second');
      await git.run(['branch', 'feature'], { cwd: work });
      await git.run(['tag', 'v1.0'], { cwd: work });
      await git.run(['tag', '-a', 'v1.1', '-m', 'annotated'], { cwd: work });
      const res = await git.run(['push', 'origin', 'main', 'feature', 'v1.0', 'v1.1'], { cwd: work });
      expect(res.stderr).toContain('[new branch]      main -> main');
      expect(res.stderr).toContain('[new tag]         v1.1 -> v1.1');

      const refs = await git.lsRemote(url(alice, 'shared'));
      expect(refs.get('refs/heads/main')).toBe(main);
      expect(refs.get('refs/heads/feature')).toBe(main);
      expect(refs.get('refs/tags/v1.0')).toBe(main);
      expect(refs.get('refs/tags/v1.1^{}')).toBe(main);
      expect(refs.get('HEAD')).toBe(main);

      const fetched = await alice.api.get<Repository>(`/repos/${alice.username}/shared`);
      expect(fetched.body).toMatchObject({ empty: false, branch_count: 2, default_branch: 'main' });
      expect(fetched.body.size).toBeGreaterThan(0);
      expect(Date.parse(fetched.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(repo.updated_at));
    });

    it('should fetch what another clone pushed', async () => {
      const other = await workingCopy(alice, 'shared');
      main = await git.commit(other, { 'b.txt': 'b\n' }, 'third');
      await git.run(['push', 'origin', 'main'], { cwd: other });
      await git.run(['fetch', 'origin'], { cwd: work });
      expect((await git.run(['rev-parse', 'origin/main'], { cwd: work })).stdout.trim()).toBe(main);
    });

    it('should clone anonymously without the .git suffix', async () => {
      const dir = git.dir('anon');
      await git.run(['clone', '--quiet', url(alice, 'shared', null, ''), dir]);
      expect((await git.run(['rev-parse', 'HEAD'], { cwd: dir })).stdout.trim()).toBe(main);
    });

    it('should make a shallow clone with --depth 1', async () => {
      const dir = git.dir('shallow');
      await git.run(['clone', '--quiet', '--depth', '1', url(alice, 'shared'), dir]);
      expect((await git.run(['rev-list', '--count', 'HEAD'], { cwd: dir })).stdout.trim()).toBe('1');
      expect((await git.run(['rev-parse', '--is-shallow-repository'], { cwd: dir })).stdout.trim()).toBe('true');
    });

    it('should make a partial clone with --filter=blob:none', async () => {
      const dir = git.dir('partial');
      await git.run(['clone', '--quiet', '--no-checkout', '--filter=blob:none', url(alice, 'shared'), dir]);
      expect((await git.run(['config', 'remote.origin.partialclonefilter'], { cwd: dir })).stdout.trim()).toBe('blob:none');
      const missing = (await git.run(['rev-list', '--objects', '--missing=print', 'HEAD'], { cwd: dir })).stdout;
      expect(missing.split('\n').filter((l) => l.startsWith('?')).length).toBeGreaterThan(0);
      // Checking out fetches the blobs it needs on demand.
      await git.run(['checkout', '--quiet', 'main'], { cwd: dir });
      expect(existsSync(join(dir, 'b.txt'))).toBe(true);
    });

    it('should speak protocol v2 when the client asks for it', async () => {
      const res = await git.run(['-c', 'protocol.version=2', 'ls-remote', url(alice, 'shared')], { env: { GIT_TRACE_PACKET: '1' } });
      expect(res.stderr).toMatch(/< version 2/);
      expect(res.stdout).toContain(`${main}\trefs/heads/main`);
    });

    it("should answer git's own v2 capability list every time, and the refs to a v0 client", async () => {
      const advertise = (protocol?: string) =>
        rawRequest(layout, 'GET', `/${alice.username}/shared.git/info/refs?service=git-upload-pack`, {
          authorization: basicAuth(...creds(alice)),
          ...(protocol ? { 'git-protocol': protocol } : {}),
        });
      // The second answer is the one kept from the first; both are what git itself prints.
      const direct = (await git.run(['upload-pack', '--stateless-rpc', '--advertise-refs', repoDir(repo)], { env: { GIT_PROTOCOL: 'version=2' } })).stdout;
      const first = await advertise('version=2');
      const second = await advertise('version=2');
      expect(first.status).toBe(200);
      expect(first.headers['content-type']).toBe('application/x-git-upload-pack-advertisement');
      const service = '001e# service=git-upload-pack\n0000';
      expect(first.body.toString()).toBe(`${service}${direct}`);
      expect(second.body.toString()).toBe(first.body.toString());
      expect(second.body.toString()).not.toContain('refs/heads/main');
      // A changed repository config is never answered from the kept list.
      expect(first.body.toString()).toMatch(/fetch=.*filter/);
      const config = join(repoDir(repo), 'config');
      await git.run(['config', '--file', config, 'uploadpack.allowFilter', 'false']);
      try {
        expect((await advertise('version=2')).body.toString()).not.toMatch(/fetch=.*filter/);
      } finally {
        await git.run(['config', '--file', config, 'uploadpack.allowFilter', 'true']);
      }
      expect((await advertise('version=2')).body.toString()).toBe(first.body.toString());
      const v0 = await advertise();
      expect(v0.body.toString()).toContain(`${main} refs/heads/main`);
    });

    it('should take a gzip-encoded upload-pack request', async () => {
      const body = Buffer.concat([pkt(`want ${main} ofs-delta\n`), Buffer.from('0000'), pkt('done\n')]);
      const res = await rawRequest(
        layout,
        'POST',
        `/${alice.username}/shared.git/git-upload-pack`,
        { 'content-type': 'application/x-git-upload-pack-request', 'content-encoding': 'gzip', authorization: basicAuth(...creds(alice)) },
        gzipSync(body),
      );
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/x-git-upload-pack-result');
      expect(res.body.subarray(0, 8).toString()).toBe('0008NAK\n');
      expect(res.body.includes(Buffer.from('PACK'))).toBe(true);
    });

    it('should force-push a rewritten branch and delete a branch by push', async () => {
      await git.run(['fetch', 'origin'], { cwd: work });
      await git.run(['reset', '--quiet', '--hard', 'origin/main'], { cwd: work });
      await git.run(['checkout', '--quiet', '-b', 'rewrite', 'origin/feature'], { cwd: work });
      const first = await git.commit(work, { 'r.txt': '1\n' }, 'r1');
      await git.run(['push', 'origin', 'rewrite'], { cwd: work });
      await git.run(['commit', '--quiet', '--amend', '-m', 'r1 amended'], { cwd: work });
      const amended = (await git.run(['rev-parse', 'HEAD'], { cwd: work })).stdout.trim();
      const refused = await git.run(['push', 'origin', 'rewrite'], { cwd: work, allowFailure: true });
      expect(refused.code).not.toBe(0);
      const forced = await git.run(['push', '--force', 'origin', 'rewrite'], { cwd: work });
      expect(forced.stderr).toContain('(forced update)');
      expect((await git.lsRemote(url(alice, 'shared'))).get('refs/heads/rewrite')).toBe(amended);
      expect(amended).not.toBe(first);

      await git.run(['push', 'origin', '--delete', 'rewrite'], { cwd: work });
      await git.run(['push', 'origin', ':feature'], { cwd: work });
      const refs = await git.lsRemote(url(alice, 'shared'));
      expect(refs.has('refs/heads/rewrite')).toBe(false);
      expect(refs.has('refs/heads/feature')).toBe(false);
      expect((await alice.api.get<Repository>(`/repos/${alice.username}/shared`)).body.branch_count).toBe(1);
    });
  });

  describe('push events', () => {
    it('should write push, create and delete events with the commits to the outbox', async () => {
      const repo = await createRepo(alice, 'events');
      const work = await workingCopy(alice, 'events');
      const asAlice = { GIT_AUTHOR_EMAIL: alice.email, GIT_COMMITTER_EMAIL: alice.email };
      const c1 = await git.commit(work, { 'a.txt': 'one\n' }, 'add a', asAlice);
      const c2 = await git.commit(work, { 'a.txt': 'two\n', 'b.txt': 'b\n' }, 'change a, add b', asAlice);
      await git.run(['push', 'origin', 'main'], { cwd: work });
      await git.run(['checkout', '--quiet', '-b', 'topic'], { cwd: work });
      const c3 = await git.commit(work, { 'c.txt': 'c\n' }, 'add c');
      await git.run(['tag', 'v1'], { cwd: work });
      await git.run(['push', 'origin', 'topic', 'v1'], { cwd: work });
      await git.run(['push', 'origin', ':topic'], { cwd: work });

      const events = await repoEvents(repo.id);
      const names = events.map((e) => `${e.name} ${(e.payload as { ref?: string }).ref}`);
      expect(names).toEqual([
        'repo.created undefined',
        'repo.ref_created main',
        'repo.pushed refs/heads/main',
        'repo.ref_created topic',
        'repo.pushed refs/heads/topic',
        'repo.pushed refs/tags/v1',
        'repo.ref_created v1',
        'repo.ref_deleted topic',
      ]);
      const [, created, pushed, , topicPush, tagPush, , deleted] = events as Array<EventEnvelope<'repo.pushed'>>;
      expect(created!.payload).toMatchObject({ ref: 'main', ref_type: 'branch', sha: c2, sender: { login: alice.username } });
      const html = `${layout.rootUrl}${alice.username}/events`;
      expect(pushed!.actor).toEqual({ id: alice.id, login: alice.username });
      expect(pushed!.payload).toMatchObject({
        ref: 'refs/heads/main',
        before: ZERO,
        after: c2,
        // Gitea's getCompareURL: nothing to compare for the first push of the default branch.
        compare_url: layout.rootUrl,
        total_commits: 2,
        head_commit: { id: c2 },
        pusher: { login: alice.username },
        sender: { login: alice.username },
        repository: { id: repo.id, full_name: `${alice.username}/events`, empty: false, default_branch: 'main' },
      });
      expect(pushed!.payload.commits).toEqual([
        {
          id: c2,
          message: 'change a, add b\n',
          url: `${html}/commit/${c2}`,
          author: { name: 'Test Pusher', email: alice.email, username: alice.username },
          committer: { name: 'Test Pusher', email: alice.email, username: alice.username },
          verification: null,
          timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/),
          added: ['b.txt'],
          removed: [],
          modified: ['a.txt'],
        },
        expect.objectContaining({ id: c1, added: ['a.txt'], modified: [], removed: [] }),
      ]);
      // Like Gitea, a new branch lists the last commits of its history, new or not, and compares
      // from the parent of the oldest one listed (here the root: so from the default branch).
      expect(topicPush!.payload).toMatchObject({
        before: ZERO,
        after: c3,
        total_commits: 3,
        commits: [{ id: c3, author: { username: '' } }, { id: c2 }, { id: c1 }],
        compare_url: `${html}/compare/main...${c3}`,
      });
      expect(tagPush!.payload).toMatchObject({ ref: 'refs/tags/v1', after: c3, commits: [], total_commits: 0, head_commit: { id: c3 } });
      expect(deleted!.payload).toMatchObject({ ref: 'topic', ref_type: 'branch', pusher_type: 'user' });
    });

    it('should make the first pushed branch the default when the configured one was not pushed', async () => {
      await createRepo(alice, 'devfirst');
      const work = await workingCopy(alice, 'devfirst');
      await git.run(['checkout', '--quiet', '-b', 'dev'], { cwd: work });
      const dev = await git.commit(work, { 'x.txt': 'x\n' }, 'on dev');
      await git.run(['push', 'origin', 'dev'], { cwd: work });
      const repo = (await alice.api.get<Repository>(`/repos/${alice.username}/devfirst`)).body;
      expect(repo).toMatchObject({ default_branch: 'dev', empty: false, branch_count: 1 });
      expect((await git.lsRemote(url(alice, 'devfirst'))).get('HEAD')).toBe(dev);
    });
  });

  describe('access', () => {
    beforeAll(async () => {
      await createRepo(alice, 'secret', { private: true, auto_init: true });
      await createRepo(alice, 'open', { auto_init: true });
    });

    it('should ask anonymous clients for credentials on a private repository, with Gitea challenge', async () => {
      const res = await git.run(['clone', url(alice, 'secret', null), git.dir('nope')], { allowFailure: true });
      expect(res.code).not.toBe(0);
      expect(res.stderr).toMatch(/could not read Username|Authentication failed/);
      const raw = await rawRequest(layout, 'GET', `/${alice.username}/secret.git/info/refs?service=git-upload-pack`);
      expect(raw.status).toBe(401);
      expect(raw.headers['www-authenticate']).toBe('Basic realm="Gitea"');
    });

    it('should ask for credentials on every push, even to a public repository', async () => {
      const raw = await rawRequest(layout, 'GET', `/${alice.username}/open.git/info/refs?service=git-receive-pack`);
      expect(raw.status).toBe(401);
      expect(raw.headers['www-authenticate']).toBe('Basic realm="Gitea"');
      const anon = await rawRequest(layout, 'GET', `/${alice.username}/open.git/info/refs?service=git-upload-pack`);
      expect(anon.status).toBe(200);
      expect(anon.headers['content-type']).toBe('application/x-git-upload-pack-advertisement');
      expect(anon.body.subarray(0, 30).toString()).toBe('001e# service=git-upload-pack\n');
    });

    it('should refuse wrong credentials with a challenge, and hide a private repository from outsiders', async () => {
      const wrong = await rawRequest(layout, 'GET', `/${alice.username}/secret.git/info/refs?service=git-upload-pack`, {
        authorization: basicAuth(alice.username, 'wrong-password'),
      });
      expect(wrong.status).toBe(401);
      expect(wrong.headers['www-authenticate']).toBe('Basic realm="Gitea"');
      const outsider = await git.run(['ls-remote', url(alice, 'secret', carol)], { allowFailure: true });
      expect(outsider.code).not.toBe(0);
      expect(outsider.stderr).toContain('Repository not found');
      const unknown = await rawRequest(layout, 'GET', `/${alice.username}/nothing-here.git/info/refs?service=git-upload-pack`, {
        authorization: basicAuth(...creds(carol)),
      });
      expect(unknown.status).toBe(404);
    });

    it('should clone with a token as password and as username, and honour its scope', async () => {
      const make = async (name: string, scopes: string[]) =>
        (await alice.api.post<AccessToken>(`/users/${alice.username}/tokens`, { name, scopes })).body.sha1;
      const token = await make('git-rw', ['write:repository']);
      const readOnly = await make('git-ro', ['read:repository']);
      const dir = git.dir('tok');
      await git.run(['clone', '--quiet', gitUrl(layout, alice.username, 'secret', ['anyone', token]), dir]);
      await git.run(['ls-remote', gitUrl(layout, alice.username, 'secret', [token, 'x-oauth-basic'])]);
      await git.commit(dir, { 't.txt': 't\n' }, 'with a token');
      await git.run(['push', 'origin', 'main'], { cwd: dir });
      const refused = await git.run(['push', gitUrl(layout, alice.username, 'secret', ['anyone', readOnly]), 'HEAD:refs/heads/ro'], {
        cwd: dir,
        allowFailure: true,
      });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('token does not have at least one of required scope(s)');
    });

    it('should refuse a push from a read-only collaborator with the reason', async () => {
      await addCollaborator(alice, 'secret', bob, 'read');
      const dir = await workingCopy(alice, 'secret', bob);
      await git.commit(dir, { 'bob.txt': 'bob\n' }, 'from bob');
      const res = await git.run(['push', 'origin', 'main'], { cwd: dir, allowFailure: true });
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('! [remote rejected] main -> main (pre-receive hook declined: User permission denied for writing.)');
      expect(res.stderr).toContain('User permission denied for writing.');
      await addCollaborator(alice, 'secret', bob, 'write');
      await git.run(['push', 'origin', 'main'], { cwd: dir });
    });

    it('should refuse pushes to an archived repository and still serve clones', async () => {
      await createRepo(alice, 'attic', { auto_init: true });
      const dir = await workingCopy(alice, 'attic');
      expect((await alice.api.patch(`/repos/${alice.username}/attic`, { archived: true } satisfies EditRepoOption)).status).toBe(200);
      await git.commit(dir, { 'late.txt': 'late\n' }, 'too late');
      const res = await git.run(['push', 'origin', 'main'], { cwd: dir, allowFailure: true });
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('This repo is archived. You can view files and clone it, but cannot push or open issues/pull-requests.');
      await git.run(['clone', '--quiet', url(alice, 'attic'), git.dir('attic')]);
    });
  });

  describe('protections', () => {
    it('should refuse a protected tag to a user not on its allowlist and accept it from one on it', async () => {
      await createRepo(alice, 'tagged', { auto_init: true });
      await addCollaborator(alice, 'tagged', bob, 'write');
      const created = await alice.api.post(`/repos/${alice.username}/tagged/tag_protections`, {
        name_pattern: 'v*',
        whitelist_usernames: [bob.username],
      } satisfies CreateTagProtectionOption);
      expect(created.status).toBe(201);

      const mine = await workingCopy(alice, 'tagged');
      await git.run(['tag', 'v1'], { cwd: mine });
      await git.run(['tag', 'other'], { cwd: mine });
      const refused = await git.run(['push', 'origin', 'v1'], { cwd: mine, allowFailure: true });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('! [remote rejected] v1 -> v1 (pre-receive hook declined: Tag v1 is protected)');
      expect(refused.stderr).toContain('remote: Gitea: Tag v1 is protected');
      await git.run(['push', 'origin', 'other'], { cwd: mine });

      const bobs = await workingCopy(alice, 'tagged', bob);
      await git.run(['tag', 'v1'], { cwd: bobs });
      await git.run(['push', 'origin', 'v1'], { cwd: bobs });
      expect((await git.lsRemote(url(alice, 'tagged'))).has('refs/tags/v1')).toBe(true);
      // Deleting a protected tag is refused the same way.
      const del = await git.run(['push', 'origin', ':v1'], { cwd: mine, allowFailure: true });
      expect(del.stderr).toContain('(pre-receive hook declined: Tag v1 is protected)');
    });

    it('should let only the push allowlist push to a protected branch, and never force or delete it', async () => {
      await createRepo(alice, 'guarded', { auto_init: true });
      await addCollaborator(alice, 'guarded', bob, 'write');
      const mine = await workingCopy(alice, 'guarded');
      await git.run(['push', '--quiet', 'origin', 'HEAD:release/1'], { cwd: mine });
      const rule = await alice.api.post(`/repos/${alice.username}/guarded/branch_protections`, {
        rule_name: 'main',
        enable_push: true,
        enable_push_whitelist: true,
        push_whitelist_usernames: [bob.username],
      } satisfies CreateBranchProtectionOption);
      expect(rule.status).toBe(201);
      expect((await alice.api.post(`/repos/${alice.username}/guarded/branch_protections`, { rule_name: 'release/*' })).status).toBe(201);

      await git.commit(mine, { 'a.txt': 'alice\n' }, 'alice on main');
      const refused = await git.run(['push', 'origin', 'main'], { cwd: mine, allowFailure: true });
      expect(refused.stderr).toContain('! [remote rejected] main -> main (pre-receive hook declined: Not allowed to push to protected branch main)');
      expect(refused.stderr).toContain('Not allowed to push to protected branch main');

      const bobs = await workingCopy(alice, 'guarded', bob);
      await git.commit(bobs, { 'b.txt': 'bob\n' }, 'bob on main');
      await git.run(['push', 'origin', 'main'], { cwd: bobs });

      await git.run(['reset', '--quiet', '--hard', 'HEAD~1'], { cwd: bobs });
      await git.commit(bobs, { 'c.txt': 'rewritten\n' }, 'rewrite');
      const forced = await git.run(['push', '--force', 'origin', 'main'], { cwd: bobs, allowFailure: true });
      expect(forced.stderr).toContain('Branch main is protected from force push');

      const deleted = await git.run(['push', 'origin', ':release/1'], { cwd: bobs, allowFailure: true });
      expect(deleted.stderr).toContain('! [remote rejected] release/1 (pre-receive hook declined: Branch release/1 is protected from deletion)');
      expect(deleted.stderr).toContain('remote: Gitea: Branch release/1 is protected from deletion');
      const defaultBranch = await git.run(['push', 'origin', ':main'], { cwd: bobs, allowFailure: true });
      expect(defaultBranch.stderr).toContain('Branch main is the default branch and cannot be deleted');
    });
  });

  describe('safety', () => {
    let repo: Repository;
    let work: string;
    const marker = () => join(git.home, 'pwned');

    beforeAll(async () => {
      repo = await createRepo(alice, 'safety', { auto_init: true });
      work = await workingCopy(alice, 'safety');
    });

    it('should refuse ref names git could read as options, and paths with them', async () => {
      const dash = await git.run(['push', 'origin', 'HEAD:refs/heads/-x'], { cwd: work, allowFailure: true });
      expect(dash.stderr).toContain('! [remote rejected] HEAD -> -x (pre-receive hook declined: Invalid branch name: -x)');
      const option = await git.run(['push', 'origin', `HEAD:refs/tags/--upload-pack=touch`], { cwd: work, allowFailure: true });
      expect(option.stderr).toContain('(pre-receive hook declined: Invalid tag name: --upload-pack=touch)');
      const path = await git.run(['clone', `${layout.rootUrl}--upload-pack=touch%20${encodeURIComponent(marker())}/x.git`, git.dir('evil')], {
        allowFailure: true,
      });
      expect(path.code).not.toBe(0);
      const refs = await git.lsRemote(url(alice, 'safety'));
      expect([...refs.keys()].some((r) => r.includes('-x') || r.includes('upload-pack'))).toBe(false);
      expect(existsSync(marker())).toBe(false);
    });

    it('should land two concurrent pushes to different branches', async () => {
      const one = await workingCopy(alice, 'safety');
      const two = await workingCopy(alice, 'safety');
      const a = await git.commit(one, { 'one.txt': '1\n' }, 'one');
      const b = await git.commit(two, { 'two.txt': '2\n' }, 'two');
      await Promise.all([git.run(['push', 'origin', 'HEAD:par-a'], { cwd: one }), git.run(['push', 'origin', 'HEAD:par-b'], { cwd: two })]);
      const refs = await git.lsRemote(url(alice, 'safety'));
      expect(refs.get('refs/heads/par-a')).toBe(a);
      expect(refs.get('refs/heads/par-b')).toBe(b);
      const heads = [...refs.keys()].filter((r) => r.startsWith('refs/heads/')).length;
      expect((await alice.api.get<Repository>(`/repos/${alice.username}/safety`)).body.branch_count).toBe(heads);
    });

    /** Starts a push of a real pack and leaves it unfinished; answers a function that drops the connection. */
    async function startPush(): Promise<{ drop: () => void; closed: Promise<void> }> {
      const big = git.dir('bigpack');
      execFileSync('git', ['init', '--quiet', big], { env: { ...process.env, HOME: git.home } });
      writeFileSync(join(big, 'blob.bin'), randomBytes(3 * 1024 * 1024));
      execFileSync('git', ['add', 'blob.bin'], { cwd: big, env: { ...process.env, HOME: git.home } });
      execFileSync('git', ['commit', '--quiet', '-m', 'big'], { cwd: big, env: { ...process.env, HOME: git.home } });
      const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: big }).toString().trim();
      const pack = execFileSync('git', ['pack-objects', '--stdout', '--revs'], { cwd: big, input: `${sha}\n`, maxBuffer: 64 * 1024 * 1024 });
      const req = request({
        host: '127.0.0.1',
        port: layout.port,
        method: 'POST',
        path: `/${alice.username}/safety.git/git-receive-pack`,
        headers: { authorization: basicAuth(...creds(alice)), 'content-type': 'application/x-git-receive-pack-request' },
      });
      const closed = new Promise<void>((resolve) => {
        req.on('error', () => resolve());
        req.on('response', (res) => {
          res.resume();
          res.on('close', () => resolve());
        });
        req.on('close', () => resolve());
      });
      req.write(pkt(`${ZERO} ${sha} refs/heads/dropped\0 report-status side-band-64k\n`));
      req.write('0000');
      req.write(pack.subarray(0, pack.length >> 1));
      return { drop: () => req.destroy(), closed };
    }

    it('should leave no lock or temporary file behind when a client disconnects mid-push', async () => {
      const push = await startPush();
      // git is receiving the pack into its quarantine directory…
      await expectEventually(() => expect(leftovers(repo).some((p) => p.includes('incoming-'))).toBe(true), { timeoutMs: 30_000 });
      push.drop();
      // …and cleans up once the gateway passes the disconnect on.
      await expectEventually(() => expect(leftovers(repo)).toEqual([]), { timeoutMs: 30_000 });
      expect((await git.lsRemote(url(alice, 'safety'))).has('refs/heads/dropped')).toBe(false);
      await git.commit(work, { 'after.txt': 'after\n' }, 'after the drop');
      await git.run(['push', 'origin', 'HEAD:after-drop'], { cwd: work });
    });

    it('should abort a push that stays idle and clean up after it', async () => {
      const push = await startPush();
      await push.closed;
      await expectEventually(() => expect(leftovers(repo)).toEqual([]), { timeoutMs: 30_000 });
      expect((await git.lsRemote(url(alice, 'safety'))).has('refs/heads/dropped')).toBe(false);
    });

    it('should stop a clone whose client stops reading, and one whose client goes away', async () => {
      const repo = await createRepo(alice, 'stall');
      // 40 MiB that do not compress: more than every buffer between git and the client holds. Put
      // in place on disk, as a push that size is over this suite's body limit.
      const src = git.dir('stall-src');
      const env = { ...process.env, HOME: git.home };
      execFileSync('git', ['init', '--quiet', src], { env });
      writeFileSync(join(src, 'blob.bin'), randomBytes(40 * 1024 * 1024));
      execFileSync('git', ['add', 'blob.bin'], { cwd: src, env });
      execFileSync('git', ['commit', '--quiet', '-m', 'big'], { cwd: src, env });
      execFileSync('git', ['--git-dir', repoDir(repo), 'fetch', '--quiet', src, 'HEAD:refs/heads/main'], { env });
      const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: src }).toString().trim();
      const uploadPacks = (): string[] =>
        execFileSync('ps', ['-eo', 'args'])
          .toString()
          .split('\n')
          .filter((l) => l.includes('upload-pack') && l.includes(repoDir(repo)));
      /** A protocol v2 fetch of everything, its answer's first bytes read and the rest left unread. */
      const fetchPaused = (): Promise<{ drop: () => void; status: number | undefined }> => {
        const body = Buffer.concat([pkt('command=fetch\n'), Buffer.from('0001'), pkt(`want ${sha}\n`), pkt('done\n'), Buffer.from('0000')]);
        return new Promise((resolve, reject) => {
          const req = request({
            host: '127.0.0.1',
            port: layout.port,
            method: 'POST',
            path: `/${alice.username}/stall.git/git-upload-pack`,
            headers: {
              authorization: basicAuth(...creds(alice)),
              'content-type': 'application/x-git-upload-pack-request',
              'git-protocol': 'version=2',
              'content-length': String(body.length),
            },
          });
          req.on('error', () => undefined);
          req.on('response', (res) => {
            res.once('data', () => {
              res.pause();
              resolve({ drop: () => req.destroy(), status: res.statusCode });
            });
            res.once('error', reject);
          });
          req.end(body);
        });
      };

      const stalled = await fetchPaused();
      expect(stalled.status).toBe(200);
      // At least one: git forks for pack-objects, and the child shows the same command line until it execs.
      expect(uploadPacks().length).toBeGreaterThan(0);
      // Its client reads nothing more: git is stopped after the idle timeout (8 s here).
      await expectEventually(() => expect(uploadPacks()).toEqual([]), { timeoutMs: 40_000 });
      stalled.drop();

      const dropped = await fetchPaused();
      expect(uploadPacks().length).toBeGreaterThan(0);
      dropped.drop();
      // Its client goes away: git is stopped then, not at the idle timeout.
      await expectEventually(() => expect(uploadPacks()).toEqual([]), { timeoutMs: 5_000 });

      // And a real clone still gets everything.
      const copy = git.dir('stall-copy');
      await git.run(['clone', '--quiet', '--bare', url(alice, 'stall'), copy]);
      expect(execFileSync('git', ['--git-dir', copy, 'rev-parse', 'refs/heads/main']).toString().trim()).toBe(sha);
    });

    it('should answer bad requests with a status, never a hung connection', async () => {
      const path = `/${alice.username}/safety.git/git-upload-pack`;
      const auth = { authorization: basicAuth(...creds(alice)) };
      const notGzip = await rawRequest(layout, 'POST', path, { ...auth, 'content-type': 'application/x-git-upload-pack-request', 'content-encoding': 'gzip' }, Buffer.from('0000 plainly not gzip'));
      expect(notGzip.status).toBe(400);
      // A small gzip body that inflates past the limit (a gzip bomb) is refused, not inflated in memory.
      const bomb = await rawRequest(layout, 'POST', path, { ...auth, 'content-type': 'application/x-git-upload-pack-request', 'content-encoding': 'gzip' }, gzipSync(Buffer.alloc(BODY_LIMIT + 1024 * 1024)));
      expect(bomb.status).toBe(413);
      const wrongType = await rawRequest(layout, 'POST', path, { ...auth, 'content-type': 'application/json' }, Buffer.from('{}'));
      expect(wrongType.status).toBe(400);
      // git stops reading a body it cannot use; its answer still reaches the client, not a reset.
      const junk = await rawRequest(layout, 'POST', path, { ...auth, 'content-type': 'application/x-git-upload-pack-request' }, Buffer.alloc(3 * 1024 * 1024, '0'));
      expect(junk.status).toBe(200);
      const tooLarge = await rawRequest(
        layout,
        'POST',
        `/${alice.username}/safety.git/git-receive-pack`,
        { ...auth, 'content-type': 'application/x-git-receive-pack-request' },
        Buffer.alloc(BODY_LIMIT + 1024),
      );
      expect(tooLarge.status).toBe(413);
      // Gitea looks the owner up before it asks for credentials.
      expect((await rawRequest(layout, 'GET', '/no-such-owner-x/repo.git/info/refs?service=git-upload-pack')).status).toBe(404);
    });

    it('should take push options, as Gitea advertises them', async () => {
      await git.commit(work, { 'options.txt': 'o\n' }, 'with options');
      await git.run(['push', '-o', 'ci.skip', '-o', 'topic=x', 'origin', 'HEAD:with-options'], { cwd: work });
      expect((await git.lsRemote(url(alice, 'safety'))).has('refs/heads/with-options')).toBe(true);
    });

    it('should cut off a request body over the limit', async () => {
      const dir = await workingCopy(alice, 'safety');
      writeFileSync(join(dir, 'huge.bin'), randomBytes(BODY_LIMIT + 1024 * 1024));
      await git.run(['add', 'huge.bin'], { cwd: dir });
      await git.run(['commit', '--quiet', '-m', 'huge'], { cwd: dir });
      const res = await git.run(['push', 'origin', 'HEAD:huge'], { cwd: dir, allowFailure: true });
      expect(res.code).not.toBe(0);
      expect((await git.lsRemote(url(alice, 'safety'))).has('refs/heads/huge')).toBe(false);
      await expectEventually(() => expect(leftovers(repo)).toEqual([]), { timeoutMs: 30_000 });
    });
  });
});
