import { DeployKeyPatterns, type KeyFingerprints, type SshKeyOwner } from '@gitforge/contracts';
import type { Database, PlatformConfig, RpcClient } from '@gitforge/platform';
import type { UsersRepository } from '../users/users.repository.js';
import type { UsersService } from '../users/users.service.js';
import type { PublicKeyEntity } from './public-key.entity.js';
import type { UserKeysRepository } from './user-keys.repository.js';
import { UserKeysService } from './user-keys.service.js';

const USER_KEY = {
  id: 7,
  ownerId: 3,
  name: 'laptop',
  fingerprint: 'SHA256:user',
  content: 'ssh-ed25519 AAAA u@x',
} as PublicKeyEntity;
const DEPLOY_KEY: SshKeyOwner = {
  kind: 'deploy',
  keyId: 11,
  fingerprint: 'SHA256:deploy',
  content: 'ssh-ed25519 BBBB',
  repositories: [{ deployKeyId: 21, repoId: 5, readOnly: true }],
};

describe(UserKeysService.name, () => {
  let asked: KeyFingerprints[];
  let sut: UserKeysService;

  beforeEach(() => {
    asked = [];
    // Only what `owner` may touch exists: any other call fails the test with a TypeError.
    const keys = {
      byFingerprints: async (fps: string[]) => [USER_KEY].filter((k) => fps.includes(k.fingerprint)),
    } as unknown as UserKeysRepository;
    const rpc = {
      call: async (pattern: string, req: { body: KeyFingerprints }) => {
        expect(pattern).toBe(DeployKeyPatterns.findByFingerprints);
        asked.push(req.body);
        return [DEPLOY_KEY].filter((k) => req.body.fingerprints.includes(k.fingerprint));
      },
    } as unknown as RpcClient;
    sut = new UserKeysService({} as Database, keys, {} as UsersService, {} as UsersRepository, rpc, {
      rootUrl: 'http://forge.test/',
    } as PlatformConfig);
  });

  it("should answer a user's key without asking repo-service", async () => {
    expect(await sut.owner(null, 'SHA256:user')).toEqual({
      kind: 'user',
      keyId: 7,
      userId: 3,
      fingerprint: 'SHA256:user',
      content: 'ssh-ed25519 AAAA u@x',
    });
    expect(asked).toEqual([]);
  });

  it('should answer a deploy key with the repositories it opens, asked of repo-service by fingerprint', async () => {
    expect(await sut.owner(null, 'SHA256:deploy')).toEqual(DEPLOY_KEY);
    expect(asked).toEqual([{ fingerprints: ['SHA256:deploy'] }]);
  });

  it('should answer null for a fingerprint nobody has', async () => {
    expect(await sut.owner(null, 'SHA256:nobody')).toBeNull();
  });
});
