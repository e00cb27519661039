import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AttachmentHttp, ContractError, notFound, type Actor } from '@gitforge/contracts';
import {
  answerFileRequestError,
  closeInternalHttp,
  contentDisposition,
  createLogger,
  decodePathSegment,
  internalSecret,
  isInlineType,
  listenInternalHttp,
  peek,
  receiveFile,
  requestHeader,
  sendBlob,
  SIGNED_ACTOR_HEADER,
  signedPublicUrl,
  sniffContentType,
  verifyActor,
  createInternalServer,
} from '@gitforge/platform';
import { IssueServiceConfig } from '../issue.config.js';
import { AttachmentsService, type AttachmentScope } from './attachments.service.js';
import { SNIFF_BYTES } from './upload-policy.js';

const log = createLogger('attachment-http');

const ISSUE_ASSETS = /^\/repos\/([^/]+)\/([^/]+)\/issues\/([^/]+)\/assets$/;
const COMMENT_ASSETS = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/([^/]+)\/assets$/;
const DOWNLOAD = /^\/attachments\/([^/]+)$/;

/**
 * issue-service's own HTTP listener for attachment bytes: uploads (multipart) and downloads do
 * not cross the message transport. The gateway is its only client; it has authenticated the
 * caller and signed it into a header bound to the request line.
 */
@Injectable()
export class AttachmentHttpServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: Server | undefined;
  private readonly secret: string;

  constructor(
    private readonly config: IssueServiceConfig,
    private readonly attachments: AttachmentsService,
  ) {
    this.secret = internalSecret(config);
  }

  async onApplicationBootstrap(): Promise<void> {
    const server = createInternalServer((req, res) => void this.handle(req, res));
    // Large uploads take long; a client that stops sending is cut off by the gateway going away.
    server.requestTimeout = 0;
    server.headersTimeout = 60_000;
    this.server = server;
    const url = await listenInternalHttp(AttachmentHttp.listener, server, this.config, {
      host: this.config.GITFORGE_ISSUE_HTTP_HOST,
      port: this.config.GITFORGE_ISSUE_HTTP_PORT,
    });
    log.info({ url }, 'attachment listener ready');
  }

  onApplicationShutdown(): Promise<void> {
    return closeInternalHttp(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.route(req, res);
    } catch (err) {
      answerFileRequestError(req, res, err, this.config.rootUrl, log, signedPublicUrl(this.secret, req));
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://issue-service');
    const verified = verifyActor(this.secret, requestHeader(req, SIGNED_ACTOR_HEADER), `${req.method} ${url.pathname}`);
    if (!verified.ok) throw new ContractError('permission_denied', 'invalid internal signature');
    const name = url.searchParams.get('name') ?? '';
    const toIssue = req.method === 'POST' ? ISSUE_ASSETS.exec(url.pathname) : null;
    if (toIssue) {
      const [owner, repo, index] = toIssue.slice(1).map(decodePathSegment);
      if (!owner || !repo || !index) throw notFound();
      return this.upload(req, res, verified.actor, await this.attachments.uploadTargetForIssue(verified.actor, owner, repo, index), name);
    }
    const toComment = req.method === 'POST' ? COMMENT_ASSETS.exec(url.pathname) : null;
    if (toComment) {
      const [owner, repo, id] = toComment.slice(1).map(decodePathSegment);
      if (!owner || !repo || !id) throw notFound();
      return this.upload(req, res, verified.actor, await this.attachments.uploadTargetForComment(verified.actor, owner, repo, id), name);
    }
    const download = DOWNLOAD.exec(url.pathname);
    if (download && (req.method === 'GET' || req.method === 'HEAD')) return this.download(req, res, verified.actor, decodePathSegment(download[1]!) ?? '');
    throw notFound();
  }

  /**
   * `POST …/issues/{index}/assets` and `POST …/issues/comments/{id}/assets` (201): the caller was
   * checked (the scope built) before a byte of the body is read.
   */
  private async upload(req: IncomingMessage, res: ServerResponse, actor: Actor | null, scope: AttachmentScope, name: string): Promise<void> {
    const attachment = await receiveFile(req, (file, filename) => this.attachments.upload(scope, actor!, file, name || filename));
    res.writeHead(201, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(attachment));
  }

  /**
   * `GET /attachments/{uuid}`, as Gitea's ServeAttachment: the sniffed type, inline for what a
   * browser shows safely, the uuid as ETag, ranges and 304 as Go's http.ServeContent answers them.
   */
  private async download(req: IncomingMessage, res: ServerResponse, actor: Actor | null, uuid: string): Promise<void> {
    const { attachment, content, range } = await this.attachments.download(actor, uuid);
    const { head, all } = await peek(content, SNIFF_BYTES);
    const type = sniffContentType(head);
    try {
      await sendBlob(req, res, {
        size: attachment.size,
        lastModified: attachment.createdAt,
        etag: `"${attachment.uuid}"`,
        headers: {
          'Cache-Control': 'private, max-age=0, must-revalidate',
          'Content-Type': type,
          'Content-Disposition': contentDisposition(isInlineType(type) ? 'inline' : 'attachment', attachment.name),
          'Access-Control-Expose-Headers': 'Content-Disposition',
          'X-Content-Type-Options': 'nosniff',
        },
        // The whole file is open already (its first bytes gave the type); a range opens its own.
        open: (bytes) => (bytes ? range(bytes) : Promise.resolve(all)),
      });
    } finally {
      // Not sent (304, a range, HEAD): closed.
      all.destroy();
    }
  }
}
