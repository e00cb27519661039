import type { Repository } from './repo.js';
import type { User } from './user.js';

/** Gitea's Package (`modules/structs/package.go`): one version of a package; `id` is the version's id. */
export interface Package {
  id: number;
  owner: User;
  repository: Repository | null;
  creator: User;
  type: string;
  name: string;
  version: string;
  html_url: string;
  created_at: string;
}

/** Gitea's PackageFile: a file of a package version, with its digests. */
export interface PackageFile {
  id: number;
  /** The file's size in bytes. */
  size: number;
  name: string;
  md5: string;
  sha1: string;
  sha256: string;
  sha512: string;
}
