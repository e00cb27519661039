import { Transform, type TransformCallback } from 'node:stream';
import { Worker } from 'node:worker_threads';

export type DigestAlgorithm = 'md5' | 'sha1' | 'sha256' | 'sha512';

/** What DigestThread sends its worker (digest-worker.ts): `bytes` is a slab, of which `length` bytes are filled. */
export type DigestRequest =
  | { op: 'open'; id: number; algorithms: DigestAlgorithm[] }
  | { op: 'data'; id: number; bytes: ArrayBuffer; length: number }
  | { op: 'end'; id: number }
  | { op: 'abort'; id: number };

/** What the worker answers: a slab hashed and handed back, or a stream's digests in the order they were asked for. */
export type DigestReply = { op: 'ack'; id: number; bytes: ArrayBuffer } | { op: 'digests'; id: number; hex: string[] };

/**
 * The compiled digest-worker beside this module. Tests run this module from its TypeScript
 * source (ts-jest), where the worker exists only as built by `npm test`'s build step.
 */
function workerScript(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('../../dist/storage/digest-worker.js', here) : new URL('./digest-worker.js', here);
}

/**
 * Bytes go to the worker in slabs: a fixed set of buffers moved (not copied) to the worker and
 * back. When every slab is with the worker, streams wait for one to return, so a client sending
 * faster than the hashes run neither piles the file up in memory nor leaves garbage behind:
 * memory stays flat in the file size.
 */
const SLAB_BYTES = 256 * 1024;
const SLABS = 16;

interface OpenDigest {
  /** The slab being filled, and how far. */
  slab: ArrayBuffer | undefined;
  fill: number;
  done: { resolve(hex: string[]): void; reject(err: Error): void } | undefined;
}

/**
 * Hashes streams on a worker thread. Digesting an upload with md5, sha1 and sha512 (a package
 * file's digests) costs about three times its sha256; done on the event loop it held up the
 * upload itself and every other request of the process. One worker per process serves every
 * stream, started on first use; it holds the process open only while a stream is open.
 */
export class DigestThread {
  private static instance: DigestThread | undefined;

  /** The process's thread. */
  static shared(): DigestThread {
    return (DigestThread.instance ??= new DigestThread());
  }

  private worker: Worker | undefined;
  private nextId = 1;
  private readonly streams = new Map<number, OpenDigest>();
  private readonly free: ArrayBuffer[] = [];
  private allocated = 0;
  /** Streams waiting for a slab, first come first served. */
  private waiting: Array<{ id: number; wake: () => void }> = [];

  constructor(private readonly script: URL = workerScript()) {}

  open(algorithms: readonly DigestAlgorithm[]): number {
    const id = this.nextId++;
    this.streams.set(id, { slab: undefined, fill: 0, done: undefined });
    this.post({ op: 'open', id, algorithms: [...algorithms] });
    return id;
  }

  /** Copies `chunk` into the stream's slabs; a promise when it must wait for a slab to come back. */
  feed(id: number, chunk: Uint8Array): Promise<void> | undefined {
    const stream = this.streams.get(id);
    if (!stream) return Promise.reject(new Error('digest stream is not open'));
    let offset = 0;
    while (offset < chunk.byteLength) {
      stream.slab ??= this.takeSlab();
      if (!stream.slab) {
        // Slabs that other streams fill between their chunks (a slow client's upload) would hold the
        // pool for as long as those clients take: they go to be hashed now, and come back.
        this.sendPartlyFilled();
        const rest = chunk.subarray(offset);
        return new Promise<void>((wake) => this.waiting.push({ id, wake })).then(() => {
          if (this.streams.has(id)) return this.feed(id, rest);
          // Gone between its wake-up and now: the slab it was woken for goes to the next in line.
          this.wakeNext();
          throw new Error('digest stream is not open');
        });
      }
      const n = Math.min(chunk.byteLength - offset, SLAB_BYTES - stream.fill);
      new Uint8Array(stream.slab, stream.fill, n).set(chunk.subarray(offset, offset + n));
      stream.fill += n;
      offset += n;
      if (stream.fill === SLAB_BYTES) this.send(id, stream);
    }
    return undefined;
  }

  /** The stream's digests (hex, in the order of its algorithms), once the worker has hashed every chunk. */
  finish(id: number): Promise<string[]> {
    const stream = this.streams.get(id);
    if (!stream) return Promise.reject(new Error('digest stream is not open'));
    return new Promise<string[]>((resolve, reject) => {
      stream.done = { resolve, reject };
      if (stream.fill > 0) this.send(id, stream);
      this.post({ op: 'end', id });
    });
  }

  abort(id: number): void {
    const stream = this.streams.get(id);
    if (!stream) return;
    this.streams.delete(id);
    // A stream waiting for a slab stops waiting, or the slab it would have been woken for is lost to the others.
    this.waiting = this.waiting.filter((w) => w.id !== id);
    if (stream.slab) this.giveBack(stream.slab);
    this.post({ op: 'abort', id });
    this.settleRef();
  }

  /** Stops the worker; open streams fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('digest thread closed'));
    await worker?.terminate();
  }

  private takeSlab(): ArrayBuffer | undefined {
    const slab = this.free.pop();
    if (slab || this.allocated >= SLABS) return slab;
    this.allocated++;
    return new ArrayBuffer(SLAB_BYTES);
  }

  private giveBack(slab: ArrayBuffer): void {
    this.free.push(slab);
    this.wakeNext();
  }

  private wakeNext(): void {
    if (this.free.length > 0 || this.allocated < SLABS) this.waiting.shift()?.wake();
  }

  private sendPartlyFilled(): void {
    for (const [id, stream] of this.streams) if (stream.slab && stream.fill > 0) this.send(id, stream);
  }

  private send(id: number, stream: OpenDigest): void {
    const slab = stream.slab!;
    this.post({ op: 'data', id, bytes: slab, length: stream.fill }, [slab]);
    stream.slab = undefined;
    stream.fill = 0;
  }

  private post(message: DigestRequest, transfer?: ArrayBuffer[]): void {
    const worker = (this.worker ??= this.start());
    worker.ref();
    worker.postMessage(message, transfer);
  }

  private start(): Worker {
    const worker = new Worker(this.script);
    // Slabs a replaced worker still hands back were counted out when it went (failAll).
    worker.on('message', (m: DigestReply) => {
      if (this.worker === worker) this.onReply(m);
    });
    const gone = (err: Error): void => {
      // A worker closed on purpose has failed its streams already; later ones belong to the next worker.
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(err);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`digest worker exited with code ${code}`)));
    return worker;
  }

  private onReply(m: DigestReply): void {
    if (m.op === 'ack') return this.giveBack(m.bytes);
    const stream = this.streams.get(m.id);
    if (!stream) return;
    this.streams.delete(m.id);
    stream.done?.resolve(m.hex);
    this.settleRef();
  }

  private failAll(err: Error): void {
    const open = [...this.streams.values()];
    this.streams.clear();
    // Slabs that were with the worker are gone with it.
    this.allocated = this.free.length;
    for (const stream of open) stream.done?.reject(err);
    const waiting = this.waiting;
    this.waiting = [];
    for (const { wake } of waiting) wake();
  }

  /** The worker keeps the process alive only while a stream waits on it. */
  private settleRef(): void {
    if (this.streams.size === 0) this.worker?.unref();
  }
}

/**
 * A pass-through stream that digests what goes through it on the {@link DigestThread}, without
 * holding up the bytes: `digests()` answers once the stream has ended and the worker is done.
 */
export class DigestStream<A extends DigestAlgorithm> extends Transform {
  private id: number | undefined;
  private result: Promise<string[]> | undefined;

  constructor(
    private readonly algorithms: readonly A[],
    private readonly thread: DigestThread = DigestThread.shared(),
  ) {
    super();
  }

  /** Each algorithm's hex digest; fails when the stream did not end or the worker failed. */
  async digests(): Promise<Record<A, string>> {
    if (!this.result) throw new Error('the digested stream has not ended');
    const hex = await this.result;
    return Object.fromEntries(this.algorithms.map((a, i) => [a, hex[i]])) as Record<A, string>;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    const wait = this.thread.feed(this.streamId(), chunk);
    if (!wait) return callback(null, chunk);
    wait.then(
      () => callback(null, chunk),
      (err: Error) => callback(err),
    );
  }

  override _flush(callback: TransformCallback): void {
    this.result = this.thread.finish(this.streamId());
    // Read by digests(); a failure before then must not be an unhandled rejection.
    this.result.catch(() => undefined);
    callback();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    if (this.id !== undefined && !this.result) this.thread.abort(this.id);
    callback(err);
  }

  private streamId(): number {
    return (this.id ??= this.thread.open(this.algorithms));
  }
}
