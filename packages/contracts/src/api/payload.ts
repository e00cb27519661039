/** Gitea's PayloadUser: a commit's author or committer as webhooks show it. */
export interface PayloadUser {
  name: string;
  email: string;
  /** The account whose e-mail matches, or "" when none does. */
  username: string;
}

export interface PayloadCommitVerification {
  verified: boolean;
  reason: string;
  signature: string;
  signer: PayloadUser | null;
  payload: string;
}

/** Gitea's PayloadCommit (structs/hook.go), as push payloads carry it. */
export interface PayloadCommit {
  id: string;
  message: string;
  url: string;
  author: PayloadUser;
  committer: PayloadUser;
  verification: PayloadCommitVerification | null;
  timestamp: string;
  /** Null where Gitea leaves them out (a test delivery's commit, convert.ToPayloadCommit). */
  added: string[] | null;
  removed: string[] | null;
  modified: string[] | null;
}
