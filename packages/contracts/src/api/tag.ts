import type { CommitMeta, CommitUser, CommitVerification } from './contents.js';

/** Gitea's `Tag` (`GET /repos/{owner}/{repo}/tags`). */
export class Tag {
  name!: string;
  /** The tag's message, or for a lightweight tag its commit's message, trimmed. */
  message!: string;
  /** The tag object's id, or for a lightweight tag the commit's. */
  id!: string;
  /** The tagged commit; `url` names the tag's id, as Gitea builds it. */
  commit!: CommitMeta;
  zipball_url!: string;
  tarball_url!: string;
}

/** Gitea's `AnnotatedTagObject`: what an annotated tag points at. */
export class AnnotatedTagObject {
  type!: string;
  url!: string;
  sha!: string;
}

/** Gitea's `AnnotatedTag` (`GET /repos/{owner}/{repo}/git/tags/{sha}`). */
export class AnnotatedTag {
  tag!: string;
  sha!: string;
  url!: string;
  message!: string;
  tagger!: CommitUser;
  object!: AnnotatedTagObject;
  verification!: CommitVerification;
}

/** Gitea's `GitObject`: the object a reference points at. */
export class GitObject {
  type!: string;
  sha!: string;
  url!: string;
}

/** Gitea's `Reference` (`GET /repos/{owner}/{repo}/git/refs`). */
export class Reference {
  ref!: string;
  url!: string;
  object!: GitObject;
}
