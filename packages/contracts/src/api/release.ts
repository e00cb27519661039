import type { Attachment } from './issue.js';
import type { User } from './user.js';

/**
 * Gitea's Release (services/convert/release.go): `url` is its API address, `html_url` the page of
 * its tag, `tarball_url`/`zipball_url` the tag's archives, `upload_url` where assets are posted.
 * `published_at` is null while it is a draft (current Gitea's ToAPIRelease).
 */
export interface Release {
  id: number;
  tag_name: string;
  target_commitish: string;
  name: string;
  body: string;
  url: string;
  html_url: string;
  tarball_url: string;
  zipball_url: string;
  upload_url: string;
  draft: boolean;
  prerelease: boolean;
  created_at: string;
  published_at: string | null;
  author: User;
  assets: Attachment[];
}
