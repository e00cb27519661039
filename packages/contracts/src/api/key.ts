import type { Repository } from './repo.js';
import type { User } from './user.js';

/** Gitea's `DeployKey`. `repository` is shown to site administrators and the repository's owner only. */
export class DeployKey {
  id!: number;
  /** The public key shared by every repository that has this key as a deploy key. */
  key_id!: number;
  key!: string;
  url!: string;
  title!: string;
  fingerprint!: string;
  created_at!: string;
  read_only!: boolean;
  repository?: Repository;
}

/** Gitea's `PublicKey` (a user's SSH key). `key_type`, `read_only` and `user` are shown to the owner and site administrators. */
export class PublicKey {
  id!: number;
  key!: string;
  url!: string;
  title!: string;
  fingerprint!: string;
  created_at!: string;
  last_used_at!: string;
  key_type?: string;
  read_only?: boolean;
  user?: User;
}

/** Gitea's `TopicResponse` (`GET /topics/search`). */
export class TopicResponse {
  id!: number;
  topic_name!: string;
  repo_count!: number;
  created!: string;
  updated!: string;
}

/** Gitea's `LanguageStatistics`: bytes per language. */
export type LanguageStatistics = Record<string, number>;

/**
 * Whose key a fingerprint is (for the SSH server): a user's key, or a deploy key with the
 * repositories it opens. Null when nobody has it.
 */
export type SshKeyOwner =
  | { kind: 'user'; keyId: number; userId: number; fingerprint: string; content: string }
  | {
      kind: 'deploy';
      keyId: number;
      fingerprint: string;
      content: string;
      repositories: { deployKeyId: number; repoId: number; readOnly: boolean }[];
    };
