/** Gitea's `FileLinksResponse`. */
export class FileLinksResponse {
  self!: string | null;
  git!: string | null;
  html!: string | null;
}

/**
 * Gitea's `ContentsResponse` (structs/repo_file.go): a file, directory, symlink or submodule.
 * The `last_*` and `lfs_*` fields are omitted when unset; the other optional ones are null.
 */
export class ContentsResponse {
  name!: string;
  path!: string;
  sha!: string;
  last_commit_sha?: string;
  last_committer_date?: string;
  last_author_date?: string;
  last_commit_message?: string;
  type!: 'file' | 'dir' | 'symlink' | 'submodule';
  size!: number;
  encoding!: string | null;
  content!: string | null;
  target!: string | null;
  url!: string | null;
  html_url!: string | null;
  git_url!: string | null;
  download_url!: string | null;
  submodule_git_url!: string | null;
  _links!: FileLinksResponse;
  lfs_oid?: string;
  lfs_size?: number;
}

/** `GET …/contents-ext/{filepath}`: exactly one of the two is set. */
export class ContentsExtResponse {
  file_contents?: ContentsResponse;
  dir_contents?: ContentsResponse[];
}

/** Gitea's `CommitMeta`. */
export class CommitMeta {
  url!: string;
  sha!: string;
  created!: string;
}

/** Gitea's `CommitUser`: a commit's author or committer. */
export class CommitUser {
  name!: string;
  email!: string;
  date!: string;
}

/** Gitea's `PayloadCommitVerification` (always "not signed" here: gitforge does not sign commits). */
export class CommitVerification {
  verified!: boolean;
  reason!: string;
  signature!: string;
  signer!: { name: string; email: string; username: string } | null;
  payload!: string;
}

/** Gitea's `FileCommitResponse`. */
export class FileCommitResponse {
  url!: string;
  sha!: string;
  created!: string;
  html_url!: string;
  author!: CommitUser;
  committer!: CommitUser;
  parents!: CommitMeta[];
  message!: string;
  tree!: CommitMeta;
}

/** `POST`/`PUT …/contents/{filepath}`. */
export class FileResponse {
  content!: ContentsResponse | null;
  commit!: FileCommitResponse;
  verification!: CommitVerification;
}

/** `POST …/contents` (several files in one commit); a deleted file's entry is null. */
export class FilesResponse {
  files!: Array<ContentsResponse | null>;
  commit!: FileCommitResponse;
  verification!: CommitVerification;
}

/** `DELETE …/contents/{filepath}`: `content` is always null. */
export class FileDeleteResponse {
  content!: null;
  commit!: FileCommitResponse;
  verification!: CommitVerification;
}

/** Gitea's `GitBlobResponse`; blobs over 10 MiB come without `content` and `encoding`. */
export class GitBlobResponse {
  content!: string | null;
  encoding!: string | null;
  url!: string;
  sha!: string;
  size!: number;
  lfs_oid?: string;
  lfs_size?: number;
}

/** Gitea's `GitEntry`. */
export class GitEntry {
  path!: string;
  mode!: string;
  type!: string;
  size!: number;
  sha!: string;
  url!: string;
}

/** Gitea's `GitTreeResponse`: one page of a (possibly recursive) tree listing. */
export class GitTreeResponse {
  sha!: string;
  url!: string;
  tree!: GitEntry[] | null;
  truncated!: boolean;
  page!: number;
  total_count!: number;
}

/**
 * A file's bytes as repo-service hands them to the gateway for `raw` and `media` (not a Gitea
 * shape: the gateway writes `content` as the body with these headers).
 */
export interface RawFile {
  /** Base64 of the bytes served. */
  content: string;
  name: string;
  size: number;
  /** `file`, `symlink`: Gitea's X-Gitea-Object-Type. */
  objectType: string;
  /** ETag value (blob sha or LFS oid), without quotes. */
  etag: string;
  /** The last commit touching the path (RFC 1123 for Last-Modified), or null. */
  lastModified: string | null;
}

/** A raw diff or patch (`.diff`, `.patch`, `compare?output=`), served as text/plain. */
export interface RawText {
  text: string;
}
