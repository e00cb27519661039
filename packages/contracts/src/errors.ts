/**
 * Error kinds that cross the transport. Each kind implies exactly one HTTP status
 * (the table lives in platform's error mapping), modelled on Gitea's modules/util/error.go.
 */
export const ErrorCodes = [
  'not_found',
  /**
   * Gitea's RedirectToRepo (307): the repository was renamed or transferred. `details` names the
   * old path segments (`from_owner`, `from_repo`) and the new ones (`to_owner`, `to_repo`); the
   * gateway answers with a Location, never a body.
   */
  'moved',
  'permission_denied',
  'invalid_argument',
  'already_exists',
  'conflict',
  'unprocessable',
  'unauthenticated',
  /** Gitea's 405 for an operation the resource does not support (teams of a user's repository). */
  'method_not_allowed',
  'locked',
  /** Gitea's 412: the change needs something else first (an issue with open dependencies cannot close). */
  'failed_precondition',
  'payload_too_large',
  'unavailable',
  'deadline_exceeded',
  'internal',
] as const;
export type ErrorCode = (typeof ErrorCodes)[number];

/** What crosses the transport when a handler fails. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  /** Extra JSON fields Gitea adds to some error bodies (e.g. `invalidTopics`). */
  details?: Record<string, unknown>;
  /** Gitea's authentication middlewares write `{message}` alone, without the `url` of APIError. */
  bare?: true;
  /** Gitea answers some refusals with the status alone (`ctx.Status(403)`): no body at all. */
  empty?: true;
}

/** The only error a service throws on purpose; anything else becomes `internal`. */
export class ContractError extends Error {
  /** Set by `bare()`: the body is `{message}` only. */
  bare?: true;
  /** Set by `empty()`: no body. */
  empty?: true;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ContractError';
  }

  /** An error Gitea answers from an authentication middleware, with `{message}` and no `url`. */
  static bare(code: ErrorCode, message: string): ContractError {
    const err = new ContractError(code, message);
    err.bare = true;
    return err;
  }

  /** An error Gitea answers with its status alone (`ctx.Status(…)`); `message` is for logs only. */
  static empty(code: ErrorCode, message: string): ContractError {
    const err = new ContractError(code, message);
    err.empty = true;
    return err;
  }

  toPayload(): ErrorPayload {
    return {
      code: this.code,
      message: this.message,
      ...(this.details ? { details: this.details } : {}),
      ...(this.bare ? { bare: true as const } : {}),
      ...(this.empty ? { empty: true as const } : {}),
    };
  }

  static fromPayload(payload: ErrorPayload): ContractError {
    const err = new ContractError(payload.code, payload.message, payload.details);
    if (payload.bare) err.bare = true;
    if (payload.empty) err.empty = true;
    return err;
  }

  static isPayload(value: unknown): value is ErrorPayload {
    return (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as ErrorPayload).code === 'string' &&
      (ErrorCodes as readonly string[]).includes((value as ErrorPayload).code) &&
      typeof (value as ErrorPayload).message === 'string'
    );
  }
}

export const notFound = (message = 'not found'): ContractError => new ContractError('not_found', message);
export const forbidden = (message: string): ContractError => new ContractError('permission_denied', message);
export const unprocessable = (message: string): ContractError => new ContractError('unprocessable', message);
export const conflict = (message: string): ContractError => new ContractError('conflict', message);
export const failedPrecondition = (message: string): ContractError => new ContractError('failed_precondition', message);
export const invalid = (message: string): ContractError => new ContractError('invalid_argument', message);

/**
 * Where a renamed or transferred repository lives now, for the gateway's redirect (see `moved`):
 * 301 when the repository itself moved (Gitea's RedirectToRepo), 307 when its owner was renamed
 * (`owner_renamed`, Gitea's RedirectToUser).
 */
export interface RepoMovedDetails {
  from_owner: string;
  from_repo: string;
  to_owner: string;
  to_repo: string;
  owner_renamed?: boolean;
}

export const moved = (details: RepoMovedDetails): ContractError =>
  new ContractError('moved', `repository moved to ${details.to_owner}/${details.to_repo}`, { ...details });

/**
 * Where a renamed user or organization's old login (named in the request's path after `users/` or
 * `orgs/`) leads now, for the same 307 (Gitea's RedirectToUser): `moved` without a repository.
 */
export interface OwnerMovedDetails {
  from_owner: string;
  to_owner: string;
}

export const ownerMoved = (details: OwnerMovedDetails): ContractError =>
  new ContractError('moved', `user moved to ${details.to_owner}`, { ...details });
