import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RawFile } from '@gitforge/contracts';
import { contentDisposition, isInlineType, sniffContentType } from '@gitforge/platform';

/**
 * Serves a file from a repository as Gitea's ServeBlob does: sniffed content type, inline
 * disposition for text and images, the blob id (or LFS oid) as ETag, the last commit's date as
 * Last-Modified, and 304 for a matching If-None-Match.
 */
export function sendRawFile(request: FastifyRequest, reply: FastifyReply, file: RawFile): Buffer | undefined {
  const etag = `"${file.etag}"`;
  reply.header('X-Gitea-Object-Type', file.objectType);
  reply.header('Cache-Control', 'private, max-age=300');
  reply.header('ETag', etag);
  if (file.lastModified) reply.header('Last-Modified', file.lastModified);
  if (request.headers['if-none-match'] === etag) {
    void reply.status(304);
    return undefined;
  }
  const data = Buffer.from(file.content, 'base64');
  const type = sniffContentType(data);
  reply.header('Content-Type', type);
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Content-Disposition', contentDisposition(isInlineType(type) ? 'inline' : 'attachment', file.name));
  reply.header('Access-Control-Expose-Headers', 'Content-Disposition');
  return data;
}
