import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GitHttp, LfsMediaType, type Actor } from '@gitforge/contracts';
import { internalHttpUrl } from '@gitforge/platform';
import { Authenticator } from '../auth/authenticator.js';
import { GatewayConfig } from '../gateway.config.js';
import { authFailureStatus, InternalHop } from '../http/internal-stream.js';

/** Request headers the LFS API needs; the Authorization header only when it holds an LFS token (checked by repo-service, which signed it). */
const FORWARDED = ['content-type', 'content-length', 'accept', 'range'];
const LFS_CHALLENGE = {
  'LFS-Authenticate': 'Basic realm="gitea-lfs"',
  'WWW-Authenticate': 'Basic realm="gitea-lfs"',
};

/**
 * Git LFS at the edge (`/{owner}/{repo}.git/info/lfs/…`: batch, object transfers, verify, locks),
 * as Gitea serves it. Like smart HTTP, the gateway authenticates (Basic, tokens) and streams the
 * request and the answer to repo-service's listener with backpressure: an object never sits in
 * memory here. A token handed out by `git-lfs-authenticate` over SSH goes through unread.
 */
@Injectable()
export class LfsProxy extends InternalHop {
  constructor(
    private readonly adapter: HttpAdapterHost,
    private readonly authenticator: Authenticator,
    config: GatewayConfig,
  ) {
    super(config);
  }

  override onModuleInit(): void {
    super.onModuleInit();
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    // Bodies stay unread here: repo-service parses them (and streams objects into the store).
    fastify.addContentTypeParser(LfsMediaType, (_request, _payload, done) => done(null, undefined));
    fastify.route({
      method: ['GET', 'HEAD', 'POST', 'PUT'],
      url: '/:owner/:repo/info/lfs/*',
      // Streamed before Fastify would parse the body: git-lfs labels an object by its content
      // (`text/plain` for a text file), and a parsed body would never reach repo-service.
      onRequest: async (request, reply) => {
        await this.proxy(request, reply);
        return reply;
      },
      handler: () => undefined,
    });
  }

  private async proxy(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { owner, repo, '*': rest } = request.params as { owner: string; repo: string; '*': string };
    const authorization = request.headers.authorization;
    const lfsToken =
      typeof authorization === 'string' &&
      /^(bearer|token)\s+/i.test(authorization) &&
      authorization.split(/\s+/)[1]!.startsWith(GitHttp.lfsTokenPrefix);
    let actor: Actor | null = null;
    if (!lfsToken) {
      try {
        actor = (await this.authenticator.authenticate(request))?.actor ?? null;
      } catch (err) {
        const status = authFailureStatus(err);
        void reply
          .code(status)
          .headers(status === 401 ? LFS_CHALLENGE : {})
          .type(LfsMediaType)
          .send(
            JSON.stringify({ message: status === 500 ? 'Internal Server Error' : (err as Error).message }),
          );
        return;
      }
    }
    const path = `/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/info/lfs/${rest.split('/').map(encodeURIComponent).join('/')}`;
    this.hop(request, reply, actor, {
      base: internalHttpUrl(GitHttp.listener, this.config, this.config.GITFORGE_REPO_GIT_URL),
      path,
      forwarded: FORWARDED,
      // An Actions task's token goes along too: repo-service hands it back for the transfers (see LfsHttpHandler.caller).
      extraHeaders: lfsToken || actor?.actionsTask ? { authorization } : {},
      service: 'repo-service',
      badGateway: { contentType: LfsMediaType, body: JSON.stringify({ message: 'Bad Gateway' }) },
    });
  }
}
