import { Injectable } from '@nestjs/common';
import {
  ActionsUser,
  ContractError,
  isPublicOnly,
  notFound,
  RunnerProtocolPatterns,
  type ActionsTaskGrant,
  type Actor,
  type AuthenticateRequest,
  type AuthResult,
} from '@gitforge/contracts';
import { createLogger, Database, PlatformConfig, RpcClient } from '@gitforge/platform';
import { hashToken, looksLikeToken } from '../tokens/tokens.service.js';
import { TokensRepository } from '../tokens/tokens.repository.js';
import { verifyPassword } from '../users/password.js';
import type { AccessTokenEntity } from '../tokens/access-token.entity.js';
import type { UserEntity } from '../users/user.entity.js';
import { UsersRepository } from '../users/users.repository.js';

const INVALID = 'invalid username, password or token';
/** last_used_at / last_login are written at most this often per token or user. */
const TOUCH_INTERVAL_MS = 60_000;
/** How long a token lookup waits for actions-service (a running task's token) before refusing it. */
const TASK_LOOKUP_TIMEOUT_MS = 3_000;

const log = createLogger('auth');

/**
 * Verifies credentials as Gitea does: a token in `Authorization: token|Bearer`, or HTTP Basic
 * with a password, with a token as password (any username), or with a token as username
 * (empty or `x-oauth-basic` password). The token is tried before the password: first as a
 * personal access token, then as the token of a running Actions task (actions-service owns
 * those), which signs in as Gitea's Actions user with the task's grant.
 */
@Injectable()
export class AuthService {
  constructor(
    private readonly db: Database,
    private readonly users: UsersRepository,
    private readonly tokens: TokensRepository,
    private readonly config: PlatformConfig,
    private readonly rpc: RpcClient,
  ) {}

  async authenticate(request: AuthenticateRequest): Promise<AuthResult> {
    const c = request.credentials;
    let result: AuthResult;
    if (c.kind === 'token') {
      const actor = await this.byToken(c.token);
      if (!actor) throw new ContractError('unauthenticated', INVALID);
      result = { actor, basic: false };
    } else {
      // Gitea's Basic: the username is the token when the password is empty or `x-oauth-basic`.
      const usernameIsToken = c.password === '' || c.password === 'x-oauth-basic';
      const candidate = usernameIsToken ? c.username : c.password;
      const actor = looksLikeToken(candidate) ? await this.byToken(candidate) : null;
      if (!actor && usernameIsToken && looksLikeToken(c.username)) throw new ContractError('unauthenticated', INVALID);
      result = { actor: actor ?? (await this.byPassword(c.username, c.password)), basic: true };
    }
    if (request.sudo) result = { ...result, actor: await this.sudo(result.actor, request.sudo) };
    if (isPublicOnly(result.actor.scopes)) {
      const user = await this.users.findById(result.actor.id);
      if (user && user.visibility !== 'public') result = { ...result, hiddenPublicOnly: true };
    }
    return result;
  }

  /** A personal access token's user, else a running task's Actions user; null when the token is neither. */
  private async byToken(token: string): Promise<Actor | null> {
    const row = await this.tokens.findByHash(hashToken(token));
    if (row) return this.byAccessToken(row);
    const grant = looksLikeToken(token) ? await this.taskGrant(token) : null;
    // No scopes: Gitea checks no token scope for the Actions user; its grant is the limit.
    return grant ? { id: ActionsUser.id, login: ActionsUser.login, isAdmin: false, scopes: null, actionsTask: grant } : null;
  }

  /**
   * The grant of a running task's token. While actions-service cannot answer, no token is a
   * task's: the caller gets Gitea's 401 for a token it does not know (a mistyped or revoked
   * personal token above all), not a 5xx, and a runner's job retries.
   */
  private async taskGrant(token: string): Promise<ActionsTaskGrant | null> {
    try {
      return await this.rpc.call<ActionsTaskGrant | null, Record<string, string>, { token: string }>(
        RunnerProtocolPatterns.taskByToken,
        { actor: null, body: { token } },
        { timeoutMs: TASK_LOOKUP_TIMEOUT_MS },
      );
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code !== 'unavailable' && code !== 'deadline_exceeded') throw err;
      log.warn({ code }, 'actions-service did not answer a task token lookup; the token is refused');
      return null;
    }
  }

  private async byAccessToken(row: AccessTokenEntity): Promise<Actor> {
    const user = await this.users.findById(row.userId);
    if (!user) throw new ContractError('unauthenticated', INVALID);
    this.checkCanSignIn(user);
    const now = new Date();
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) await this.tokens.touch(row.id, now);
    return { id: user.id, login: user.name, isAdmin: user.isAdmin, scopes: row.scopes ? row.scopes.split(',') : [] };
  }

  private async byPassword(login: string, password: string): Promise<Actor> {
    const user = login.includes('@') ? await this.users.findIndividualByEmail(login) : await this.users.findByName(login);
    // Gitea's UserSignIn refuses a prohibited user outright, which the API reports as bad credentials.
    if (!user || user.isOrganization || user.prohibitLogin || !(await verifyPassword(password, user.passwordHash))) {
      throw new ContractError('unauthenticated', INVALID);
    }
    this.checkCanSignIn(user);
    const now = new Date();
    if (!user.lastLoginAt || now.getTime() - user.lastLoginAt.getTime() > TOUCH_INTERVAL_MS) {
      await this.db.transaction((m) => this.users.update(m, user.id, { lastLoginAt: now }));
    }
    return { id: user.id, login: user.name, isAdmin: user.isAdmin, scopes: null };
  }

  /**
   * Gitea's verifyAuthWithOptions for a signed-in user. Without e-mail confirmation (gitforge sends
   * none) an inactive account gets the same answer as a prohibited one.
   */
  private checkCanSignIn(user: UserEntity): void {
    // Gitea's verifyAuthWithOptions writes these with ctx.JSON: `{message}` without `url`.
    if (!user.isActive || user.prohibitLogin) {
      throw ContractError.bare('permission_denied', 'This account is prohibited from signing in, please contact your site administrator.');
    }
    if (user.mustChangePassword) {
      throw ContractError.bare('permission_denied', `You must change your password. Change it at: ${this.config.rootUrl}user/change_password`);
    }
  }

  private async sudo(actor: Actor, username: string): Promise<Actor> {
    if (!actor.isAdmin) throw ContractError.bare('permission_denied', 'Only administrators allowed to sudo.');
    const user = await this.users.findByName(username);
    if (!user || user.isOrganization) throw notFound(`user redirect does not exist [name: ${username}]`);
    return { id: user.id, login: user.name, isAdmin: user.isAdmin, scopes: actor.scopes };
  }
}
