import { Agent } from 'node:http';
import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AttachmentHttp, GitHttp, type Actor } from '@gitforge/contracts';
import { internalHttpUrl, internalSecret } from '@gitforge/platform';
import { GatewayConfig } from '../gateway.config.js';
import { internalHeaders, searchOf, streamThrough } from './internal-stream.js';

/** Request headers a service needs for an upload or a download; nothing else crosses. */
const FORWARDED = ['content-type', 'content-length', 'if-none-match'];

/** Which service's listener a file route goes to: issue-service (issue and comment attachments) or repo-service (release assets, archives, package registries). */
export type FileService = 'issue' | 'repo';

/**
 * File bytes at the edge. Uploads and downloads are streamed to the owning service's own
 * listener (issue attachments to issue-service's; release assets and archives to repo-service's,
 * beside smart HTTP) rather than parsed here and written through the BlobStore: the gateway keeps
 * no storage and no rules, the service refuses a caller (401, 403, 404, 423) before a byte is
 * stored, checks type and size while the file streams, and writes the file and its row as one
 * step. The message transport never carries file bytes.
 */
@Injectable()
export class AttachmentProxy implements OnModuleInit, OnApplicationShutdown {
  private readonly agent = new Agent({ keepAlive: false });
  private secret = '';

  constructor(private readonly config: GatewayConfig) {}

  onModuleInit(): void {
    this.secret = internalSecret(this.config);
  }

  /**
   * After the HTTP server has closed, so clones, pushes and uploads in flight at shutdown finish
   * first (Nest runs module-destroy hooks before it closes the server, which would cut them).
   */
  onApplicationShutdown(): void {
    this.agent.destroy();
  }

  /** Streams the request to `path` on the service's listener (query string kept) and its answer back. */
  forward(request: FastifyRequest, reply: FastifyReply, actor: Actor | null, path: string, service: FileService = 'issue', options: { verbatimPath?: boolean } = {}): void {
    const base =
      service === 'repo'
        ? internalHttpUrl(GitHttp.listener, this.config, this.config.GITFORGE_REPO_GIT_URL)
        : internalHttpUrl(AttachmentHttp.listener, this.config, this.config.GITFORGE_ISSUE_HTTP_URL);
    streamThrough(request, reply, {
      url: `${base}${path}${searchOf(request)}`,
      headers: internalHeaders(request, this.secret, actor, path, FORWARDED),
      agent: this.agent,
      service: `${service}-service`,
      badGateway: { contentType: 'application/json; charset=utf-8', body: JSON.stringify({ message: 'Bad Gateway', url: `${this.config.rootUrl}api/swagger` }) },
      verbatimPath: options.verbatimPath,
    });
  }
}
