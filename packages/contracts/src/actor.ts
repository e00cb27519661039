/** Who is calling: built by the gateway from the credentials, trusted by the services. */
export interface Actor {
  id: number;
  login: string;
  isAdmin: boolean;
  /** Token scopes (`all`, `read:repository`, …); `null` for password authentication (everything allowed). */
  scopes: string[] | null;
  /**
   * Set only for Gitea's Actions user (id -2) signed in with a running task's token: the task's
   * repository and whether the token may only read there (a pull request from a fork). The
   * repository permission check reads it; nothing else grants access for it.
   */
  actionsTask?: ActionsTaskGrant;
}

/** What an Actions task's token may reach (Gitea's ActionsTaskID and the task's IsForkPullRequest). */
export interface ActionsTaskGrant {
  taskId: number;
  repoId: number;
  readOnly: boolean;
}

/** The pseudo user Gitea Actions act as (Gitea's NewActionsUser); it exists in no table. */
export const ActionsUser = Object.freeze({ id: -2, login: 'gitea-actions' });

/**
 * Whether a stored user id names someone who shows under their own name (Gitea's
 * GetPossibleUserByID): an account, or the Actions user; any other id (0, the ghost's -1) does not.
 */
export const isActingUserId = (id: number): boolean => id > 0 || id === ActionsUser.id;

/** The envelope of every request on the transport. */
export interface RpcRequest<P = Record<string, string>, B = undefined, Q = Record<string, unknown>> {
  actor: Actor | null;
  params: P;
  body: B;
  query: Q;
  requestId: string;
}
