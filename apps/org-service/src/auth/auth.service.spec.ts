import { ContractError, RunnerProtocolPatterns, type ActionsTaskGrant } from '@gitforge/contracts';
import type { Database, PlatformConfig, RpcClient } from '@gitforge/platform';
import type { AccessTokenEntity } from '../tokens/access-token.entity.js';
import { hashToken } from '../tokens/tokens.service.js';
import type { TokensRepository } from '../tokens/tokens.repository.js';
import type { UserEntity } from '../users/user.entity.js';
import type { UsersRepository } from '../users/users.repository.js';
import { AuthService } from './auth.service.js';

const TASK_TOKEN = 'a'.repeat(32) + '12345678';
const ACCESS_TOKEN = 'b'.repeat(40);
const GRANT: ActionsTaskGrant = { taskId: 9, repoId: 5, readOnly: false };
const ACTIONS_ACTOR = { id: -2, login: 'gitea-actions', isAdmin: false, scopes: null, actionsTask: GRANT };

describe(AuthService.name, () => {
  let asked: string[];
  let sut: AuthService;
  let actionsDown: ContractError | null;

  beforeEach(() => {
    asked = [];
    actionsDown = null;
    const recent = new Date();
    // Only the calls token authentication makes exist: anything else fails the test with a TypeError.
    const tokens = {
      findByHash: async (hash: string) =>
        hash === hashToken(ACCESS_TOKEN) ? ({ id: 1, userId: 3, scopes: 'read:repository', lastUsedAt: recent } as AccessTokenEntity) : null,
    } as unknown as TokensRepository;
    const users = {
      findById: async (id: number) => (id === 3 ? ({ id: 3, name: 'alice', isAdmin: false, isActive: true, prohibitLogin: false, mustChangePassword: false } as UserEntity) : null),
    } as unknown as UsersRepository;
    const rpc = {
      call: async (pattern: string, req: { body: { token: string } }) => {
        expect(pattern).toBe(RunnerProtocolPatterns.taskByToken);
        asked.push(req.body.token);
        if (actionsDown) throw actionsDown;
        return req.body.token === TASK_TOKEN ? GRANT : null;
      },
    } as unknown as RpcClient;
    sut = new AuthService({} as Database, users, tokens, { rootUrl: 'http://forge.test/' } as PlatformConfig, rpc);
  });

  it("should sign a running task's token in as the Actions user with its grant, in a token header", async () => {
    expect(await sut.authenticate({ credentials: { kind: 'token', token: TASK_TOKEN } })).toEqual({ actor: ACTIONS_ACTOR, basic: false });
  });

  it('should take the task token as a Basic password with any user name, or as the user name', async () => {
    expect(await sut.authenticate({ credentials: { kind: 'basic', username: 'x-access-token', password: TASK_TOKEN } })).toEqual({ actor: ACTIONS_ACTOR, basic: true });
    expect(await sut.authenticate({ credentials: { kind: 'basic', username: TASK_TOKEN, password: 'x-oauth-basic' } })).toEqual({ actor: ACTIONS_ACTOR, basic: true });
  });

  it('should try a personal access token first, without asking actions-service', async () => {
    const result = await sut.authenticate({ credentials: { kind: 'token', token: ACCESS_TOKEN } });
    expect(result.actor).toEqual({ id: 3, login: 'alice', isAdmin: false, scopes: ['read:repository'] });
    expect(asked).toEqual([]);
  });

  it('should refuse a token that is neither, such as a finished task\'s', async () => {
    const other = 'c'.repeat(40);
    await expect(sut.authenticate({ credentials: { kind: 'token', token: other } })).rejects.toThrow(ContractError);
    await expect(sut.authenticate({ credentials: { kind: 'basic', username: other, password: '' } })).rejects.toThrow('invalid username, password or token');
    expect(asked).toEqual([other, other]);
  });

  it('should never ask actions-service about what cannot be a task token', async () => {
    await expect(sut.authenticate({ credentials: { kind: 'token', token: 'not-a-token' } })).rejects.toThrow(ContractError);
    expect(asked).toEqual([]);
  });

  it('should refuse sudo to the Actions user', async () => {
    await expect(sut.authenticate({ credentials: { kind: 'token', token: TASK_TOKEN }, sudo: 'alice' })).rejects.toThrow('Only administrators allowed to sudo.');
  });

  it('should refuse an unknown token (401) rather than fail (5xx) while actions-service does not answer', async () => {
    for (const failure of [new ContractError('unavailable', 'the service transport is unavailable'), new ContractError('deadline_exceeded', 'no reply')]) {
      actionsDown = failure;
      await expect(sut.authenticate({ credentials: { kind: 'token', token: 'd'.repeat(40) } })).rejects.toMatchObject({ code: 'unauthenticated' });
    }
    // Other failures are not hidden.
    actionsDown = new ContractError('internal', 'boom');
    await expect(sut.authenticate({ credentials: { kind: 'token', token: 'd'.repeat(40) } })).rejects.toMatchObject({ code: 'internal' });
  });
});
