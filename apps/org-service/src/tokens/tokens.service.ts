import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  ContractError,
  forbidden,
  invalid,
  isKnownScope,
  normalizeScopes,
  notFound,
  pageOf,
  scopesAllow,
  ScopeCategories,
  unprocessable,
  type AccessToken,
  type Actor,
  type CreateAccessTokenOption,
  type ListOptions,
  type Page,
} from '@gitforge/contracts';
import { Database } from '@gitforge/platform';
import type { UserEntity } from '../users/user.entity.js';
import { UsersRepository } from '../users/users.repository.js';
import { toAccessToken } from './token.mapper.js';
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

  /** The user whose tokens are managed: the actor itself, or anyone for a site admin. */
  private async owner(actor: Actor | null, username: string): Promise<UserEntity> {
    if (!actor) throw new ContractError('unauthenticated', 'auth required');
    const user = await this.users.findByName(username);
    if (!user || user.isOrganization) throw notFound(`user redirect does not exist [name: ${username}]`);
    if (user.id !== actor.id && !actor.isAdmin) throw forbidden('You do not have permission to access this resource');
    return user;
  }

  async create(actor: Actor | null, username: string, body: CreateAccessTokenOption): Promise<AccessToken> {
    const user = await this.owner(actor, username);
    const requested = body.scopes ?? [];
    const scopes = normalizeScopes(requested);
    if (scopes.length === 0) throw invalid('access token must have a scope');
    if (!scopes.every(isKnownScope)) throw invalid('invalid access token scope provided');
    // A token can only mint tokens it could itself use.
    if (actor!.scopes !== null && !covers(actor!.scopes, scopes)) {
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
    return toAccessToken((await this.tokens.findById(user.id, id))!, secret);
  }

  async list(actor: Actor | null, username: string, options: ListOptions): Promise<Page<AccessToken>> {
    const user = await this.owner(actor, username);
    const [rows, total] = await this.tokens.list(user.id, options);
    return pageOf(
      rows.map((t) => toAccessToken(t)),
      total,
      options,
    );
  }

  /** `token` is the id or the name of the token. */
  async delete(actor: Actor | null, username: string, token: string): Promise<void> {
    const user = await this.owner(actor, username);
    let target = /^\d+$/.test(token) ? await this.tokens.findById(user.id, Number(token)) : null;
    if (!target) {
      const byName = await this.tokens.findAllByName(user.id, token);
      if (byName.length > 1) throw unprocessable('multiple matches for token name');
      target = byName[0] ?? null;
    }
    if (!target) throw notFound(`access token does not exist [id: 0]`);
    const id = target.id;
    await this.db.transaction((m) => this.tokens.delete(m, id));
  }
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
