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
  reply.header('Content-Type', type);
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', file.name));
  reply.header('Access-Control-Expose-Headers', 'Content-Disposition');
  return data;
}

const TSPECIALS = '()<>@,;:\\"/[]?=';

/**
 * Go's mime.FormatMediaType for one `filename`, as Gitea writes Content-Disposition: a token as it
 * is, other printable ASCII quoted, anything else (non-ASCII, control characters) only as RFC 2231
 * `filename*=utf-8''…` — a header may not carry those characters raw.
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const bytes = Buffer.from(name, 'utf8');
  if (bytes.every((b) => b >= 0x20 && b < 0x7f)) {
    const token = name.length > 0 && [...name].every((c) => c !== ' ' && !TSPECIALS.includes(c));
    return `${kind}; filename=${token ? name : `"${name.replace(/["\\]/g, (c) => `\\${c}`)}"`}`;
  }
  let encoded = '';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    const escape = b <= 0x20 || b >= 0x7f || c === '*' || c === "'" || c === '%' || TSPECIALS.includes(c);
    encoded += escape ? `%${b.toString(16).toUpperCase().padStart(2, '0')}` : c;
  }
  return `${kind}; filename*=utf-8''${encoded}`;
}
