import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobMismatchError, BlobStore, BlobTooLargeError, checkBlobKey, type BlobExpectation, type StoredBlob } from './blob-store.js';

/** Temporary files live beside the blobs, on the same filesystem, so the final rename is atomic. */
const TMP_DIR = '.blob-tmp';

/** Counts and hashes the bytes going through, and fails past the limit. */
class Measure extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return callback(new BlobTooLargeError(this.maxBytes));
    this.hash.update(chunk);
    callback(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/**
 * {@link BlobStore} on a directory: a key is a path under `root` (the data directory, so
 * attachments land in `<GITFORGE_DATA_DIR>/attachments/…`). In the distributed layout the data
 * directory is a volume shared by the replicas, as repositories are.
 *
 * A put writes a temporary file, flushes it to disk and renames it into place: a crash or a
 * refused upload never leaves a partial file under a key, and a reader sees the old blob or the
 * whole new one.
 */
export class FsBlobStore extends BlobStore {
  private readonly root: string;

  constructor(root: string) {
    super();
    this.root = resolve(root);
  }

  async put(key: string, source: Readable, options: { maxBytes?: number; expect?: BlobExpectation } = {}): Promise<StoredBlob> {
    const target = this.path(key);
    const tmpDir = join(this.root, TMP_DIR);
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, `${randomBytes(12).toString('hex')}.tmp`);
    const measure = new Measure(options.maxBytes ?? Number.POSITIVE_INFINITY);
    let stored: StoredBlob;
    try {
      await pipeline(source, measure, createWriteStream(tmp, { flags: 'wx' }));
      stored = { size: measure.size, sha256: measure.digest() };
      const expect = options.expect;
      if (expect?.size !== undefined && expect.size !== stored.size) throw new BlobMismatchError('size');
      if (expect?.sha256 !== undefined && expect.sha256.toLowerCase() !== stored.sha256) throw new BlobMismatchError('sha256');
      const handle = await open(tmp, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await mkdir(dirname(target), { recursive: true });
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return stored;
  }

  async open(key: string): Promise<Readable | null> {
    const path = this.path(key);
    try {
      // Opened before it is returned, so a missing blob is a null here, not a stream error later.
      const handle = await open(path, 'r');
      return handle.createReadStream();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      await access(this.path(key));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  private path(key: string): string {
    return join(this.root, ...checkBlobKey(key));
  }
}
