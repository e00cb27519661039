import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  ContractError,
  forbidden,
  invalid,
  isKnownScope,
  normalizeScopes,
  splitScopes,
  notFound,
  pageOf,
  scopesAllow,
  ScopeCategories,
  unprocessable,
  type AccessToken,
  type Actor,
  type CreateAccessTokenOption,
  type CurrentAccessToken,
  type ListOptions,
  type Page,
  type TokenParams,
  idFrom,
} from '@gitforge/contracts';
import { Database } from '@gitforge/platform';
import { rejectPublicOnlyUser, requireActor } from '../auth/actor.js';
import type { UserEntity } from '../users/user.entity.js';
import { individualVisible } from '../users/visibility.js';
import { UsersRepository } from '../users/users.repository.js';
import type { AccessTokenEntity } from './access-token.entity.js';
import { toAccessToken, toCreatedAccessToken, toCurrentAccessToken } from './token.mapper.js';
import { TokensRepository } from './tokens.repository.js';

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Gitea's personal access tokens: 40 hex characters. */
export const looksLikeToken = (value: string): boolean => /^[0-9a-f]{40}$/i.test(value);

@Injectable()
export class TokensService {
  constructor(
    private readonly db: Database,
    private readonly tokens: TokensRepository,
    private readonly users: UsersRepository,
  ) {}

  /**
   * The user whose tokens are managed, checked in Gitea's order for `/users/{username}/tokens`:
   * the account must exist and be visible (404), public-only tokens stop at non-public users (403),
   * then reqSelfOrAdmin (403) and reqBasicOrRevProxyAuth (401): tokens are only managed over Basic.
   */
  private async owner(actor: Actor | null, params: TokenParams): Promise<{ user: UserEntity; actor: Actor }> {
    const user = await this.users.findByName(params.username);
    if (!user || user.isOrganization) throw notFound(`user redirect does not exist [name: ${params.username}]`);
    if (actor) rejectPublicOnlyUser(actor, user);
    if (!individualVisible(user, actor)) throw notFound(`user redirect does not exist [name: ${params.username}]`);
    if (!actor || (user.id !== actor.id && !actor.isAdmin)) throw forbidden('doer should be the site admin or be same as the contextUser');
    if (!params.basicAuth) throw new ContractError('unauthenticated', 'auth required');
    return { user, actor };
  }

  async create(actor: Actor | null, params: TokenParams, body: CreateAccessTokenOption): Promise<AccessToken> {
    const { user, actor: a } = await this.owner(actor, params);
    const requested = splitScopes(body.scopes ?? []);
    const unknown = requested.find((s) => !isKnownScope(s));
    if (unknown !== undefined) throw invalid(`invalid access token scope provided: invalid access token scope: ${unknown}`);
    const scopes = normalizeScopes(requested);
    if (scopes.length === 0) throw invalid('access token must have a scope');
    // A token can only mint tokens it could itself use.
    if (a.scopes !== null && !covers(a.scopes, scopes)) {
      throw forbidden('cannot create access token with scopes that exceed the current token scope');
    }
    const secret = randomBytes(20).toString('hex');
    const id = await this.db.transaction(async (m) => {
      if (await this.tokens.findByName(user.id, body.name, m)) throw invalid('access token name has been used already');
      const token = await this.tokens.insert(m, {
        userId: user.id,
        name: body.name,
        tokenHash: hashToken(secret),
        tokenLastEight: secret.slice(-8),
        scopes: scopes.join(','),
        createdAt: new Date(),
        lastUsedAt: null,
      });
      return token.id;
    });
    return toCreatedAccessToken((await this.tokens.findById(user.id, id))!, secret);
  }

  async list(actor: Actor | null, params: TokenParams, options: ListOptions): Promise<Page<AccessToken>> {
    const { user } = await this.owner(actor, params);
    const [rows, total] = await this.tokens.list(user.id, options);
    return pageOf(
      rows.map((t) => toAccessToken(t)),
      total,
      options,
    );
  }

  /** `GET /token`: the token the request authenticated with, and its user. */
  async current(actor: Actor | null, secret: string | undefined): Promise<CurrentAccessToken> {
    requireActor(actor);
    const row = await requireHeaderToken(this.tokens, secret);
    const user = await this.users.findById(row.userId);
    if (!user) throw notFound('access token does not exist');
    return toCurrentAccessToken(row, user);
  }

  /** `DELETE /token`: a token deletes itself (a token already gone is not an error). */
  async deleteCurrent(actor: Actor | null, secret: string | undefined): Promise<void> {
    requireActor(actor);
    const row = await requireHeaderToken(this.tokens, secret);
    await this.db.transaction((m) => this.tokens.delete(m, row.id));
  }

  /**
   * `token` is the id of the token, or when it reads as no id, its name (Gitea's
   * DeleteAccessToken): an unknown id is 'access token not found', an unknown name 'not found'.
   */
  async delete(actor: Actor | null, params: TokenParams & { token: string }): Promise<void> {
    const { user } = await this.owner(actor, params);
    const token = params.token;
    const id = idFrom(token);
    let target: AccessTokenEntity | null;
    if (id) {
      target = await this.tokens.findById(user.id, id);
      if (!target) throw notFound('access token not found');
    } else {
      const byName = await this.tokens.findAllByName(user.id, token);
      if (byName.length > 1) throw unprocessable(`multiple matches for token name '${token}'`);
      target = byName[0] ?? null;
      if (!target) throw notFound();
    }
    const found = target.id;
    await this.db.transaction((m) => this.tokens.delete(m, found));
  }
}

/** Gitea's getToken for `/token`: the token of the Authorization header, 404 without one. */
async function requireHeaderToken(tokens: TokensRepository, secret: string | undefined): Promise<AccessTokenEntity> {
  if (!secret) throw notFound('invalid access token');
  const row = await tokens.findByHash(hashToken(secret));
  if (!row) throw notFound('access token does not exist');
  return row;
}

function covers(have: string[], want: string[]): boolean {
  if (have.includes('all')) return true;
  return want.every((scope) => {
    if (scope === 'public-only') return true;
    if (scope === 'all') return ScopeCategories.every((c) => scopesAllow(have, c, true));
    const [level, category] = scope.split(':') as [string, (typeof ScopeCategories)[number]];
    return scopesAllow(have, category, level === 'write');
  });
}
