import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { ContractError } from '@gitforge/contracts';
import { BlobStore, BlobTooLargeError, createLogger, Database } from '@gitforge/platform';
import { PACKAGE_BLOB_PREFIX, PackageBlobEntity, packageBlobKey, PackageFileEntity } from './package.entities.js';

const log = createLogger('package-blobs');

/** Blob keys looked up per query while sweeping bytes no row names. */
const SWEEP_BATCH = 500;
/**
 * Least age of bytes the sweep removes without a row to go by, whatever age the task is given:
 * staged bytes no row names (their upload's transaction follows the staging at once) and partial
 * files (a put under way writes to its file all along). An hour also covers a clock on a shared
 * volume's file server that runs ahead of the replica's.
 */
const UNNAMED_BYTES_MIN_AGE_MS = 60 * 60 * 1000;

/** Bytes streamed into a fresh key, with their digests, that no blob row points at yet. */
export interface StagedBytes {
  uuid: string;
  size: number;
  sha256: string;
  md5: string;
  sha1: string;
  sha512: string;
}

/** The blob a new file points at: one already stored with the same bytes, or a row made for the staged ones (`created`). */
export interface HeldBlob {
  blob: PackageBlobEntity;
  created: boolean;
}

/**
 * Package bytes in the one BlobStore, content-addressed (Gitea's package_blob): a file is
 * streamed into a fresh key while its digests are computed (`stage`), and the transaction that
 * adds the file takes the stored blob with the same sha256 or makes a row for the staged bytes
 * (`hold`); afterwards the staged bytes go unless they became the blob (`settle`). A blob lives
 * while files point at it: the last file's deletion drops it, and `sweep` (cleanup_packages)
 * drops any left.
 */
@Injectable()
export class PackageBlobs {
  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
  ) {}

  /**
   * Streams `source` into a fresh key (refused past `maxBytes`: 413) while `checks` run, so that
   * the bytes do not wait for the caller's queries. A failed check stops the upload and answers
   * its error; whatever failed, nothing is left behind.
   */
  async stage<T>(source: Readable, maxBytes: number, checks: () => Promise<T>): Promise<{ checked: T; staged: StagedBytes }> {
    const uuid = randomUUID();
    const key = packageBlobKey(uuid);
    // Piped, not handed over: a refused upload must not destroy the request it still answers.
    const upload = new PassThrough();
    source.on('error', (err) => upload.destroy(err));
    source.pipe(upload);
    // A package file shows these digests besides the sha256.
    const storing = this.blobs.put(key, upload, { maxBytes, digests: ['md5', 'sha1', 'sha512'] });
    // Read below, after the checks: a failure meanwhile is not an unhandled rejection.
    storing.catch(() => undefined);
    let checked: T;
    try {
      checked = await checks();
    } catch (err) {
      source.unpipe(upload);
      upload.destroy();
      source.resume();
      await storing.then(
        () => this.drop([key]),
        () => undefined,
      );
      throw err;
    }
    try {
      const stored = await storing;
      return { checked, staged: { uuid, size: stored.size, sha256: stored.sha256, md5: stored.digests.md5!, sha1: stored.digests.sha1!, sha512: stored.digests.sha512! } };
    } catch (err) {
      source.resume();
      if (err instanceof BlobTooLargeError) throw new ContractError('payload_too_large', `file exceeds the limit of ${maxBytes} bytes`);
      throw err;
    }
  }

  /**
   * Inside the transaction that points a new file at the bytes: the stored blob with their
   * sha256, or a new row for the staged bytes. On PostgreSQL the blob stays share-locked until
   * the commit, so a parallel `releaseUnreferenced` waits and then sees the new file; when a
   * parallel upload of the same new bytes inserts them first, the insert here waits for its
   * commit and takes its row instead of failing the transaction.
   */
  async hold(m: EntityManager, staged: StagedBytes): Promise<HeldBlob> {
    const lock = this.db.sql.rowLock('pessimistic_read');
    const stored = await m.findOne(PackageBlobEntity, { where: { sha256: staged.sha256 }, ...lock });
    if (stored) return { blob: stored, created: false };
    const { uuid, size, sha256, md5, sha1, sha512 } = staged;
    await m.createQueryBuilder().insert().into(PackageBlobEntity).values({ uuid, size, sha256, md5, sha1, sha512, createdAt: new Date() }).orIgnore().execute();
    const blob = await m.findOne(PackageBlobEntity, { where: { sha256 }, ...lock });
    // The other upload's blob went with its last file meanwhile: rare enough to ask for the upload again.
    if (!blob) throw new ContractError('conflict', 'the stored file went away during the upload, retry');
    return { blob, created: blob.uuid === uuid };
  }

  /**
   * After the transaction: the staged bytes go unless they became the blob (`held`, committed,
   * `created`). A transaction that failed may still have committed (its connection lost at
   * COMMIT): bytes a row names, or that cannot be checked, stay (if no row names them after
   * all, the sweep removes them later).
   */
  async settle(staged: StagedBytes, held: HeldBlob | null): Promise<void> {
    if (held?.created) return;
    if (!held) {
      const named = await this.db.findOneBy(PackageBlobEntity, { uuid: staged.uuid }).then(
        (row) => row !== null,
        () => true,
      );
      if (named) return;
    }
    await this.drop([packageBlobKey(staged.uuid)]);
  }

  /** Removes the rows of those of `ids` no file points at, inside `m`; answers their keys for `drop` after the commit. */
  async releaseUnreferenced(m: EntityManager, ids: number[]): Promise<string[]> {
    const unique = [...new Set(ids)].sort((a, b) => a - b);
    if (unique.length === 0) return [];
    // Lock the rows first (PostgreSQL): an upload pointing a new file at one of them (hold) commits before the files are counted.
    if (this.db.sql.locksRows) await m.find(PackageBlobEntity, { where: { id: In(unique) }, order: { id: 'ASC' }, ...this.db.sql.rowLock('pessimistic_write') });
    const used = new Set((await m.find(PackageFileEntity, { where: { blobId: In(unique) }, select: { blobId: true } })).map((f) => f.blobId));
    const free = unique.filter((id) => !used.has(id));
    if (free.length === 0) return [];
    const rows = await m.find(PackageBlobEntity, { where: { id: In(free) } });
    await m.delete(PackageBlobEntity, { id: In(free) });
    return rows.map((r) => packageBlobKey(r.uuid));
  }

  /** Deletes stored bytes whose rows are gone; answers how many went. Failures are logged, and the sweep tries those bytes again, since no row names them. */
  async drop(keys: string[]): Promise<number> {
    let dropped = 0;
    for (const key of keys) {
      await this.blobs.delete(key).then(
        () => (dropped += 1),
        (err: unknown) => log.warn({ err, key }, 'could not remove a package blob'),
      );
    }
    return dropped;
  }

  /**
   * cleanup_packages, for what is older than `olderThanMs`: blob rows no file points at (rows
   * stored by earlier builds may be left), stored bytes no row names (a process that crashed
   * between staging an upload and committing its row), and the partial files of puts that never
   * finished (a process killed mid-upload). Answers how many blobs went.
   */
  async sweep(olderThanMs: number): Promise<number> {
    const cutoff = new Date(Date.now() - olderThanMs);
    const orphans = await this.db.manager
      .createQueryBuilder(PackageBlobEntity, 'b')
      .where('b.created_at < :cutoff', { cutoff: cutoff.getTime() })
      .andWhere('NOT EXISTS (SELECT 1 FROM package_file f WHERE f.blob_id = b.id)')
      .getMany();
    const keys = orphans.length === 0 ? [] : await this.db.transaction((m) => this.releaseUnreferenced(m, orphans.map((o) => o.id)));
    await this.drop(keys);
    const unnamedAge = Math.max(olderThanMs, UNNAMED_BYTES_MIN_AGE_MS);
    const stranded = await this.sweepStranded(new Date(Date.now() - unnamedAge));
    const partial = await this.blobs.clearAbandoned(unnamedAge);
    if (stranded > 0 || partial > 0) log.info({ stranded, partial }, 'removed package bytes that no row named');
    return keys.length + stranded;
  }

  /**
   * Bytes under the packages prefix, last written before `cutoff`, that no blob row names. A
   * staged upload gets its row in the transaction that follows the staging at once, so bytes
   * that old without one never will.
   */
  private async sweepStranded(cutoff: Date): Promise<number> {
    let removed = 0;
    let batch: Array<{ key: string; uuid: string }> = [];
    const settle = async (): Promise<void> => {
      const named = await this.db.manager.find(PackageBlobEntity, { where: { uuid: In(batch.map((b) => b.uuid)) }, select: { uuid: true } });
      const kept = new Set(named.map((r) => r.uuid));
      removed += await this.drop(batch.filter((b) => !kept.has(b.uuid)).map((b) => b.key));
      batch = [];
    };
    for await (const blob of this.blobs.list(PACKAGE_BLOB_PREFIX)) {
      if (blob.modifiedAt >= cutoff) continue;
      batch.push({ key: blob.key, uuid: blob.key.slice(blob.key.lastIndexOf('/') + 1) });
      if (batch.length >= SWEEP_BATCH) await settle();
    }
    if (batch.length > 0) await settle();
    return removed;
  }
}
