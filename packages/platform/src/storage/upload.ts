import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { Busboy, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import { AttachmentHttp, invalid } from '@gitforge/contracts';
import { giteaErrorBody, HttpStatusOfCode, toErrorPayload } from '../errors/error-mapping.js';
import { drainRequest } from '../internal/internal-http.js';
import { movedLocation, movedStatus } from '../http/gitea-exception.filter.js';
import type { Logger } from 'pino';

/**
 * The upload side of the services' own HTTP listeners for file bytes (issue and comment
 * attachments in issue-service, release assets in repo-service): the gateway streams the
 * multipart body through, and these read it as it arrives, never whole.
 */

/** The first `n` bytes of a stream (fewer if it ends first), and a stream of all of it. */
export async function peek(source: Readable, n: number): Promise<{ head: Buffer; all: Readable }> {
  const it = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < n) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    size += next.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* rest(): AsyncGenerator<Buffer> {
    yield head;
    if (done) return;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
  }
  const all = Readable.from(rest(), { objectMode: false });
  // `all` reads `source` through an iterator that dropping `all` does not return: a download cut
  // off by its client, or a HEAD answered without the bytes, would leave the file open until GC.
  all.once('close', () => {
    if (!source.readableEnded) source.destroy();
  });
  return { head: head.subarray(0, n), all };
}

/**
 * Reads a multipart body and hands the `attachment` file to `onFile` as it streams. Settles as
 * soon as `onFile` does (an upload refused for its type or size is answered at once); a body
 * without the file, or one that is not multipart, is 400.
 */
export function receiveFile<T>(req: IncomingMessage, onFile: (file: Readable, filename: string) => Promise<T>): Promise<T> {
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

/**
 * Answers a failed request of a file listener with Gitea's error body; an answer already under
 * way is cut off instead. An answer before the whole body was read drops the rest, and the
 * connection is not reused. A repository's old name answers Gitea's 301 to the request's public
 * URL (`publicUrl`, which the gateway signs into the request: signedPublicUrl) at the new name, as
 * the gateway answers every other route; 404 without it.
 */
export function answerFileRequestError(req: IncomingMessage, res: ServerResponse, err: unknown, rootUrl: string, log: Logger, publicUrl?: string): void {
  let payload = toErrorPayload(err);
  if (payload.code === 'internal') log.error({ err, url: req.url }, 'file request failed');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.once('finish', () => drainRequest(req));
  if (payload.code === 'moved') {
    const location = publicUrl === undefined ? undefined : movedLocation(publicUrl, payload.details);
    if (location) {
      res.writeHead(movedStatus(payload.details), { Location: location }).end();
      return;
    }
    payload = { code: 'not_found', message: 'not found' };
  }
  res
    .writeHead(HttpStatusOfCode[payload.code], { 'Content-Type': 'application/json; charset=utf-8' })
    .end(JSON.stringify(giteaErrorBody(payload, rootUrl)));
}
