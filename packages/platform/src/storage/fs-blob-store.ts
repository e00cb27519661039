import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobMismatchError, BlobStore, BlobTooLargeError, checkBlobKey, type BlobPutOptions, type StoredBlob } from './blob-store.js';
import { DigestStream, DigestThread } from './digests.js';

/** Temporary files live beside the blobs, on the same filesystem, so the final rename is atomic. */
const TMP_DIR = '.blob-tmp';

/** Counts the bytes going through, and fails past the limit. */
class Limit extends Transform {
  size = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return callback(new BlobTooLargeError(this.maxBytes));
    callback(null, chunk);
  }
}

/**
 * {@link BlobStore} on a directory: a key is a path under `root` (the data directory, so
 * attachments land in `<GITFORGE_DATA_DIR>/attachments/…`). In the distributed layout the data
 * directory is a volume shared by the replicas, as repositories are.
 *
 * A put writes a temporary file, flushes it to disk and renames it into place: a crash or a
 * refused upload never leaves a partial file under a key, and a reader sees the old blob or the
 * whole new one. The digests are computed on the digest thread while the bytes stream, and the
 * flush to disk overlaps the last of them.
 */
export class FsBlobStore extends BlobStore {
  private readonly root: string;

  constructor(
    root: string,
    private readonly thread: DigestThread = DigestThread.shared(),
  ) {
    super();
    this.root = resolve(root);
  }

  async put(key: string, source: Readable, options: BlobPutOptions = {}): Promise<StoredBlob> {
    const target = this.path(key);
    const tmpDir = join(this.root, TMP_DIR);
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, `${randomBytes(12).toString('hex')}.tmp`);
    const limit = new Limit(options.maxBytes ?? Number.POSITIVE_INFINITY);
    const extra = (options.digests ?? []).filter((a) => a !== 'sha256');
    const digests = new DigestStream(['sha256', ...extra], this.thread);
    try {
      await pipeline(source, limit, digests, createWriteStream(tmp, { flags: 'wx' }));
      const [hex] = await Promise.all([digests.digests(), flush(tmp)]);
      const { sha256, ...rest } = hex;
      const stored: StoredBlob = { size: limit.size, sha256, digests: rest };
      const expect = options.expect;
      if (expect?.size !== undefined && expect.size !== stored.size) throw new BlobMismatchError('size');
      if (expect?.sha256 !== undefined && expect.sha256.toLowerCase() !== stored.sha256) throw new BlobMismatchError('sha256');
      await mkdir(dirname(target), { recursive: true });
      await rename(tmp, target);
      return stored;
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
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

/** Flushes a written file to disk. */
async function flush(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
