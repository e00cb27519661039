import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ContractError, type ErrorPayload, type RepoMovedDetails } from '@gitforge/contracts';
import { giteaErrorBody, HttpStatusOfCode, toErrorPayload } from '../errors/error-mapping.js';
import { createLogger } from '../logging/logger.js';

const log = createLogger('http');

/** Fastify's own request errors (body parsing, size) as error kinds. */
function fastifyErrorPayload(err: { code?: string; statusCode?: number; message?: string }): ErrorPayload | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      // Gitea's binding answers an undecodable body with 422.
      return { code: 'unprocessable', message: `[]: DeserializationError: ${err.message ?? 'invalid JSON'}` };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'payload_too_large', message: 'request body too large' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { code: 'unprocessable', message: `[]: ContentTypeError: ${err.message ?? 'unsupported content type'}` };
    default:
      if (err.statusCode === 400 && err.code?.startsWith('FST_')) return { code: 'invalid_argument', message: err.message ?? 'bad request' };
      return undefined;
  }
}

/**
 * Gitea's RedirectToUser: the path with the old login replaced by the new one where it names the
 * account, the first segment after `users/`, `orgs/` or `user/following/` (`/api/v1/users/{old}/repos`,
 * `/api/v1/admin/users/{old}`, `/api/v1/orgs/{old}/teams`, `/api/v1/user/following/{old}`); undefined when none does.
 */
function ownerMovedPath(path: string, from: string, to: string): string | undefined {
  const segments = path.split('/');
  const named = (segment: string): boolean => {
    try {
      return decodeURIComponent(segment) === from;
    } catch {
      return false;
    }
  };
  const names = (i: number): boolean =>
    segments[i - 1] === 'users' || segments[i - 1] === 'orgs' || (segments[i - 1] === 'following' && segments[i - 2] === 'user');
  const at = segments.findIndex((segment, i) => i > 0 && names(i) && named(segment));
  if (at < 0) return undefined;
  segments[at] = encodeURIComponent(to);
  return segments.join('/');
}

/**
 * Gitea's RedirectToRepo: the request's own path with its `{old owner}/{old name}` segment pair
 * (the first after `/repos/`, else the first) replaced by the new ones, the query string kept;
 * for `moved` without a repository (a renamed owner), {@link ownerMovedPath}.
 * Undefined when the path does not hold the old pair (the error did not come from this
 * request's repository).
 */
/** Gitea's RedirectToRepo is permanent (301), its RedirectToUser temporary (307). */
export function movedStatus(details: Record<string, unknown> | undefined): 301 | 307 {
  return typeof details?.['from_repo'] === 'string' && details['owner_renamed'] !== true ? 301 : 307;
}

export function movedLocation(url: string, details: Record<string, unknown> | undefined): string | undefined {
  const d = details as Partial<RepoMovedDetails> | undefined;
  if (!d?.from_owner || !d.to_owner) return undefined;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q);
  if (!d.from_repo && !d.to_repo) {
    const to = ownerMovedPath(path, d.from_owner, d.to_owner);
    return to === undefined ? undefined : `${to}${query}`;
  }
  if (!d.from_repo || !d.to_repo) return undefined;
  const from = `/${encodeURIComponent(d.from_owner)}/${encodeURIComponent(d.from_repo)}`;
  const find = (needle: string): number => {
    for (let i = path.indexOf(needle); i >= 0; i = path.indexOf(needle, i + 1)) {
      const next = path[i + needle.length];
      if (next === undefined || next === '/') return i;
    }
    return -1;
  };
  // The pair after `/repos/` first (`/api/v1/repos/v1/repos` is the repository `repos` of `v1`), else the first pair anywhere.
  const afterRepos = find(`/repos${from}`);
  const at = afterRepos >= 0 ? afterRepos + '/repos'.length : find(from);
  if (at < 0) return undefined;
  const to = `/${encodeURIComponent(d.to_owner)}/${encodeURIComponent(d.to_repo)}`;
  return `${path.slice(0, at)}${to}${path.slice(at + from.length)}${query}`;
}

/**
 * Writes every failure the way Gitea does: `{message, url}` with the status implied by the
 * error kind. Unknown routes answer Gitea's plain-text 404; unexpected errors a 500 without details.
 */
@Catch()
export class GiteaExceptionFilter implements ExceptionFilter {
  constructor(private readonly rootUrl: string) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    if (reply.sent) return;

    let payload: ErrorPayload;
    // Nest wraps Fastify's own errors (body parsing, size) in an HttpException with the original as cause.
    const original = exception instanceof HttpException && exception.cause ? exception.cause : exception;
    const fromFastify = fastifyErrorPayload(original as { code?: string; statusCode?: number });
    if (fromFastify) {
      payload = fromFastify;
    } else if (exception instanceof ContractError) {
      payload = exception.toPayload();
    } else if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) {
        void reply.status(404).type('text/plain; charset=utf-8').send('404 page not found\n');
        return;
      }
      const code = (Object.entries(HttpStatusOfCode).find(([, s]) => s === status)?.[0] ?? 'internal') as ErrorPayload['code'];
      payload = { code, message: exception.message };
    } else {
      payload = toErrorPayload(exception);
      if (payload.code === 'internal') {
        log.error({ err: exception, method: request.method, url: request.url }, 'unhandled error');
      }
    }
    if (payload.code === 'moved') {
      const location = movedLocation(request.url, payload.details);
      if (location) {
        void reply.status(movedStatus(payload.details)).header('Location', location).send();
        return;
      }
      // A repository named elsewhere than in this request's path (a pull's head): nothing there now.
      payload = { code: 'not_found', message: 'not found' };
    }
    const body = giteaErrorBody(payload, this.rootUrl);
    if (body === undefined) {
      void reply.status(HttpStatusOfCode[payload.code]).send();
      return;
    }
    void reply.status(HttpStatusOfCode[payload.code]).type('application/json; charset=utf-8').send(body);
  }
}
