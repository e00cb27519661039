import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RawFile } from '@gitforge/contracts';

const MAGIC: Array<[number[], string]> = [
  [[0x89, 0x50, 0x4e, 0x47], 'image/png'],
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[0x47, 0x49, 0x46, 0x38], 'image/gif'],
  [[0x25, 0x50, 0x44, 0x46], 'application/pdf'],
  [[0x50, 0x4b, 0x03, 0x04], 'application/zip'],
];

/** Gitea's typesniffer, reduced: known binary signatures, text when no NUL in the first 1 KiB, else octet-stream. */
export function sniffContentType(data: Buffer): string {
  for (const [bytes, type] of MAGIC) if (bytes.every((b, i) => data[i] === b)) return type;
  return data.subarray(0, 1024).includes(0) ? 'application/octet-stream' : 'text/plain; charset=utf-8';
}

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
  const inline = type.startsWith('text/') || type.startsWith('image/') || type === 'application/pdf';
  const quoted = file.name.replace(/["\\]/g, '_');
  reply.header('Content-Type', type);
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header(
    'Content-Disposition',
    `${inline ? 'inline' : 'attachment'}; filename="${quoted}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
  );
  reply.header('Access-Control-Expose-Headers', 'Content-Disposition');
  return data;
}
