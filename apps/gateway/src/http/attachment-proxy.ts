import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AttachmentHttp, GitHttp, type Actor } from '@gitforge/contracts';
import { internalHttpUrl } from '@gitforge/platform';
import { GatewayConfig } from '../gateway.config.js';
import { InternalHop } from './internal-stream.js';

/** Request headers a service needs for an upload or a download (a conditional or partial one too); nothing else crosses. */
const FORWARDED = ['content-type', 'content-length', 'if-match', 'if-unmodified-since', 'if-none-match', 'if-modified-since', 'range', 'if-range'];

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
export class AttachmentProxy extends InternalHop {
  constructor(config: GatewayConfig) {
    super(config);
  }

  /** Streams the request to `path` on the service's listener (query string kept) and its answer back. */
  forward(request: FastifyRequest, reply: FastifyReply, actor: Actor | null, path: string, service: FileService = 'issue', options: { verbatimPath?: boolean } = {}): void {
    const base =
      service === 'repo'
        ? internalHttpUrl(GitHttp.listener, this.config, this.config.GITFORGE_REPO_GIT_URL)
        : internalHttpUrl(AttachmentHttp.listener, this.config, this.config.GITFORGE_ISSUE_HTTP_URL);
    this.hop(request, reply, actor, {
      base,
      path,
      forwarded: FORWARDED,
      service: `${service}-service`,
      badGateway: { contentType: 'application/json; charset=utf-8', body: JSON.stringify({ message: 'Bad Gateway', url: `${this.config.rootUrl}api/swagger` }) },
      verbatimPath: options.verbatimPath,
    });
  }
}
