import type { Attachment } from './issue.js';
import type { User } from './user.js';

/**
 * Gitea's Release (services/convert/release.go): `url` is its API address, `html_url` the page of
 * its tag, `tarball_url`/`zipball_url` the tag's archives, `upload_url` where assets are posted.
 * `created_at` and `published_at` are the one time Gitea keeps: the creation, set again when a
 * draft is edited or published; lists sort by it.
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
  published_at: string;
  author: User;
  assets: Attachment[];
}
