/** Smart HTTP, which the gateway streams to repo-service's own listener instead of the message transport. */
export const GitHttp = {
  /** Name of repo-service's listener in platform's internal HTTP lookup. */
  listener: 'repo-git',
  /**
   * Gitea's `WWW-Authenticate` for git over HTTP (`routers/web/repo/githttp.go`, OAuth2 enabled
   * as by default): git then asks its credential helper and retries with Basic credentials.
   */
  challenge: 'Basic realm="Gitea"',
  /**
   * Prefix of the short-lived LFS tokens `git-lfs-authenticate` hands out over SSH (sent as
   * `Authorization: Bearer …`): the gateway passes them to repo-service, which signed them,
   * instead of checking them as API tokens.
   */
  lfsTokenPrefix: 'gflfs.',
} as const;
