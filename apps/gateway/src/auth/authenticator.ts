import { hash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthPatterns, ContractError, type AuthenticateRequest, type AuthResult } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { GatewayConfig } from '../gateway.config.js';
import { extractCredentials, sudoTarget } from './credentials.js';

const MAX_ENTRIES = 10_000;

/**
 * Turns a request's credentials into an AuthResult by asking org-service, remembering verified
 * credentials for GITFORGE_AUTH_CACHE_TTL_MS under a SHA-256 of them (never the secret itself).
 * Failures are not cached. Requests that bring the same credentials while they are being verified
 * wait for that one verification: a password is checked with a deliberately slow hash, and 16
 * clients of one account whose entry had just expired started 16 of them at once (a third of a
 * core, every few seconds, in `npm run bench writes`).
 */
@Injectable()
export class Authenticator {
  private readonly cache = new Map<string, { result: AuthResult; expires: number }>();
  private readonly verifying = new Map<string, Promise<AuthResult>>();

  constructor(
    private readonly rpc: RpcClient,
    private readonly config: GatewayConfig,
  ) {}

  /** Null for an anonymous request; throws unauthenticated/permission_denied for bad credentials. */
  async authenticate(request: FastifyRequest, reply?: FastifyReply): Promise<AuthResult | null> {
    const extracted = extractCredentials(request);
    if (!extracted) {
      // Gitea's sudo middleware refuses anyone who is not a signed-in site admin, anonymous callers included.
      if (sudoTarget(request)) throw ContractError.bare('permission_denied', 'Only administrators allowed to sudo.');
      return null;
    }
    // A NUL character is in no user name, password or token (and no database could compare it).
    if (Object.values(extracted.credentials).some((v) => typeof v === 'string' && v.includes('\u0000'))) {
      throw new ContractError('unauthenticated', 'invalid username, password or token');
    }
    if (extracted.fromQuery) reply?.header('X-Gitea-Warning', 'token and access_token API authentication is deprecated');
    const body: AuthenticateRequest = { credentials: extracted.credentials, sudo: sudoTarget(request) };
    // One-shot: about 0.8 µs against 2 µs for a Hash object, on every authenticated request.
    const key = hash('sha256', JSON.stringify(body), 'hex');
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && hit.expires > now) return hit.result;
    let pending = this.verifying.get(key);
    if (!pending) {
      pending = this.verify(key, body).finally(() => this.verifying.delete(key));
      this.verifying.set(key, pending);
    }
    return pending;
  }

  private async verify(key: string, body: AuthenticateRequest): Promise<AuthResult> {
    const result = await this.rpc.call<AuthResult, Record<string, string>, AuthenticateRequest>(AuthPatterns.authenticate, {
      actor: null,
      body,
    });
    if (this.config.GITFORGE_AUTH_CACHE_TTL_MS > 0) {
      const now = Date.now();
      if (this.cache.size >= MAX_ENTRIES) {
        for (const [k, v] of this.cache) if (v.expires <= now || this.cache.size >= MAX_ENTRIES) this.cache.delete(k);
      }
      this.cache.set(key, { result, expires: now + this.config.GITFORGE_AUTH_CACHE_TTL_MS });
    }
    return result;
  }
}
