import { randomBytes } from 'node:crypto';
import { access, mkdir, open, opendir, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Transform, Writable, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobMismatchError, BlobStore, BlobTooLargeError, checkBlobKey, isBlobKeySegment, type BlobPutOptions, type ByteRange, type ListedBlob, type StoredBlob } from './blob-store.js';
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

/** Bytes a new file takes in between two early write-backs (see {@link DurableFile}). */
const EARLY_SYNC_BYTES = 2 * 1024 * 1024;

/**
 * A new file (`wx`) that is on the disk when the stream finishes: it ends with an fsync, and
 * while the bytes still stream it asks the disk every {@link EARLY_SYNC_BYTES} to write back what
 * it has so far (one write-back at a time, not waited for), so that the closing fsync finds only
 * the last bytes to flush. Flushing only at the end made a put wait for the whole file to reach
 * the disk after its last byte (about 9 ms for 10 MiB here, under 1 ms with the write-backs). A
 * write-back's error fails the put: the kernel reports a failed write-back once, to whichever
 * sync asks first.
 */
class DurableFile extends Writable {
  private handle: FileHandle | undefined;
  private unsynced = 0;
  private writingBack: Promise<void> | undefined;
  private writeBackError: Error | undefined;

  constructor(private readonly path: string) {
    super({ highWaterMark: 1024 * 1024 });
  }

  override _construct(callback: (err?: Error | null) => void): void {
    open(this.path, 'wx').then((handle) => {
      this.handle = handle;
      callback();
    }, callback);
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.append([chunk]).then(() => callback(), callback);
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, callback: (err?: Error | null) => void): void {
    this.append(chunks.map((c) => c.chunk)).then(() => callback(), callback);
  }

  override _final(callback: (err?: Error | null) => void): void {
    const finish = async (): Promise<void> => {
      await this.writingBack;
      if (this.writeBackError) throw this.writeBackError;
      await this.handle!.sync();
    };
    finish().then(() => callback(), callback);
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = undefined;
    if (!handle) return callback(err);
    handle.close().then(
      () => callback(err),
      () => callback(err),
    );
  }

  private async append(buffers: Buffer[]): Promise<void> {
    let pending = buffers;
    while (pending.length > 0) {
      const total = pending.reduce((n, b) => n + b.length, 0);
      const { bytesWritten } = await this.handle!.writev(pending);
      if (bytesWritten === 0) throw new Error(`no bytes could be written to ${this.path}`);
      this.unsynced += bytesWritten;
      // A short write (a full disk answers the next one with its error): go on from where it stopped.
      pending = bytesWritten >= total ? [] : rest(pending, bytesWritten);
    }
    if (this.unsynced >= EARLY_SYNC_BYTES && !this.writingBack) {
      this.unsynced = 0;
      this.writingBack = this.handle!.datasync().then(
        () => {
          this.writingBack = undefined;
        },
        (err: Error) => {
          this.writeBackError ??= err;
          this.writingBack = undefined;
        },
      );
    }
  }
}

/** What is left of `buffers` after their first `skip` bytes. */
function rest(buffers: Buffer[], skip: number): Buffer[] {
  const out: Buffer[] = [];
  for (const b of buffers) {
    if (skip >= b.length) {
      skip -= b.length;
      continue;
    }
    out.push(skip > 0 ? b.subarray(skip) : b);
    skip = 0;
  }
  return out;
}

/**
 * {@link BlobStore} on a directory: a key is a path under `root` (the data directory, so
 * attachments land in `<GITFORGE_DATA_DIR>/attachments/…`). In the distributed layout the data
 * directory is a volume shared by the replicas, as repositories are.
 *
 * A put writes a temporary file, flushes it to disk and renames it into place: a crash or a
 * refused upload never leaves a partial file under a key, and a reader sees the old blob or the
 * whole new one. The digests are computed on the digest thread while the bytes stream, and the
 * flush to disk overlaps the stream ({@link DurableFile}).
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
    const file = new DurableFile(tmp);
    try {
      await pipeline(source, limit, digests, file);
      const { sha256, ...others } = await digests.digests();
      const stored: StoredBlob = { size: limit.size, sha256, digests: others };
      const expect = options.expect;
      if (expect?.size !== undefined && expect.size !== stored.size) throw new BlobMismatchError('size');
      if (expect?.sha256 !== undefined && expect.sha256.toLowerCase() !== stored.sha256) throw new BlobMismatchError('sha256');
      await mkdir(dirname(target), { recursive: true });
      await rename(tmp, target);
      return stored;
    } catch (err) {
      // A pipeline that fails at once (a refused upload) can end while the file is still being
      // opened: it is created after that, so it is removed only once it has closed.
      // (Not events.once: the error the file is destroyed with would reject it before the close.)
      if (!file.closed) await new Promise((closed) => file.once('close', closed));
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async open(key: string, range?: ByteRange): Promise<Readable | null> {
    const path = this.path(key);
    try {
      // Opened before it is returned, so a missing blob is a null here, not a stream error later.
      const handle = await open(path, 'r');
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
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

  async *list(prefix: string): AsyncIterable<ListedBlob> {
    const segments = prefix.split('/');
    if (!segments.every(isBlobKeySegment)) throw new Error(`invalid blob key prefix: ${JSON.stringify(prefix)}`);
    yield* this.walk(join(this.root, ...segments), prefix);
  }

  async clearAbandoned(olderThanMs: number): Promise<number> {
    const dir = join(this.root, TMP_DIR);
    const cutoff = Date.now() - olderThanMs;
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
    let removed = 0;
    for (const name of names) {
      const path = join(dir, name);
      // Gone meanwhile (a put that just finished or failed): nothing to do.
      const info = await stat(path).catch(() => null);
      if (!info?.isFile() || info.mtimeMs >= cutoff) continue;
      await rm(path, { force: true });
      removed += 1;
    }
    return removed;
  }

  /**
   * The files under `dir` (the key prefix `key`), depth first; a directory removed meanwhile
   * holds nothing. Names no key could have (a file system's own, such as NFS's `.nfs…` or a
   * `.snapshot` directory) are passed over.
   */
  private async *walk(dir: string, key: string): AsyncIterable<ListedBlob> {
    let entries;
    try {
      entries = await opendir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw err;
    }
    for await (const entry of entries) {
      if (!isBlobKeySegment(entry.name)) continue;
      const path = join(dir, entry.name);
      const child = `${key}/${entry.name}`;
      if (entry.isDirectory()) {
        yield* this.walk(path, child);
      } else if (entry.isFile()) {
        const info = await stat(path).catch(() => null);
        if (info) yield { key: child, modifiedAt: info.mtime };
      }
    }
  }

  private path(key: string): string {
    return join(this.root, ...checkBlobKey(key));
  }
}
