import { ContractError, type ErrorCode, type ErrorPayload } from '@gitforge/contracts';

/** The one table from error kind to HTTP status. */
export const HttpStatusOfCode: Record<ErrorCode, number> = {
  not_found: 404,
  moved: 307,
  permission_denied: 403,
  invalid_argument: 400,
  already_exists: 409,
  conflict: 409,
  unprocessable: 422,
  unauthenticated: 401,
  method_not_allowed: 405,
  locked: 423,
  failed_precondition: 412,
  payload_too_large: 413,
  unavailable: 503,
  deadline_exceeded: 504,
  internal: 500,
};

/** Turns anything thrown into what crosses the transport; unknown errors become `internal` without details. */
export function toErrorPayload(err: unknown): ErrorPayload {
  if (err instanceof ContractError) return err.toPayload();
  if (ContractError.isPayload(err)) return err;
  return { code: 'internal', message: '' };
}

/**
 * Gitea's error body: `{message, url}` plus any extra fields (e.g. `invalidTopics`); `{message}`
 * alone for bare ones; none at all (undefined) for empty ones.
 */
export function giteaErrorBody(payload: ErrorPayload, rootUrl: string): Record<string, unknown> | undefined {
  if (payload.empty) return undefined;
  if (payload.bare) return { message: payload.message };
  return { ...(payload.details ?? {}), message: payload.message, url: `${rootUrl}api/swagger` };
}
