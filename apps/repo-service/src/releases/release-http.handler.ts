import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { ContractError, notFound, type Actor } from '@gitforge/contracts';
import {
  answerFileRequestError,
  contentDisposition,
  createLogger,
  decodePathSegment,
  internalSecret,
  isInlineType,
  peek,
  receiveFile,
  requestHeader,
  sendStream,
  SIGNED_ACTOR_HEADER,
  signedPublicUrl,
  sniffContentType,
  verifyActor,
} from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { codeReader } from '../contents/repo-view.js';
import { RepoServiceConfig } from '../repo.config.js';
import { Archives } from './archives.js';
import type { ReleaseAssetEntity } from './release.entity.js';
import { ReleasesService } from './releases.service.js';

const log = createLogger('release-http');

const UPLOAD = /^\/repos\/([^/]+)\/([^/]+)\/releases\/([^/]+)\/assets$/;
const DOWNLOAD = /^\/repos\/([^/]+)\/([^/]+)\/releases\/download\/(.+)\/([^/]+)$/;
const ARCHIVE = /^\/repos\/([^/]+)\/([^/]+)\/archive\/(.+)$/;
/** `/attachments/{uuid}` of a release's file, which the gateway sends here (issue attachments go to issue-service). */
const BY_UUID = /^\/release-assets\/([^/]+)$/;
/** How many leading bytes decide a download's type (Gitea reads 1 KiB). */
const SNIFF_BYTES = 1024;

/**
 * The byte routes of releases and archives on repo-service's own HTTP listener (beside smart
 * HTTP): asset uploads and downloads, and repository archives. The gateway streams them here as
 * it streams issue attachments to issue-service, the caller signed into a header.
 */
@Injectable()
export class ReleaseHttpHandler {
  private readonly secret: string;

  constructor(
    private readonly config: RepoServiceConfig,
    private readonly releases: ReleasesService,
    private readonly access: RepoAccessService,
    private readonly archives: Archives,
  ) {
    this.secret = internalSecret(config);
  }

  /** Whether a request is one of these routes (the rest of the listener is smart HTTP). */
  matches(req: IncomingMessage): boolean {
    const path = (req.url ?? '/').split('?')[0]!;
    return UPLOAD.test(path) || DOWNLOAD.test(path) || ARCHIVE.test(path) || BY_UUID.test(path);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.route(req, res);
    } catch (err) {
      // Downloads and archives reach this listener from more than one public path: the gateway signs the one used.
      answerFileRequestError(req, res, err, this.config.rootUrl, log, signedPublicUrl(this.secret, req));
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://repo-service');
    const verified = verifyActor(this.secret, requestHeader(req, SIGNED_ACTOR_HEADER), `${req.method} ${url.pathname}`);
    if (!verified.ok) throw new ContractError('permission_denied', 'invalid internal signature');
    const actor = verified.actor;
    const read = req.method === 'GET' || req.method === 'HEAD';

    const upload = req.method === 'POST' ? UPLOAD.exec(url.pathname) : null;
    if (upload) {
      const [owner, repo, id] = upload.slice(1).map(decodePathSegment);
      if (!owner || !repo || !id) throw notFound();
      const target = await this.releases.uploadTarget(actor, owner, repo, id);
      const name = url.searchParams.get('name') ?? '';
      // Gitea takes a multipart form (field `attachment`) or the file itself as the body, named by `?name=`.
      const multipart = (requestHeader(req, 'content-type') ?? '').toLowerCase().startsWith('multipart/form-data');
      if (!multipart && !name) throw new ContractError('invalid_argument', 'Could not determine name of attachment.');
      const asset = multipart
        ? await receiveFile(req, (file, filename) => this.releases.upload(target, file, name || filename))
        : await this.releases.upload(target, req, name);
      res.writeHead(201, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(asset));
      return;
    }
    const download = read ? DOWNLOAD.exec(url.pathname) : null;
    if (download) {
      const [owner, repo, tag, name] = download.slice(1).map(decodePathSegment);
      if (!owner || !repo || !tag || !name) throw notFound();
      return this.download(req, res, actor, owner, repo, tag, name);
    }
    const byUuid = read ? BY_UUID.exec(url.pathname) : null;
    if (byUuid) return this.send(req, res, await this.releases.downloadByUuid(actor, decodePathSegment(byUuid[1]!) ?? ''));
    const archive = read ? ARCHIVE.exec(url.pathname) : null;
    if (archive) {
      const [owner, repo, name] = archive.slice(1).map(decodePathSegment);
      if (!owner || !repo || !name) throw notFound();
      const view = await codeReader(this.access, this.config, actor, owner, repo);
      return this.archives.serve(view, name, url.searchParams.getAll('path'), res, req.method === 'HEAD');
    }
    throw notFound();
  }

  private async download(req: IncomingMessage, res: ServerResponse, actor: Actor | null, owner: string, repo: string, tag: string, name: string): Promise<void> {
    return this.send(req, res, await this.releases.download(actor, owner, repo, tag, name));
  }

  /** An asset's bytes, as Gitea serves attachments: the sniffed type, inline only for what browsers show safely. */
  private async send(req: IncomingMessage, res: ServerResponse, { asset, content }: { asset: ReleaseAssetEntity; content: Readable }): Promise<void> {
    const { head, all } = await peek(content, SNIFF_BYTES);
    const type = sniffContentType(head);
    res.writeHead(200, {
      'Content-Type': type,
      'Content-Length': String(asset.size),
      'Content-Disposition': contentDisposition(isInlineType(type) ? 'inline' : 'attachment', asset.name),
      'Access-Control-Expose-Headers': 'Content-Disposition',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, max-age=0, must-revalidate',
      ETag: `"${asset.uuid}"`,
      'Last-Modified': asset.createdAt.toUTCString(),
    });
    if (req.method === 'HEAD') {
      all.destroy();
      res.end();
      return;
    }
    await sendStream(all, res);
  }
}
