import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Busboy, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AttachmentHttp, ContractError, invalid, notFound, type Actor } from '@gitforge/contracts';
import {
  contentDisposition,
  closeInternalHttp,
  createLogger,
  drainRequest,
  giteaErrorBody,
  movedLocation,
  HttpStatusOfCode,
  internalSecret,
  isInlineType,
  listenInternalHttp,
  sniffContentType,
  SIGNED_ACTOR_HEADER,
  toErrorPayload,
  verifyActor,
} from '@gitforge/platform';
import { IssueServiceConfig } from '../issue.config.js';
import { AttachmentsService, peek, type AttachmentScope } from './attachments.service.js';
import { SNIFF_BYTES } from './upload-policy.js';

const log = createLogger('attachment-http');

const ISSUE_ASSETS = /^\/repos\/([^/]+)\/([^/]+)\/issues\/([^/]+)\/assets$/;
const COMMENT_ASSETS = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/([^/]+)\/assets$/;
const DOWNLOAD = /^\/attachments\/([^/]+)$/;

const decode = (segment: string): string | null => {
  try {
    return decodeURIComponent(segment);
  } catch (err) {
    if (err instanceof URIError) return null;
    throw err;
  }
};

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
    const server = createServer((req, res) => void this.handle(req, res));
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
      let payload = toErrorPayload(err);
      if (payload.code === 'internal') log.error({ err, url: req.url }, 'attachment request failed');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // An answer before the whole body was read: the rest is dropped, and the connection not reused.
      res.once('finish', () => drainRequest(req));
      if (payload.code === 'moved') {
        // The repository's old name: Gitea's 307, as the gateway answers for every other route
        // (this listener's paths are the API's below /api/v1).
        const location = movedLocation(req.url ?? '/', payload.details);
        if (location) {
          res.writeHead(307, { Location: `/api/v1${location}`, ...(req.complete ? {} : { Connection: 'close' }) }).end();
          return;
        }
        payload = { code: 'not_found', message: 'not found' };
      }
      res
        .writeHead(HttpStatusOfCode[payload.code], { 'Content-Type': 'application/json; charset=utf-8', ...(req.complete ? {} : { Connection: 'close' }) })
        .end(JSON.stringify(giteaErrorBody(payload, this.config.rootUrl)));
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://issue-service');
    const verified = verifyActor(this.secret, header(req, SIGNED_ACTOR_HEADER), `${req.method} ${url.pathname}`);
    if (!verified.ok) throw new ContractError('permission_denied', 'invalid internal signature');
    const name = url.searchParams.get('name') ?? '';
    const toIssue = req.method === 'POST' ? ISSUE_ASSETS.exec(url.pathname) : null;
    if (toIssue) {
      const [owner, repo, index] = toIssue.slice(1).map(decode);
      if (!owner || !repo || !index) throw notFound();
      return this.upload(req, res, verified.actor, await this.attachments.uploadTargetForIssue(verified.actor, owner, repo, index), name);
    }
    const toComment = req.method === 'POST' ? COMMENT_ASSETS.exec(url.pathname) : null;
    if (toComment) {
      const [owner, repo, id] = toComment.slice(1).map(decode);
      if (!owner || !repo || !id) throw notFound();
      return this.upload(req, res, verified.actor, await this.attachments.uploadTargetForComment(verified.actor, owner, repo, id), name);
    }
    const download = DOWNLOAD.exec(url.pathname);
    if (download && (req.method === 'GET' || req.method === 'HEAD')) return this.download(req, res, verified.actor, decode(download[1]!) ?? '');
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
   * browser shows safely, the uuid as ETag.
   */
  private async download(req: IncomingMessage, res: ServerResponse, actor: Actor | null, uuid: string): Promise<void> {
    const { attachment, content } = await this.attachments.download(actor, uuid);
    const etag = `"${attachment.uuid}"`;
    const common = { ETag: etag, 'Cache-Control': 'private, max-age=0, must-revalidate' };
    if (header(req, 'if-none-match') === etag) {
      content.destroy();
      res.writeHead(304, common).end();
      return;
    }
    const { head, all } = await peek(content, SNIFF_BYTES);
    const type = sniffContentType(head);
    res.writeHead(200, {
      ...common,
      'Content-Type': type,
      'Content-Length': String(attachment.size),
      'Content-Disposition': contentDisposition(isInlineType(type) ? 'inline' : 'attachment', attachment.name),
      'Access-Control-Expose-Headers': 'Content-Disposition',
      'X-Content-Type-Options': 'nosniff',
      'Last-Modified': attachment.createdAt.toUTCString(),
    });
    if (req.method === 'HEAD') {
      all.destroy();
      res.end();
      return;
    }
    await pipeline(all, res);
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Reads a multipart body and hands the `attachment` file to `onFile` as it streams. Settles as
 * soon as `onFile` does (an upload refused for its type or size is answered at once); a body
 * without the file, or one that is not multipart, is 400.
 */
function receiveFile<T>(req: IncomingMessage, onFile: (file: Readable, filename: string) => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let parser: BusboyInstance;
    try {
      parser = Busboy({ headers: req.headers as BusboyHeaders, limits: { fieldSize: 64 * 1024, parts: 64, headerPairs: 64 } });
    } catch (err) {
      reject(invalid(`invalid multipart form: ${(err as Error).message}`));
      return;
    }
    let handled: Promise<T> | undefined;
    const stop = (err: unknown): void => {
      req.unpipe(parser);
      reject(err);
    };
    parser.on('file', (field, file, filename) => {
      if (field !== AttachmentHttp.field || handled) {
        file.resume();
        return;
      }
      handled = onFile(file, filename);
      handled.then(resolve, stop);
    });
    parser.on('finish', () => {
      if (!handled) reject(invalid(`no file in the form field "${AttachmentHttp.field}"`));
    });
    parser.on('error', (err: unknown) => stop(invalid(`invalid multipart form: ${(err as Error).message}`)));
    req.on('aborted', () => stop(invalid('the upload was cut off')));
    req.pipe(parser);
  });
}
