/**
 * The package registries (`/api/packages/{owner}/{type}/…`), which the gateway streams to
 * repo-service's HTTP listener (beside smart HTTP and release assets) under this prefix: a
 * package's files are byte streams and never cross the message transport. `-` is no owner name,
 * so the prefix cannot shadow a repository's smart-HTTP path.
 */
export const PackageHttp = {
  prefix: '/-/packages',
  /** Package types served; each is one registry module in repo-service. */
  types: ['generic', 'npm'] as const,
} as const;
export type PackageType = (typeof PackageHttp.types)[number];
