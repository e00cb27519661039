import { Transform, type TransformCallback } from 'node:stream';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { compiledScript } from '../bootstrap/compiled-script.js';

export type DigestAlgorithm = 'md5' | 'sha1' | 'sha256' | 'sha512';

/**
 * What DigestThread sends a worker (digest-worker.ts): `bytes` is a shared slab, of which `length`
 * bytes are filled; `slab` names it in the acknowledgement.
 */
export type DigestRequest =
  | { op: 'open'; id: number; algorithms: DigestAlgorithm[] }
  | { op: 'data'; id: number; slab: number; bytes: SharedArrayBuffer; length: number }
  | { op: 'end'; id: number }
  | { op: 'abort'; id: number };

/** What a worker answers: a slab hashed (it may be refilled once every worker it went to is done), or a stream's digests in the order they were asked for. */
export type DigestReply = { op: 'ack'; id: number; slab: number } | { op: 'digests'; id: number; hex: string[] };

/**
 * Bytes go to the workers in slabs: a fixed set of shared buffers that every worker hashing the
 * stream reads (nothing is copied twice). When every slab is out, streams wait for one to come
 * back, so a client sending faster than the hashes run neither piles the file up in memory nor
 * leaves garbage behind: memory stays flat in the file size.
 */
const SLAB_BYTES = 256 * 1024;
const SLABS = 16;

/** Relative cost of each algorithm per byte (OpenSSL on x86-64 with SHA extensions), to split a stream's work evenly; integers, so the sums never drift. */
const COST: Record<DigestAlgorithm, number> = { md5: 25, sha512: 20, sha256: 12, sha1: 10 };

/** The part of a stream one worker hashes: the indices of its algorithms in the stream's list. */
interface Part {
  worker: number;
  algorithms: number[];
  hex: string[] | undefined;
}

interface OpenDigest {
  algorithms: readonly DigestAlgorithm[];
  /** The slab being filled, and how far. */
  slab: number | undefined;
  fill: number;
  parts: Part[];
  done: { resolve(hex: string[]): void; reject(err: Error): void } | undefined;
}

/** How many workers hash: two where there is a second core, so one upload's digests finish in about half the time. */
function defaultWorkers(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

/**
 * Hashes streams on worker threads. Digesting an upload with md5, sha1, sha256 and sha512 (a
 * package file's digests) costs several times the copy of its bytes; done on the event loop it
 * held up the upload itself and every other request of the process, and done on one worker the
 * upload still waited after its last byte for that worker to catch up. A stream's algorithms are
 * split between the workers (a few, started on first use, serving every stream of the process);
 * they hold the process open only while a stream is open.
 */
export class DigestThread {
  private static instance: DigestThread | undefined;

  /** The process's threads. */
  static shared(): DigestThread {
    return (DigestThread.instance ??= new DigestThread());
  }

  private readonly workers: Array<Worker | undefined>;
  /** Each worker's share of the open streams' work, to place the next stream's algorithms. */
  private readonly load: number[];
  private nextId = 1;
  private readonly streams = new Map<number, OpenDigest>();
  /** Every slab by number; those in `out` wait for that many workers to finish with them. */
  private readonly slabs = new Map<number, SharedArrayBuffer>();
  private readonly out = new Map<number, number>();
  private readonly free: number[] = [];
  private nextSlab = 1;
  /** Streams waiting for a slab, first come first served. */
  private waiting: Array<{ id: number; wake: () => void }> = [];

  constructor(
    private readonly script: URL = compiledScript(import.meta.url, 'digest-worker'),
    workers = defaultWorkers(),
  ) {
    this.workers = Array.from({ length: Math.max(1, workers) }, () => undefined);
    this.load = this.workers.map(() => 0);
  }

  open(algorithms: readonly DigestAlgorithm[]): number {
    const id = this.nextId++;
    const parts = this.split(algorithms);
    this.streams.set(id, { algorithms, slab: undefined, fill: 0, parts, done: undefined });
    for (const part of parts) this.post(part.worker, { op: 'open', id, algorithms: part.algorithms.map((i) => algorithms[i]!) });
    return id;
  }

  /** Copies `chunk` into the stream's slabs; a promise when it must wait for a slab to come back. */
  feed(id: number, chunk: Uint8Array): Promise<void> | undefined {
    const stream = this.streams.get(id);
    if (!stream) return Promise.reject(new Error('digest stream is not open'));
    // No algorithm: nothing to hash, and no worker to give a slab back.
    if (stream.parts.length === 0) return undefined;
    let offset = 0;
    while (offset < chunk.byteLength) {
      stream.slab ??= this.takeSlab();
      if (stream.slab === undefined) {
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
      new Uint8Array(this.slabs.get(stream.slab)!, stream.fill, n).set(chunk.subarray(offset, offset + n));
      stream.fill += n;
      offset += n;
      if (stream.fill === SLAB_BYTES) this.send(id, stream);
    }
    return undefined;
  }

  /** The stream's digests (hex, in the order of its algorithms), once the workers have hashed every chunk. */
  finish(id: number): Promise<string[]> {
    const stream = this.streams.get(id);
    if (!stream) return Promise.reject(new Error('digest stream is not open'));
    if (stream.parts.length === 0) {
      this.forget(id, stream);
      return Promise.resolve([]);
    }
    return new Promise<string[]>((resolve, reject) => {
      stream.done = { resolve, reject };
      if (stream.fill > 0) this.send(id, stream);
      for (const part of stream.parts) this.post(part.worker, { op: 'end', id });
    });
  }

  abort(id: number): void {
    const stream = this.streams.get(id);
    if (!stream) return;
    this.forget(id, stream);
    // A stream waiting for a slab stops waiting, or the slab it would have been woken for is lost to the others.
    this.waiting = this.waiting.filter((w) => w.id !== id);
    if (stream.slab !== undefined) this.giveBack(stream.slab);
    for (const part of stream.parts) this.post(part.worker, { op: 'abort', id });
    this.settleRef();
  }

  /** Stops the workers; open streams fail. */
  async close(): Promise<void> {
    const workers = this.workers.splice(0, this.workers.length, ...this.workers.map(() => undefined));
    this.failAll(new Error('digest thread closed'));
    await Promise.all(workers.map((w) => w?.terminate()));
  }

  /** The stream's algorithms (by index) over the workers: the costliest first, each to the least loaded. */
  private split(algorithms: readonly DigestAlgorithm[]): Part[] {
    const parts = new Map<number, Part>();
    const order = algorithms.map((a, i) => ({ a, i })).sort((x, y) => COST[y.a] - COST[x.a]);
    for (const { a, i } of order) {
      let worker = 0;
      for (let w = 1; w < this.load.length; w++) if (this.load[w]! < this.load[worker]!) worker = w;
      this.load[worker]! += COST[a];
      const part = parts.get(worker) ?? { worker, algorithms: [], hex: undefined };
      part.algorithms.push(i);
      parts.set(worker, part);
    }
    return [...parts.values()];
  }

  /** The stream leaves the books, and its share of the workers' load with it. */
  private forget(id: number, stream: OpenDigest): void {
    this.streams.delete(id);
    for (const part of stream.parts) for (const i of part.algorithms) this.load[part.worker]! -= COST[stream.algorithms[i]!];
  }

  private takeSlab(): number | undefined {
    const slab = this.free.pop();
    if (slab !== undefined || this.slabs.size >= SLABS) return slab;
    const id = this.nextSlab++;
    this.slabs.set(id, new SharedArrayBuffer(SLAB_BYTES));
    return id;
  }

  private giveBack(slab: number): void {
    if (!this.slabs.has(slab)) return;
    this.free.push(slab);
    this.wakeNext();
  }

  private wakeNext(): void {
    if (this.free.length > 0 || this.slabs.size < SLABS) this.waiting.shift()?.wake();
  }

  private sendPartlyFilled(): void {
    for (const [id, stream] of this.streams) if (stream.slab !== undefined && stream.fill > 0) this.send(id, stream);
  }

  private send(id: number, stream: OpenDigest): void {
    const slab = stream.slab!;
    this.out.set(slab, stream.parts.length);
    for (const part of stream.parts) this.post(part.worker, { op: 'data', id, slab, bytes: this.slabs.get(slab)!, length: stream.fill });
    stream.slab = undefined;
    stream.fill = 0;
  }

  private post(index: number, message: DigestRequest): void {
    const worker = (this.workers[index] ??= this.start(index));
    worker.ref();
    worker.postMessage(message);
  }

  private start(index: number): Worker {
    const worker = new Worker(this.script);
    worker.on('message', (m: DigestReply) => {
      if (this.workers[index] === worker) this.onReply(index, m);
    });
    const gone = (err: Error): void => {
      // A worker closed on purpose has failed its streams already; later ones belong to the next worker.
      if (this.workers[index] !== worker) return;
      this.workers[index] = undefined;
      this.failAll(err);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`digest worker exited with code ${code}`)));
    return worker;
  }

  private onReply(index: number, m: DigestReply): void {
    if (m.op === 'ack') {
      const left = (this.out.get(m.slab) ?? 1) - 1;
      if (left > 0) return void this.out.set(m.slab, left);
      this.out.delete(m.slab);
      return this.giveBack(m.slab);
    }
    const stream = this.streams.get(m.id);
    const part = stream?.parts.find((p) => p.worker === index);
    if (!stream || !part) return;
    part.hex = m.hex;
    if (stream.parts.some((p) => !p.hex)) return;
    this.forget(m.id, stream);
    const hex: string[] = [];
    for (const p of stream.parts) for (const [k, i] of p.algorithms.entries()) hex[i] = p.hex![k]!;
    stream.done?.resolve(hex);
    this.settleRef();
  }

  private failAll(err: Error): void {
    const open = [...this.streams.entries()];
    this.streams.clear();
    this.load.fill(0);
    // Workers still running drop the failed streams' hashes, and stop holding the process open.
    for (const [id, stream] of open) for (const part of stream.parts) this.workers[part.worker]?.postMessage({ op: 'abort', id } satisfies DigestRequest);
    for (const w of this.workers) w?.unref();
    // Slabs that were out are written off with the streams: a late acknowledgement finds no slab.
    for (const slab of this.out.keys()) this.slabs.delete(slab);
    this.out.clear();
    for (const [, stream] of open) if (stream.slab !== undefined) this.giveBack(stream.slab);
    for (const [, stream] of open) stream.done?.reject(err);
    const waiting = this.waiting;
    this.waiting = [];
    for (const { wake } of waiting) wake();
  }

  /** The workers keep the process alive only while a stream waits on them. */
  private settleRef(): void {
    if (this.streams.size === 0) for (const w of this.workers) w?.unref();
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
