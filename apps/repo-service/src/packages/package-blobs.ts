import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { ContractError } from '@gitforge/contracts';
import { BlobStore, BlobTooLargeError, createLogger, Database, isUniqueViolation } from '@gitforge/platform';
import { PackageBlobEntity, packageBlobKey, PackageFileEntity } from './package.entities.js';

const log = createLogger('package-blobs');

/** A blob a new file can point at; `created` when this upload stored its bytes. */
export interface HeldBlob {
  blob: PackageBlobEntity;
  created: boolean;
}

/**
 * Package bytes in the one BlobStore, content-addressed: a file is streamed into a fresh key
 * while its digests are computed, and when a blob with the same sha256 is already stored the new
 * copy goes again and the stored one is shared (Gitea's package_blob). A blob lives while files
 * point at it: the last file's deletion drops it, and `sweep` (cleanup_packages) drops any left.
 */
@Injectable()
export class PackageBlobs {
  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
  ) {}

  /** Stores `source` (refused past `maxBytes`: 413, nothing left behind) and answers the blob to point at. */
  async store(source: Readable, maxBytes: number): Promise<HeldBlob> {
    const uuid = randomUUID();
    const key = packageBlobKey(uuid);
    // Piped, not handed over: a refused upload must not destroy the request it still answers.
    const upload = new PassThrough();
    source.on('error', (err) => upload.destroy(err));
    source.pipe(upload);
    let stored;
    try {
      // A PackageFile shows these digests besides the sha256.
      stored = await this.blobs.put(key, upload, { maxBytes, digests: ['md5', 'sha1', 'sha512'] });
    } catch (err) {
      source.resume();
      if (err instanceof BlobTooLargeError) throw new ContractError('payload_too_large', `file exceeds the limit of ${maxBytes} bytes`);
      throw err;
    }
    const existing = await this.db.findOneBy(PackageBlobEntity, { sha256: stored.sha256 });
    if (existing) {
      await this.blobs.delete(key);
      return { blob: existing, created: false };
    }
    try {
      const row = this.db.manager.create(PackageBlobEntity, { uuid, sha256: stored.sha256, size: stored.size, md5: stored.digests.md5, sha1: stored.digests.sha1, sha512: stored.digests.sha512, createdAt: new Date() });
      return { blob: await this.db.manager.save(row), created: true };
    } catch (err) {
      await this.blobs.delete(key);
      // The same bytes were stored by a parallel upload a moment ago: share its blob.
      if (isUniqueViolation(err)) {
        const winner = await this.db.findOneBy(PackageBlobEntity, { sha256: stored.sha256 });
        if (winner) return { blob: winner, created: false };
      }
      throw err;
    }
  }

  /**
   * The blob `id` still exists inside `m`'s transaction (a parallel deletion may have dropped a
   * shared one). On PostgreSQL the row stays share-locked until the commit, so a parallel
   * `releaseUnreferenced` waits and then sees the file this transaction points at it.
   */
  async stillThere(m: EntityManager, id: number): Promise<void> {
    if (!(await m.findOne(PackageBlobEntity, { where: { id }, ...this.db.sql.rowLock('pessimistic_read') }))) throw new ContractError('conflict', 'the stored file went away during the upload, retry');
  }

  /** Removes the rows of those of `ids` no file points at, inside `m`; answers their keys for `drop` after the commit. */
  async releaseUnreferenced(m: EntityManager, ids: number[]): Promise<string[]> {
    const unique = [...new Set(ids)].sort((a, b) => a - b);
    if (unique.length === 0) return [];
    // Lock the rows first (PostgreSQL): an upload pointing a new file at one of them (stillThere) commits before the files are counted.
    if (this.db.sql.locksRows) await m.find(PackageBlobEntity, { where: { id: In(unique) }, order: { id: 'ASC' }, ...this.db.sql.rowLock('pessimistic_write') });
    const used = new Set((await m.find(PackageFileEntity, { where: { blobId: In(unique) }, select: { blobId: true } })).map((f) => f.blobId));
    const free = unique.filter((id) => !used.has(id));
    if (free.length === 0) return [];
    const rows = await m.find(PackageBlobEntity, { where: { id: In(free) } });
    await m.delete(PackageBlobEntity, { id: In(free) });
    return rows.map((r) => packageBlobKey(r.uuid));
  }

  /** Deletes stored bytes whose rows are gone. Failures are logged: the sweep finds nothing left to do for them, so they are reported once. */
  async drop(keys: string[]): Promise<void> {
    for (const key of keys) await this.blobs.delete(key).catch((err: unknown) => log.warn({ err, key }, 'could not remove a package blob'));
  }

  /** Undoes `store` when no file came to point at a blob it created. */
  async forget(held: HeldBlob): Promise<void> {
    if (!held.created) return;
    const keys = await this.db.transaction((m) => this.releaseUnreferenced(m, [held.blob.id]));
    await this.drop(keys);
  }

  /** cleanup_packages: blobs no file points at that are older than `olderThanMs` (younger ones may be an upload in flight). */
  async sweep(olderThanMs: number): Promise<number> {
    const cutoff = new Date(Date.now() - olderThanMs);
    const orphans = await this.db.manager
      .createQueryBuilder(PackageBlobEntity, 'b')
      .where('b.created_at < :cutoff', { cutoff: cutoff.getTime() })
      .andWhere('NOT EXISTS (SELECT 1 FROM package_file f WHERE f.blob_id = b.id)')
      .getMany();
    if (orphans.length === 0) return 0;
    const keys = await this.db.transaction((m) => this.releaseUnreferenced(m, orphans.map((o) => o.id)));
    await this.drop(keys);
    return keys.length;
  }
}
