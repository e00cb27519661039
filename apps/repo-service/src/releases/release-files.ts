import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { EntityManager } from 'typeorm';
import { createLogger, type BlobStore } from '@gitforge/platform';
import { releaseAssetBlobKey, ReleaseAssetEntity } from './release.entity.js';

const log = createLogger('release-files');

/** Where a repository's cached archives live: `{data}/repo-archives/{repoId}` (see Archives). */
export function archiveCacheDir(dataDir: string, repoId: number): string {
  return join(resolve(dataDir, 'repo-archives'), String(repoId));
}

/** The blob uuids of a repository's release assets, read before its rows go (repository deletion). */
export async function releaseAssetUuids(m: EntityManager, repoId: number): Promise<string[]> {
  return (await m.find(ReleaseAssetEntity, { where: { repoId }, select: { uuid: true } })).map((a) => a.uuid);
}

/** After a repository's rows are gone: its asset files and its cached archives. Failures are logged, not thrown. */
export async function dropReleaseFiles(blobs: BlobStore, dataDir: string, repoId: number, uuids: string[]): Promise<void> {
  for (const uuid of uuids) {
    await blobs.delete(releaseAssetBlobKey(uuid)).catch((err: unknown) => log.warn({ err, uuid }, 'could not remove the file of a release asset'));
  }
  await rm(archiveCacheDir(dataDir, repoId), { recursive: true, force: true }).catch((err: unknown) => log.warn({ err, repoId }, 'could not remove cached archives'));
}
