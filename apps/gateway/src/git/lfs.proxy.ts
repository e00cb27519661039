import { Agent } from 'node:http';
import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ContractError, GitHttp, LfsMediaType, type Actor } from '@gitforge/contracts';
import { internalHttpUrl, internalSecret } from '@gitforge/platform';
import { Authenticator } from '../auth/authenticator.js';
import { GatewayConfig } from '../gateway.config.js';
import { internalHeaders, searchOf, streamThrough } from '../http/internal-stream.js';

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
export class LfsProxy implements OnModuleInit, OnApplicationShutdown {
  private readonly agent = new Agent({ keepAlive: false });
  private secret = '';

  constructor(
    private readonly adapter: HttpAdapterHost,
    private readonly authenticator: Authenticator,
    private readonly config: GatewayConfig,
  ) {}

  onModuleInit(): void {
    this.secret = internalSecret(this.config);
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

  /**
   * After the HTTP server has closed, so object transfers in flight at shutdown finish first
   * (Nest runs module-destroy hooks before it closes the server, which would cut them with a 502).
   */
  onApplicationShutdown(): void {
    this.agent.destroy();
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
        const status =
          err instanceof ContractError && err.code === 'permission_denied'
            ? 403
            : err instanceof ContractError && err.code === 'unauthenticated'
              ? 401
              : 500;
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
    const headers = internalHeaders(request, this.secret, actor, path, FORWARDED);
    // An Actions task's token goes along too: repo-service hands it back for the transfers (see LfsHttpHandler.caller).
    if (lfsToken || actor?.actionsTask) headers.authorization = authorization;
    // Not `Connection: close` (what a non-pooling agent sends): repo-service may refuse an upload
    // before reading it (credentials, size), and a connection it then closed on the unread body
    // would reset before its answer arrived. The agent still uses the connection for this request only.
    headers.connection = 'keep-alive';
    streamThrough(request, reply, {
      url: `${internalHttpUrl(GitHttp.listener, this.config, this.config.GITFORGE_REPO_GIT_URL)}${path}${searchOf(request)}`,
      headers,
      agent: this.agent,
      service: 'repo-service',
      badGateway: { contentType: LfsMediaType, body: JSON.stringify({ message: 'Bad Gateway' }) },
    });
  }
}
