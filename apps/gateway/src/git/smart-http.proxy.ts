import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GitHttp, type Actor } from '@gitforge/contracts';
import { drainRequest, internalHttpUrl } from '@gitforge/platform';
import { Authenticator } from '../auth/authenticator.js';
import { GatewayConfig } from '../gateway.config.js';
import { authFailureStatus, InternalHop } from '../http/internal-stream.js';

const GIT_TYPES = ['application/x-git-upload-pack-request', 'application/x-git-receive-pack-request'];
/** Request headers git sends that repo-service needs; nothing else crosses. */
const FORWARDED = ['content-type', 'content-encoding', 'content-length', 'git-protocol', 'user-agent', 'accept'];
const CHALLENGE = { 'WWW-Authenticate': GitHttp.challenge };

type GitRoute = 'info/refs' | 'git-upload-pack' | 'git-receive-pack';

/**
 * Smart HTTP at the edge: `/{owner}/{repo}[.git]/info/refs`, `…/git-upload-pack` and
 * `…/git-receive-pack`, as Gitea serves them. The gateway authenticates the credentials git
 * sends, signs the caller into a header, and streams the request and the answer between git
 * and repo-service's own listener with backpressure: no pack is ever held in memory, and a
 * client that goes away takes the upstream request (and the git process behind it) with it.
 */
@Injectable()
export class SmartHttpProxy extends InternalHop {
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
    // The body stays unread here: the handler streams `request.raw` to repo-service.
    fastify.addContentTypeParser(GIT_TYPES, (_request, _payload, done) => done(null, undefined));
    const route = (method: 'GET' | 'POST', tail: GitRoute): void => {
      fastify.route({
        method,
        url: `/:owner/:repo/${tail}`,
        // Gitea's serviceRPC answers a POST of any other content type with a bare 400; checked
        // before Fastify would try to parse the body as something else.
        onRequest: (request, reply, done) => {
          if (method === 'POST' && request.headers['content-type'] !== `application/x-${tail}-request`) void reply.code(400).send();
          else done();
        },
        handler: (request, reply) => this.proxy(request, reply, tail),
      });
    };
    route('GET', 'info/refs');
    route('POST', 'git-upload-pack');
    route('POST', 'git-receive-pack');
  }

  private async proxy(request: FastifyRequest, reply: FastifyReply, tail: GitRoute): Promise<void> {
    const { owner, repo } = request.params as { owner: string; repo: string };
    let actor: Actor | null;
    try {
      actor = (await this.authenticator.authenticate(request))?.actor ?? null;
    } catch (err) {
      // Bad credentials: a 401 with the challenge makes git drop them from its credential helper.
      const status = authFailureStatus(err);
      void reply
        .code(status)
        .headers(status === 401 ? CHALLENGE : {})
        .type('text/plain; charset=utf-8')
        .send(`${status === 500 ? 'Internal Server Error' : (err as Error).message}\n`);
      return;
    }

    if (Number(request.headers['content-length'] ?? 0) > this.config.GITFORGE_GIT_MAX_BODY_BYTES) {
      reply.raw.once('finish', () => drainRequest(request.raw));
      void reply.code(413).type('text/plain; charset=utf-8').send('Request Entity Too Large\n');
      return;
    }
    const path = `/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/${tail}`;
    this.hop(request, reply, actor, {
      base: internalHttpUrl(GitHttp.listener, this.config, this.config.GITFORGE_REPO_GIT_URL),
      path,
      forwarded: FORWARDED,
      service: 'repo-service',
      badGateway: { contentType: 'text/plain; charset=utf-8', body: 'Bad Gateway\n' },
    });
  }
}
