import { definePatterns } from './patterns.js';

/** `/repos/{owner}/{repo}/keys`: deploy keys (repo-service). */
export const DeployKeyPatterns = definePatterns('repo', {
  list: 'repos.keys.list',
  get: 'repos.keys.get',
  create: 'repos.keys.create',
  delete: 'repos.keys.delete',
  /**
   * body `{ fingerprints }` → the deploy keys among them (SshKeyOwner of kind `deploy`), one call
   * for many: org-service refuses a user key that already is a deploy key.
   */
  findByFingerprints: 'repos.keys.findByFingerprints',
});

/** `/user/keys`, `/users/{username}/keys`, `/admin/users/{username}/keys`: users' SSH keys (org-service). */
export const UserKeyPatterns = definePatterns('org', {
  /** `GET /user/keys` (no `params.username`) and `GET /users/{username}/keys`; `fingerprint` in the query. */
  list: 'users.keys.list',
  get: 'users.keys.get',
  /** `POST /user/keys`, or with `params.username` the site administrator's `POST /admin/users/{username}/keys`. */
  create: 'users.keys.create',
  /** `DELETE /user/keys/{id}`, or with `params.username` the administrator's route. */
  delete: 'users.keys.delete',
  /** body `{ fingerprints }` → the user keys among them (SshKeyOwner of kind `user`): repo-service refuses such a deploy key. */
  findByFingerprints: 'users.keys.findByFingerprints',
  /** body `{ fingerprint }` → SshKeyOwner or null: the user key or deploy key the SSH server authenticates. */
  owner: 'keys.owner',
});

/** Body of the `findByFingerprints` patterns. */
export interface KeyFingerprints {
  fingerprints: string[];
}

/** `GET /repos/{owner}/{repo}/languages` and `GET /topics/search` (repo-service). */
export const RepoLanguagePatterns = definePatterns('repo', {
  languages: 'repos.languages.get',
});

/** `GET /repos/{owner}/{repo}/licenses` (repo-service): the SPDX ids found in the default branch's license file. */
export const RepoLicensePatterns = definePatterns('repo', {
  get: 'repos.licenses.get',
});

export const TopicSearchPatterns = definePatterns('repo', {
  /** `GET /topics/search?q=`: Page<TopicResponse>. */
  search: 'topics.search',
});
