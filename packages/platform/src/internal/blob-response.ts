import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import parseRange from 'range-parser';
import type { ByteRange } from '../storage/blob-store.js';
import { requestHeader, sendStream } from './internal-http.js';

/** The bytes of a stored file to answer with: its size, validators, and the rest of its headers. */
export interface BlobAnswer {
  size: number;
  /** Sent as Last-Modified, and compared with If-Modified-Since and If-Range. */
  lastModified?: Date;
  /** A strong entity tag (quoted), sent as ETag and compared with If-None-Match and If-Range. */
  etag?: string;
  /** Content-Type, Content-Disposition, Cache-Control and the like. */
  headers: OutgoingHttpHeaders;
  /** The bytes, all of them or the inclusive range asked for (asked for before anything is written, so it may still throw). */
  open(range?: ByteRange): Promise<Readable>;
}

/**
 * Answers a GET or HEAD for a stored file as Go's http.ServeContent does (Gitea serves downloads
 * with it): 412 when If-Match or If-Unmodified-Since names another version; 304 when the client's copy is current (If-None-Match, else If-Modified-Since); one byte range
 * as 206 with Content-Range, unless If-Range names another version; 416 with `bytes *\/size` for a
 * range outside the file or one that cannot be read; several ranges get the whole file.
 * Anything else is a 200 with the whole file.
 */
export async function sendBlob(req: IncomingMessage, res: ServerResponse, blob: BlobAnswer): Promise<void> {
  const validators: OutgoingHttpHeaders = {
    'Accept-Ranges': 'bytes',
    ...(blob.etag ? { ETag: blob.etag } : {}),
    ...(blob.lastModified ? { 'Last-Modified': blob.lastModified.toUTCString() } : {}),
  };
  const head = req.method === 'HEAD';
  if (!preconditionHolds(req, blob)) {
    res.writeHead(412, validators).end();
    return;
  }
  if (notModified(req, blob)) {
    res.writeHead(304, validators).end();
    return;
  }
  const range = rangeOf(req, blob);
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...validators, 'Content-Range': `bytes */${blob.size}`, 'Content-Type': 'text/plain; charset=utf-8' }).end('invalid range\n');
    return;
  }
  // HEAD opens nothing: the size and headers say it all.
  const content = head ? null : await blob.open(range ?? undefined);
  const length = range ? range.end - range.start + 1 : blob.size;
  res.writeHead(range ? 206 : 200, {
    ...blob.headers,
    ...validators,
    'Content-Length': String(length),
    ...(range ? { 'Content-Range': `bytes ${range.start}-${range.end}/${blob.size}` } : {}),
  });
  if (!content) {
    res.end();
    return;
  }
  await sendStream(content, res);
}

/** The one range to serve, null for the whole file. */
function rangeOf(req: IncomingMessage, blob: BlobAnswer): ByteRange | null | 'unsatisfiable' {
  const header = req.headers.range;
  if (!header || !ifRangeHolds(req, blob)) return null;
  // Go answers 416 for a range it cannot read as well as for one outside the file.
  const ranges = parseRange(blob.size, header, { combine: true });
  if (ranges === -1 || ranges === -2 || ranges.type !== 'bytes') return 'unsatisfiable';
  if (ranges.length !== 1) return null;
  return { start: ranges[0]!.start, end: ranges[0]!.end };
}

/** If-Range (Go's checkIfRange): the range holds only for the version the client names, by its strong entity tag or its exact date. */
function ifRangeHolds(req: IncomingMessage, blob: BlobAnswer): boolean {
  const ifRange = requestHeader(req, 'if-range');
  if (!ifRange) return true;
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return blob.etag !== undefined && ifRange === blob.etag;
  return againstDate(blob, ifRange) === 0;
}

/** Go's checkIfMatch (strong comparison), else checkIfUnmodifiedSince: false when the client asks for a version this is not. */
function preconditionHolds(req: IncomingMessage, blob: BlobAnswer): boolean {
  // An empty header is no condition, as in Go.
  const match = requestHeader(req, 'if-match');
  if (match) {
    const tags = match.split(',').map((t) => t.trim());
    return tags.includes('*') || (blob.etag !== undefined && !blob.etag.startsWith('W/') && tags.includes(blob.etag));
  }
  const since = againstDate(blob, requestHeader(req, 'if-unmodified-since'));
  return since === null || since <= 0;
}

/** Go's checkIfNoneMatch, else checkIfModifiedSince: the client's copy is the current one. */
function notModified(req: IncomingMessage, blob: BlobAnswer): boolean {
  const noneMatch = requestHeader(req, 'if-none-match');
  if (noneMatch !== undefined) {
    const tags = noneMatch.split(',').map((t) => t.trim());
    // Weak comparison: W/"x" and "x" are the same version.
    const bare = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag);
    return tags.includes('*') || (blob.etag !== undefined && tags.some((t) => bare(t) === bare(blob.etag!)));
  }
  const since = againstDate(blob, requestHeader(req, 'if-modified-since'));
  return since !== null && since <= 0;
}

/**
 * The file's time against an HTTP date, in the whole seconds HTTP dates have: negative when
 * older, 0 when the same, positive when newer; null when the file has no time or the date
 * cannot be read.
 */
function againstDate(blob: BlobAnswer, httpDate: string | undefined): number | null {
  const at = Date.parse(httpDate ?? '');
  if (blob.lastModified === undefined || Number.isNaN(at)) return null;
  return Math.floor(blob.lastModified.getTime() / 1000) - Math.floor(at / 1000);
}
