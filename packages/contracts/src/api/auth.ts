import type { Actor } from '../actor.js';

/** Credentials the gateway extracted from a request, for `auth.authenticate`. */
export type Credentials =
  | { kind: 'token'; token: string }
  | { kind: 'basic'; username: string; password: string };

export interface AuthenticateRequest {
  credentials: Credentials;
  /** `?sudo=` or the `Sudo` header: act as that user (site admins only). */
  sudo?: string;
}

export interface AuthResult {
  actor: Actor;
  /** HTTP Basic was used (with a password or a token): required to manage tokens. */
  basic: boolean;
  /**
   * A public-only token of a user who is not public (limited or private): Gitea's `/user` routes
   * refuse it (checkTokenPublicOnly on the user category, the caller as the context user).
   */
  hiddenPublicOnly?: boolean;
}
