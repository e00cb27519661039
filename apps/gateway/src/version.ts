/** The Gitea API level gitforge implements, with our own version as semver build metadata. */
export const GITEA_COMPATIBLE_VERSION = '1.25.0+gitforge-0.1.0';
