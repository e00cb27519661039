import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreateKeyOption, DeployKey, PublicKey, Repository } from '@gitforge/contracts';
import { Api, createUser, giteaError, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';
import { addCollaborator, createRepo } from './support/repos.js';

/** A key pair made by the real `ssh-keygen`, with the fingerprint `ssh-keygen -lf` prints for it. */
interface KeyPair {
  /** The private key's file (the public key is beside it, with `.pub`). */
  file: string;
  publicKey: string;
  privateKey: string;
  fingerprint: string;
}

const keyDir = mkdtempSync(join(tmpdir(), 'gf-keys-'));
let keyCount = 0;
function sshKeygen(type: 'ed25519' | 'ecdsa' | 'rsa', bits?: number): KeyPair {
  keyCount += 1;
  const file = join(keyDir, `k${keyCount}`);
  execFileSync('ssh-keygen', [
    '-q',
    '-t',
    type,
    ...(bits ? ['-b', String(bits)] : []),
    '-N',
    '',
    '-C',
    `test${keyCount}@example`,
    '-f',
    file,
  ]);
  const printed = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`], {
    encoding: 'utf8',
  });
  return {
    file,
    publicKey: readFileSync(`${file}.pub`, 'utf8'),
    privateKey: readFileSync(file, 'utf8'),
    fingerprint: printed.split(' ')[1]!,
  };
}

// Shared by both layouts' suites, so removed once after them.
afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

describe.each(layoutsUnderTest())('deploy keys and user keys (%s layout)', (kind) => {
  let layout: Layout;
  let api: Api;
  let alice: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let repo: Repository;
  let other: Repository;
  let secret: Repository;

  beforeAll(async () => {
    layout = await Layout.start(kind);
    api = new Api(layout);
    [alice, writer, reader, outsider] = await Promise.all([
      createUser(api, 'kalice'),
      createUser(api, 'kwriter'),
      createUser(api, 'kreader'),
      createUser(api, 'koutsider'),
    ]);
    [repo, other, secret] = await Promise.all([
      createRepo(alice.api),
      createRepo(alice.api),
      createRepo(alice.api, { private: true }),
    ]);
    await addCollaborator(alice.api, repo, writer, 'write');
    await addCollaborator(alice.api, repo, reader, 'read');
  });

  afterAll(async () => {
    await layout?.stop();
  });

  const keysOf = (r: Repository) => `/repos/${r.full_name}/keys`;

  describe('deploy keys', () => {
    const ed25519 = sshKeygen('ed25519');

    it("should add a deploy key with ssh-keygen's fingerprint, and list it with the repository for its owner", async () => {
      const created = await alice.api.post<DeployKey>(keysOf(repo), {
        title: 'ci',
        key: ed25519.publicKey,
        read_only: true,
      } satisfies CreateKeyOption);
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        key_id: expect.any(Number),
        key: ed25519.publicKey.trim(),
        url: `${layout.apiUrl}${keysOf(repo)}/${created.body.id}`,
        title: 'ci',
        fingerprint: ed25519.fingerprint,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        read_only: true,
      });
      expect(created.body.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);

      const list = await alice.api.get<DeployKey[]>(keysOf(repo));
      expect(list.status).toBe(200);
      expect(list.headers.get('x-total-count')).toBe('1');
      expect(list.body).toEqual([
        { ...created.body, repository: expect.objectContaining({ full_name: repo.full_name }) },
      ]);
      expect(list.body[0]!.repository!.permissions).toMatchObject({ admin: false, push: false, pull: true });

      const one = await alice.api.get<DeployKey>(`${keysOf(repo)}/${created.body.id}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({
        id: created.body.id,
        fingerprint: ed25519.fingerprint,
        repository: expect.any(Object),
      });
    });

    it('should accept ecdsa and RSA (2048 bits) keys, filter by fingerprint and key_id, and page the list', async () => {
      const ecdsa = sshKeygen('ecdsa', 384);
      const rsa = sshKeygen('rsa', 2048);
      const e = await alice.api.post<DeployKey>(keysOf(repo), {
        title: 'ecdsa',
        key: ecdsa.publicKey,
      } satisfies CreateKeyOption);
      const r = await alice.api.post<DeployKey>(keysOf(repo), {
        title: 'rsa',
        key: rsa.publicKey,
      } satisfies CreateKeyOption);
      expect([e.status, r.status]).toEqual([201, 201]);
      expect([e.body.fingerprint, e.body.read_only]).toEqual([ecdsa.fingerprint, false]);
      expect(r.body.fingerprint).toBe(rsa.fingerprint);

      const byFingerprint = await alice.api.get<DeployKey[]>(
        `${keysOf(repo)}?fingerprint=${encodeURIComponent(rsa.fingerprint)}`,
      );
      expect(byFingerprint.body.map((k) => k.title)).toEqual(['rsa']);
      const byKeyId = await alice.api.get<DeployKey[]>(`${keysOf(repo)}?key_id=${e.body.key_id}`);
      expect(byKeyId.body.map((k) => k.title)).toEqual(['ecdsa']);
      // Gitea's FormInt64: an id no row has (beyond 32 bits too) finds nothing.
      for (const id of ['9999999999', '9223372036854775807', '-3']) {
        const none = await alice.api.get<DeployKey[]>(`${keysOf(repo)}?key_id=${id}`);
        expect({ id, status: none.status, body: none.body }).toEqual({ id, status: 200, body: [] });
      }
      const page2 = await alice.api.get<DeployKey[]>(`${keysOf(repo)}?limit=2&page=2`);
      expect(page2.headers.get('x-total-count')).toBe('3');
      expect(page2.body.map((k) => k.title)).toEqual(['rsa']);

      expect((await alice.api.delete(`${keysOf(repo)}/${e.body.id}`)).status).toBe(204);
      expect((await alice.api.delete(`${keysOf(repo)}/${r.body.id}`)).status).toBe(204);
    });

    it('should refuse the same key twice on one repository and a reused title, and allow the key on another repository', async () => {
      const again = await alice.api.post(keysOf(repo), {
        title: 'ci again',
        key: ed25519.publicKey,
      } satisfies CreateKeyOption);
      expect(again.status).toBe(422);
      expect(again.body).toEqual(giteaError('This key has already been added to this repository'));

      const title = await alice.api.post(keysOf(repo), {
        title: 'ci',
        key: sshKeygen('ed25519').publicKey,
      } satisfies CreateKeyOption);
      expect(title.status).toBe(422);
      expect(title.body).toEqual(giteaError('A key with the same name already exists'));

      const first = (await alice.api.get<DeployKey[]>(keysOf(repo))).body[0]!;
      const elsewhere = await alice.api.post<DeployKey>(keysOf(other), {
        title: 'ci',
        key: ed25519.publicKey,
      } satisfies CreateKeyOption);
      expect(elsewhere.status).toBe(201);
      expect(elsewhere.body).toMatchObject({
        key_id: first.key_id,
        fingerprint: ed25519.fingerprint,
        read_only: false,
      });
      expect(elsewhere.body.id).not.toBe(first.id);

      // Key ids of another repository are not found here, for reading or deleting.
      expect((await alice.api.get(`${keysOf(repo)}/${elsewhere.body.id}`)).status).toBe(404);
      expect((await alice.api.delete(`${keysOf(repo)}/${elsewhere.body.id}`)).status).toBe(404);
      expect((await alice.api.get(`${keysOf(repo)}/999999`)).status).toBe(404);
      expect((await alice.api.get(`${keysOf(repo)}/x`)).status).toBe(404);
    });

    it('should answer 422 for invalid keys: garbage, trailing junk, a private key (saying so), a short RSA key, missing fields', async () => {
      const [type, base64] = sshKeygen('ed25519').publicKey.split(' ');
      const junk = Buffer.concat([Buffer.from(base64!, 'base64'), Buffer.from('junk')]).toString('base64');
      const cases: [unknown, string | RegExp][] = [
        [{ title: 'bad', key: 'ssh-ed25519 not-a-key' }, /^Invalid key content: /],
        [
          { title: 'junk', key: `${type} ${junk} me@host` },
          'Invalid key content: ssh: trailing junk in public key',
        ],
        [
          { title: 'private', key: ed25519.privateKey },
          'Invalid key content: the provided key is a private key',
        ],
        [
          { title: 'short', key: sshKeygen('rsa', 1024).publicKey },
          'Invalid key content: key length is not enough: got 1024, needs 2048',
        ],
      ];
      for (const [body, message] of cases) {
        const res = await alice.api.post(keysOf(repo), body);
        expect({ body, status: res.status }).toEqual({ body, status: 422 });
        expect(res.body).toEqual(giteaError(message));
      }
      expect((await alice.api.post(keysOf(repo), { key: sshKeygen('ed25519').publicKey })).status).toBe(422);
      expect((await alice.api.post(keysOf(repo), { title: 'no key' })).status).toBe(422);
      expect((await alice.api.get<DeployKey[]>(keysOf(repo))).headers.get('x-total-count')).toBe('1');
    });

    it('should let writers read without the repository, and only admins add or delete', async () => {
      const listed = await writer.api.get<DeployKey[]>(keysOf(repo));
      expect(listed.status).toBe(200);
      expect(listed.body).toHaveLength(1);
      expect(listed.body[0]).not.toHaveProperty('repository');
      const id = listed.body[0]!.id;
      expect((await writer.api.get<DeployKey>(`${keysOf(repo)}/${id}`)).body).toMatchObject({
        id,
        read_only: true,
      });

      const add = await writer.api.post(keysOf(repo), {
        title: 'mine',
        key: sshKeygen('ed25519').publicKey,
      } satisfies CreateKeyOption);
      expect(add.status).toBe(403);
      expect(add.body).toEqual(giteaError());
      expect((await writer.api.delete(`${keysOf(repo)}/${id}`)).status).toBe(403);

      expect((await reader.api.get(keysOf(repo))).status).toBe(403);
      expect((await reader.api.get(`${keysOf(repo)}/${id}`)).status).toBe(403);
      expect((await outsider.api.get(keysOf(repo))).status).toBe(403);
      expect((await api.anonymous.get(keysOf(repo))).status).toBe(401);
      expect((await outsider.api.get(keysOf(secret))).status).toBe(404);
      expect(
        (await outsider.api.post(keysOf(secret), { title: 'x', key: sshKeygen('ed25519').publicKey })).status,
      ).toBe(404);

      // A site administrator manages any repository's keys.
      const byAdmin = await api.admin.post<DeployKey>(keysOf(secret), {
        title: 'admin',
        key: sshKeygen('ed25519').publicKey,
      } satisfies CreateKeyOption);
      expect(byAdmin.status).toBe(201);
      expect((await api.admin.get<DeployKey[]>(keysOf(secret))).body[0]).toHaveProperty('repository');
      expect((await api.admin.delete(`${keysOf(secret)}/${byAdmin.body.id}`)).status).toBe(204);
    });

    it('should delete a deploy key (204), then answer 404 for it', async () => {
      const key = await alice.api.post<DeployKey>(keysOf(repo), {
        title: 'temp',
        key: sshKeygen('ecdsa', 256).publicKey,
      } satisfies CreateKeyOption);
      expect(key.status).toBe(201);
      expect((await alice.api.delete(`${keysOf(repo)}/${key.body.id}`)).status).toBe(204);
      expect((await alice.api.get(`${keysOf(repo)}/${key.body.id}`)).status).toBe(404);
      expect((await alice.api.delete(`${keysOf(repo)}/${key.body.id}`)).status).toBe(404);
    });

    it('should accept the RFC 4716 and PEM forms ssh-keygen -e writes, with the fingerprint of the key', async () => {
      for (const [type, format] of [
        ['ed25519', 'RFC4716'],
        ['ecdsa', 'PKCS8'],
        ['rsa', 'PEM'],
      ] as const) {
        const pair = sshKeygen(type);
        const exported = execFileSync('ssh-keygen', ['-e', '-m', format, '-f', pair.file], {
          encoding: 'utf8',
        });
        const res = await alice.api.post<DeployKey>(keysOf(repo), {
          title: `${format} form`,
          key: exported,
        } satisfies CreateKeyOption);
        expect({ format, status: res.status, fingerprint: res.body.fingerprint }).toEqual({
          format,
          status: 201,
          fingerprint: pair.fingerprint,
        });
        expect(res.body.key).toBe(pair.publicKey.split(' ').slice(0, 2).join(' '));
        expect((await alice.api.delete(`${keysOf(repo)}/${res.body.id}`)).status).toBe(204);
      }
    });
  });

  describe('user keys', () => {
    const mine = sshKeygen('ed25519');
    let myKey: PublicKey;

    it("should add a key for the signed-in user with ssh-keygen's fingerprint and Gitea's private information", async () => {
      const created = await alice.api.post<PublicKey>('/user/keys', {
        title: 'laptop',
        key: mine.publicKey,
      } satisfies CreateKeyOption);
      expect(created.status).toBe(201);
      myKey = created.body;
      expect(myKey).toEqual({
        id: expect.any(Number),
        key: mine.publicKey.trim(),
        url: `${layout.apiUrl}/user/keys/${myKey.id}`,
        title: 'laptop',
        fingerprint: mine.fingerprint,
        created_at: expect.stringMatching(/Z$/),
        last_used_at: expect.stringMatching(/Z$/),
        key_type: 'user',
        read_only: false,
        user: expect.objectContaining({ id: alice.id, login: alice.username }),
      });
      const one = await alice.api.get<PublicKey>(`/user/keys/${myKey.id}`);
      expect(one.body).toEqual(myKey);
    });

    it('should list keys: the own list, a user’s list for anyone signed in (without private information), by fingerprint', async () => {
      const own = await alice.api.get<PublicKey[]>('/user/keys');
      expect(own.headers.get('x-total-count')).toBe('1');
      expect(own.body).toEqual([myKey]);

      // Gitea's route group wants a token, and looks the user up whatever their visibility.
      expect(await api.anonymous.get(`/users/${alice.username}/keys`)).toMatchObject({ status: 401, body: { message: 'token is required' } });
      const seen = await outsider.api.get<PublicKey[]>(`/users/${alice.username}/keys`);
      expect(seen.status).toBe(200);
      expect(seen.body).toEqual([
        {
          id: myKey.id,
          key: myKey.key,
          url: myKey.url,
          title: 'laptop',
          fingerprint: mine.fingerprint,
          created_at: myKey.created_at,
          last_used_at: myKey.last_used_at,
        },
      ]);
      const filtered = await outsider.api.get<PublicKey[]>(
        `/users/${alice.username}/keys?fingerprint=${encodeURIComponent(mine.fingerprint)}`,
      );
      expect(filtered.body.map((k) => k.id)).toEqual([myKey.id]);
      expect(
        (
          await outsider.api.get<PublicKey[]>(
            `/users/${outsider.username}/keys?fingerprint=${encodeURIComponent(mine.fingerprint)}`,
          )
        ).body,
      ).toEqual([]);
      // Gitea: a fingerprint on /user/keys looks through every user's keys.
      const anyone = await outsider.api.get<PublicKey[]>(
        `/user/keys?fingerprint=${encodeURIComponent(mine.fingerprint)}`,
      );
      expect(anyone.body.map((k) => [k.id, k.user])).toEqual([[myKey.id, undefined]]);
      expect((await api.anonymous.get('/users/nobody-here-at-all/keys')).status).toBe(401);
      expect((await outsider.api.get('/users/nobody-here-at-all/keys')).status).toBe(404);
      expect((await api.anonymous.get('/user/keys')).status).toBe(401);
    });

    it("should answer 404 for another user's key id, and 403 when deleting it, as Gitea", async () => {
      expect((await outsider.api.get(`/user/keys/${myKey.id}`)).status).toBe(404);
      const del = await outsider.api.delete(`/user/keys/${myKey.id}`);
      expect(del.status).toBe(403);
      expect(del.body).toEqual(giteaError('You do not have access to this key'));
      expect((await outsider.api.delete('/user/keys/999999')).status).toBe(404);
      expect((await alice.api.get<PublicKey>(`/user/keys/${myKey.id}`)).status).toBe(200);
    });

    it('should refuse a key another user has, a reused title, a deploy key, and invalid or private keys', async () => {
      const taken = await outsider.api.post('/user/keys', {
        title: 'stolen',
        key: mine.publicKey,
      } satisfies CreateKeyOption);
      expect(taken.status).toBe(422);
      expect(taken.body).toEqual(giteaError('Key content has been used as non-deploy key'));

      const title = await alice.api.post('/user/keys', {
        title: 'laptop',
        key: sshKeygen('ed25519').publicKey,
      } satisfies CreateKeyOption);
      expect(title.status).toBe(422);
      expect(title.body).toEqual(giteaError('Key title has been used'));

      const deployKey = (await alice.api.get<DeployKey[]>(keysOf(repo))).body[0]!;
      const asUserKey = await alice.api.post('/user/keys', {
        title: 'deploy',
        key: deployKey.key,
      } satisfies CreateKeyOption);
      expect(asUserKey.status).toBe(422);
      expect(asUserKey.body).toEqual(giteaError('Key content has been used as non-deploy key'));

      const asDeployKey = await alice.api.post(keysOf(repo), {
        title: 'user key',
        key: mine.publicKey,
      } satisfies CreateKeyOption);
      expect(asDeployKey.status).toBe(422);
      expect(asDeployKey.body).toEqual(giteaError('Key content has been used as non-deploy key'));

      const priv = await alice.api.post('/user/keys', {
        title: 'oops',
        key: mine.privateKey,
      } satisfies CreateKeyOption);
      expect(priv.status).toBe(422);
      expect(priv.body).toEqual(giteaError('Invalid key content: the provided key is a private key'));
      expect((await alice.api.get<PublicKey[]>('/user/keys')).body).toHaveLength(1);
    });

    it('should let site administrators add and delete a user’s keys, and nobody else', async () => {
      const key = sshKeygen('rsa', 3072);
      const denied = await alice.api.post(`/admin/users/${writer.username}/keys`, {
        title: 'x',
        key: key.publicKey,
      } satisfies CreateKeyOption);
      expect(denied.status).toBe(403);

      const added = await api.admin.post<PublicKey>(`/admin/users/${writer.username}/keys`, {
        title: 'server',
        key: key.publicKey,
      } satisfies CreateKeyOption);
      expect(added.status).toBe(201);
      expect(added.body).toMatchObject({
        fingerprint: key.fingerprint,
        user: expect.objectContaining({ login: writer.username }),
      });
      expect((await writer.api.get<PublicKey[]>('/user/keys')).body.map((k) => k.id)).toEqual([
        added.body.id,
      ]);
      expect(
        (
          await api.admin.post(`/admin/users/nobody-here-at-all/keys`, {
            title: 'x',
            key: sshKeygen('ed25519').publicKey,
          })
        ).status,
      ).toBe(404);

      expect((await api.admin.delete(`/admin/users/${reader.username}/keys/${added.body.id}`)).status).toBe(
        403,
      );
      expect((await alice.api.delete(`/admin/users/${writer.username}/keys/${added.body.id}`)).status).toBe(
        403,
      );
      expect((await api.admin.delete(`/admin/users/${writer.username}/keys/${added.body.id}`)).status).toBe(
        204,
      );
      expect((await writer.api.get<PublicKey[]>('/user/keys')).body).toEqual([]);
    });

    it('should delete the own key (204) and then answer 404 for it; the key may then be a deploy key, until its repository goes', async () => {
      expect((await alice.api.delete(`/user/keys/${myKey.id}`)).status).toBe(204);
      expect((await alice.api.get(`/user/keys/${myKey.id}`)).status).toBe(404);
      const nowDeploy = await alice.api.post(keysOf(other), {
        title: 'former user key',
        key: mine.publicKey,
      } satisfies CreateKeyOption);
      expect(nowDeploy.status).toBe(201);

      // Deleting the repository deletes its deploy keys: the key is free to be a user's key again.
      expect((await alice.api.delete(`/repos/${other.full_name}`)).status).toBe(204);
      expect(
        (await alice.api.post('/user/keys', { title: 'back', key: mine.publicKey } satisfies CreateKeyOption))
          .status,
      ).toBe(201);
    });
  });
});
