import { formatTime, type Attachment, type Release, type User, escapePathSegments, pathEscape } from '@gitforge/contracts';
import type { RepoUrls } from '../repos/repo.mapper.js';
import type { ReleaseAssetEntity, ReleaseEntity } from './release.entity.js';

/** Where an asset downloads on its own: Gitea's Attachment.DownloadURL, `{root}attachments/{uuid}`. */
export function assetDownloadUrl(rootUrl: string, uuid: string): string {
  return `${rootUrl}attachments/${pathEscape(uuid)}`;
}

/** Gitea's ToAPIAttachment for a release's file, downloaded at `url`. */
export function toReleaseAsset(a: ReleaseAssetEntity, url: string): Attachment {
  return {
    id: a.id,
    name: a.name,
    size: a.size,
    download_count: a.downloadCount,
    created_at: formatTime(a.createdAt),
    uuid: a.uuid,
    browser_download_url: url,
  };
}

/**
 * A release's files as Gitea lists them (GetReleaseAttachments): when their names are unique,
 * each downloads through the release's tag, `{repo html}/releases/download/{tag}/{name}`;
 * otherwise every one by its uuid. `assets` are in name order.
 */
export function toReleaseAssets(assets: ReleaseAssetEntity[], tagName: string, urls: RepoUrls, rootUrl: string): Attachment[] {
  const unique = new Set(assets.map((a) => a.name)).size === assets.length;
  return assets.map((a) =>
    toReleaseAsset(a, unique ? `${urls.html}/releases/download/${pathEscape(tagName)}/${pathEscape(a.name)}` : assetDownloadUrl(rootUrl, a.uuid)),
  );
}

/** Gitea's ToAPIRelease (services/convert/release.go) with the repo_model.Release URL helpers. */
export function toRelease(r: ReleaseEntity, author: User, assets: ReleaseAssetEntity[], urls: RepoUrls, rootUrl: string): Release {
  const tag = escapePathSegments(r.tagName);
  // Gitea keeps one time (set again when a draft is edited or published): both fields answer it.
  const at = formatTime(r.createdAt);
  return {
    id: r.id,
    tag_name: r.tagName,
    target_commitish: r.target,
    name: r.title,
    body: r.note,
    url: `${urls.api}/releases/${r.id}`,
    html_url: `${urls.html}/releases/tag/${tag}`,
    tarball_url: `${urls.html}/archive/${tag}.tar.gz`,
    zipball_url: `${urls.html}/archive/${tag}.zip`,
    upload_url: `${urls.api}/releases/${r.id}/assets`,
    draft: r.isDraft,
    prerelease: r.isPrerelease,
    created_at: at,
    published_at: at,
    author,
    assets: toReleaseAssets(assets, r.tagName, urls, rootUrl),
  };
}
