import { formatTime, type Package, type PackageFile, type Repository, type User, pathEscape } from '@gitforge/contracts';
import type { PackageEntity, PackageVersionEntity } from './package.entities.js';
import type { FileRow } from './packages.repository.js';

/** Gitea's VersionHTMLURL: `{owner}/-/packages/{type}/{name}/{version}` on the web, name and version lowercased, each escaped as Go's url.PathEscape does. */
export function packageHtmlUrl(rootUrl: string, owner: string, pkg: PackageEntity, version: PackageVersionEntity): string {
  return `${rootUrl}${pathEscape(owner)}/-/packages/${pkg.type}/${pathEscape(pkg.name.toLowerCase())}/${pathEscape(version.version.toLowerCase())}`;
}

export function toPackage(pkg: PackageEntity, version: PackageVersionEntity, owner: User, creator: User, repository: Repository | null, rootUrl: string): Package {
  return {
    id: version.id,
    owner,
    repository,
    creator,
    type: pkg.type,
    name: pkg.name,
    version: version.version,
    html_url: packageHtmlUrl(rootUrl, owner.login, pkg, version),
    created_at: formatTime(version.createdAt),
  };
}

export function toPackageFile(row: FileRow): PackageFile {
  return { id: row.file.id, size: row.blob.size, name: row.file.name, md5: row.blob.md5, sha1: row.blob.sha1, sha256: row.blob.sha256, sha512: row.blob.sha512 };
}
