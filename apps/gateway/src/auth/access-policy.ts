import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { Actor, RepoRight, ScopeCategory } from '@gitforge/contracts';

/** Who may call a route, as Gitea's router middlewares say it. */
export interface AccessPolicy {
  /** Gitea's reqToken: any signed-in caller, else 401 "token is required". */
  signIn?: boolean;
  /** Gitea's reqSiteAdmin: 403 "user should be the site admin". */
  admin?: boolean;
  /** Gitea's rejectPublicOnly: a token limited to public resources gets 403 (the caller's private data: hooks, keys, times, notifications, actions). */
  rejectPublicOnly?: boolean;
  /** Token scope categories (all of them are needed; a controller's and a route's add up); GET/HEAD need read, other methods write. */
  scope?: ScopeCategory | ScopeCategory[];
  /**
   * The right Gitea's route asks for before it binds the body. Only a refused body consults it, so
   * that a caller without the right gets its 403 (or the archive's 423) before the 422, as in
   * Gitea; the services check the same right on every request.
   */
  repoRight?: RepoRight;
  /**
   * Likewise for `/orgs/{org}` routes: Gitea's reqOrgOwnership before the body (403 "Must be an
   * organization owner"), after reqOrgMembership (`members`: 403 "Must be an organization
   * member") or reqOrgVisible (`visible`: 404) where its route group has one.
   */
  orgOwner?: true | 'members' | 'visible';
  /** Likewise for `/users/{username}` routes: Gitea's reqSelfOrAdmin, then reqBasicOrRevProxyAuth, before the body. */
  selfOrAdmin?: boolean;
  /** A POST that only reads, which Gitea binds without reqToken (`file-contents`): anonymous callers get the 422 too. */
  readOnly?: boolean;
}

export const ACCESS_POLICY = 'gitforge:access-policy';

/** Merged with the controller's policy: the method's keys win, except `scope`, where both apply. */
export const Access = (policy: AccessPolicy): MethodDecorator & ClassDecorator => SetMetadata(ACCESS_POLICY, policy);

/** The route's policy, the controller's and the method's merged, with the scopes of both. */
export function routePolicy(reflector: Reflector, context: ExecutionContext): { policy: AccessPolicy; scopes: ScopeCategory[] } {
  const onClass = reflector.get<AccessPolicy>(ACCESS_POLICY, context.getClass()) ?? {};
  const onHandler = reflector.get<AccessPolicy>(ACCESS_POLICY, context.getHandler()) ?? {};
  // Like Gitea's nested route groups, a scope on the controller and one on the route are both required.
  const scopes = [...new Set([onClass.scope, onHandler.scope].flat().filter((s): s is ScopeCategory => s !== undefined))];
  return { policy: { ...onClass, ...onHandler }, scopes };
}

export interface AuthState {
  actor: Actor | null;
  basic: boolean;
  /** The route's policy, for the refusals that come before a bad body's (InvalidInputFilter). */
  policy: AccessPolicy;
}

declare module 'fastify' {
  interface FastifyRequest {
    gitforge?: AuthState;
  }
}

/** The authenticated actor of the request, or null. */
export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor | null => {
  return ctx.switchToHttp().getRequest<FastifyRequest>().gitforge?.actor ?? null;
});

/** Whether the request authenticated with HTTP Basic (routes that decide this after a lookup). */
export const BasicAuth = createParamDecorator((_: unknown, ctx: ExecutionContext): boolean => {
  return ctx.switchToHttp().getRequest<FastifyRequest>().gitforge?.basic ?? false;
});
