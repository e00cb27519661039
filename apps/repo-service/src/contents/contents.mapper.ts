import { escapePathSegments, pathEscape, queryEscape } from '@gitforge/contracts';
import type { ContentsResponse, GitBlobResponse } from '@gitforge/contracts';
import { formatGitTime } from '../commits/commit.mapper.js';
import { isDir, isSubmodule, isSymlink, type GitCommit, type GitTreeEntry } from '../git/git-objects.js';
import { refWebLinkPath, type RefCommit } from '../git/refs.js';
import type { RepoUrls } from '../repos/repo.mapper.js';
import type { LfsPointer } from './lfs.js';

/** Everything known about one entry when its ContentsResponse is built. */
export interface EntryFacts {
  path: string;
  entry: GitTreeEntry;
  size: number;
  /** Set when the content was asked for (files only); null content for blobs over the size limit. */
  blob?: { content: string | null; lfs: LfsPointer | null };
  lfs?: LfsPointer | null;
  lastCommit?: GitCommit;
  /** Gitea's IncludeCommitMetadata (sha and dates) and IncludeCommitMessage, each on its own. */
  withMetadata?: boolean;
  withMessage?: boolean;
  symlinkTarget?: string;
  submoduleUrl?: string | null;
}

export function contentType(entry: { mode: string }): ContentsResponse['type'] {
  if (isDir(entry)) return 'dir';
  if (isSubmodule(entry)) return 'submodule';
  if (isSymlink(entry)) return 'symlink';
  return 'file';
}

/** Gitea's getFileContentsByEntryInternal. */
export function toContentsResponse(urls: RepoUrls, ref: RefCommit, facts: EntryFacts): ContentsResponse {
  const { entry, path } = facts;
  const type = contentType(entry);
  const self = `${urls.api}/contents/${escapePathSegments(path)}?ref=${queryEscape(ref.inputRef)}`;
  const webPath = `${refWebLinkPath(ref)}/${escapePathSegments(path)}`;
  const html = type === 'submodule' ? null : `${urls.html}/src/${webPath}`;
  const git = type === 'submodule' ? null : `${urls.api}/git/blobs/${pathEscape(entry.sha)}`;
  const res: ContentsResponse = {
    name: entry.name,
    path,
    sha: entry.sha,
    type,
    size: facts.size,
    encoding: null,
    content: null,
    target: null,
    url: self,
    html_url: html,
    git_url: git,
    download_url: type === 'file' || type === 'symlink' ? `${urls.html}/raw/${webPath}` : null,
    submodule_git_url: null,
    _links: { self, git, html },
  };
  if (facts.lastCommit && facts.withMetadata) {
    res.last_commit_sha = facts.lastCommit.sha;
    res.last_committer_date = formatGitTime(facts.lastCommit.committer);
    res.last_author_date = formatGitTime(facts.lastCommit.author);
  }
  if (facts.lastCommit && facts.withMessage) res.last_commit_message = facts.lastCommit.message;
  if (type === 'file' && facts.blob) {
    res.encoding = facts.blob.content === null ? null : 'base64';
    res.content = facts.blob.content;
    if (facts.blob.lfs) {
      res.lfs_oid = facts.blob.lfs.oid;
      res.lfs_size = facts.blob.lfs.size;
    }
  } else if (type === 'file' && facts.lfs) {
    res.lfs_oid = facts.lfs.oid;
    res.lfs_size = facts.lfs.size;
  }
  if (type === 'symlink') res.target = facts.symlinkTarget ?? '';
  if (type === 'submodule' && facts.submoduleUrl) res.submodule_git_url = facts.submoduleUrl;
  return res;
}

export function toGitBlobResponse(
  urls: RepoUrls,
  sha: string,
  size: number,
  content: string | null,
  lfs: LfsPointer | null,
): GitBlobResponse {
  const res: GitBlobResponse = {
    content,
    encoding: content === null ? null : 'base64',
    url: `${urls.api}/git/blobs/${pathEscape(sha)}`,
    sha,
    size,
  };
  if (lfs) {
    res.lfs_oid = lfs.oid;
    res.lfs_size = lfs.size;
  }
  return res;
}
