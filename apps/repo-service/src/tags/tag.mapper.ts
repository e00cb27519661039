import { escapePathSegments, pathEscape } from '@gitforge/contracts';
import type { AnnotatedTag, Reference, Tag } from '@gitforge/contracts';
import { formatGitTime, unsignedVerification } from '../commits/commit.mapper.js';
import type { GitTag } from '../git/git-objects.js';
import { type TagRef } from '../git/refs.js';
import type { RepoUrls } from '../repos/repo.mapper.js';

/** Gitea's convert.ToTag (the commit url names the tag's own id, as Gitea's ToCommitMeta does). */
export function toTag(t: TagRef, urls: RepoUrls): Tag {
  return {
    name: t.name,
    message: t.message,
    id: t.id,
    commit: {
      url: `${urls.api}/git/commits/${pathEscape(t.id)}`,
      sha: t.commit,
      created: formatGitTime(t.creator),
    },
    zipball_url: `${urls.html}/archive/${escapePathSegments(t.name)}.zip`,
    tarball_url: `${urls.html}/archive/${escapePathSegments(t.name)}.tar.gz`,
  };
}

/** Gitea's convert.ToAnnotatedTag. */
export function toAnnotatedTag(t: GitTag, commit: string, urls: RepoUrls): AnnotatedTag {
  return {
    tag: t.name,
    sha: t.sha,
    url: `${urls.api}/git/tags/${pathEscape(t.sha)}`,
    message: t.message,
    tagger: { name: t.tagger.name, email: t.tagger.email, date: formatGitTime(t.tagger) },
    object: { type: 'commit', url: `${urls.api}/git/commits/${pathEscape(commit)}`, sha: commit },
    verification: unsignedVerification(),
  };
}

/** Gitea's Reference: the ref, and the object it points at by its type's API path. */
export function toReference(ref: { name: string; sha: string; type: string }, urls: RepoUrls): Reference {
  return {
    ref: ref.name,
    url: `${urls.api}/git/${escapePathSegments(ref.name)}`,
    object: {
      type: ref.type,
      sha: ref.sha,
      url: `${urls.api}/git/${pathEscape(ref.type)}s/${pathEscape(ref.sha)}`,
    },
  };
}
