import { createHash, randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DigestStream, DigestThread } from '@gitforge/platform';

// The worker runs as compiled JavaScript; `npm test` builds before it tests.
const script = new URL('../dist/storage/digest-worker.js', import.meta.url);

/** A sink that takes its time, so the digests are checked while bytes are still held back. */
function slowSink(seen: Buffer[]): Writable {
  return new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _enc, callback) {
      seen.push(chunk);
      setImmediate(callback);
    },
  });
}

/** A worker that reads every message and never answers. */
const SILENT = "data:text/javascript,import{parentPort}from'node:worker_threads';parentPort.on('message',()=>{})";

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('DigestStream on the digest worker thread', () => {
  const thread = new DigestThread(script);
  afterAll(() => thread.close());

  it('passes the bytes through unchanged and answers each algorithm digest', async () => {
    const chunks = Array.from({ length: 40 }, (_, i) => randomBytes(1000 + i * 997));
    const all = Buffer.concat(chunks);
    const digests = new DigestStream(['md5', 'sha1', 'sha256', 'sha512'], thread);
    const seen: Buffer[] = [];
    await pipeline(Readable.from(chunks), digests, slowSink(seen));
    expect(Buffer.concat(seen).equals(all)).toBe(true);
    expect(await digests.digests()).toEqual({
      md5: createHash('md5').update(all).digest('hex'),
      sha1: createHash('sha1').update(all).digest('hex'),
      sha256: createHash('sha256').update(all).digest('hex'),
      sha512: createHash('sha512').update(all).digest('hex'),
    });
  });

  it('answers no digests for no algorithms, without holding a slab', async () => {
    const none = new DigestStream([], thread);
    const seen: Buffer[] = [];
    await pipeline(Readable.from([randomBytes(300 * 1024)]), none, slowSink(seen));
    expect(await none.digests()).toEqual({});
    expect(Buffer.concat(seen)).toHaveLength(300 * 1024);
  });

  it('splits one stream between the workers and puts each digest back in its place', async () => {
    const all = randomBytes(2 * 1024 * 1024 + 17);
    const order = ['sha1', 'md5', 'sha512', 'sha256', 'md5'] as const;
    const two = new DigestThread(script, 2);
    const digests = new DigestStream([...order], two);
    await pipeline(Readable.from([all.subarray(0, 1000), all.subarray(1000)]), digests, slowSink([]));
    const hex = Object.fromEntries(order.map((a) => [a, createHash(a).update(all).digest('hex')]));
    expect(await digests.digests()).toEqual(hex);
    await two.close();
  });

  it('keeps concurrent streams apart, including a slice of a larger buffer', async () => {
    const big = randomBytes(3 * 1024 * 1024);
    // Views into one allocation: only the viewed bytes may be hashed.
    const parts = [big.subarray(0, 1024 * 1024), big.subarray(1024 * 1024, 2 * 1024 * 1024), big.subarray(2 * 1024 * 1024)];
    const streams = parts.map(() => new DigestStream(['sha256'], thread));
    await Promise.all(parts.map((p, i) => pipeline(Readable.from([p.subarray(0, 5000), p.subarray(5000)]), streams[i]!, slowSink([]))));
    for (const [i, p] of parts.entries()) expect((await streams[i]!.digests()).sha256).toBe(createHash('sha256').update(p).digest('hex'));
  });

  it('shares its slabs between streams that together outgrow them', async () => {
    const files = Array.from({ length: 3 }, () => Array.from({ length: 12 }, () => randomBytes(512 * 1024)));
    const streams = files.map(() => new DigestStream(['sha512'], thread));
    await Promise.all(files.map((chunks, i) => pipeline(Readable.from(chunks), streams[i]!, slowSink([]))));
    for (const [i, chunks] of files.entries()) expect((await streams[i]!.digests()).sha512).toBe(createHash('sha512').update(Buffer.concat(chunks)).digest('hex'));
  });

  // The pool is 16 slabs of 256 KiB (digests.ts).
  const SLAB = 256 * 1024;
  const SLABS = 16;
  const sha = (alg: string, ...parts: Buffer[]): string => createHash(alg).update(Buffer.concat(parts)).digest('hex');

  it('gives the slab a stream that went away while waiting would have taken to the next one waiting', async () => {
    // Every slab is with the worker: whoever comes next waits.
    const busy = thread.open(['sha1']);
    const bytes = randomBytes(SLABS * SLAB);
    expect(thread.feed(busy, bytes)).toBeUndefined();
    // As many uploads as there are slabs wait, then their clients go away.
    for (let i = 0; i < SLABS; i++) {
      const gone = thread.open(['sha1']);
      void thread.feed(gone, randomBytes(1))?.catch(() => undefined);
      thread.abort(gone);
    }
    const live = thread.open(['sha1']);
    const one = randomBytes(1);
    const waiting = thread.feed(live, one);
    expect(waiting).toBeInstanceOf(Promise);
    await waiting;
    expect(await thread.finish(live)).toEqual([sha('sha1', one)]);
    expect(await thread.finish(busy)).toEqual([sha('sha1', bytes)]);
  });

  it('does not let uploads that stall with a partly filled slab hold up the others', async () => {
    // As many slow uploads as there are slabs have each sent a little, and their clients pause.
    const stalled = Array.from({ length: SLABS }, () => ({ id: thread.open(['sha256']), parts: [randomBytes(100)] }));
    for (const s of stalled) expect(thread.feed(s.id, s.parts[0]!)).toBeUndefined();
    const next = thread.open(['sha256']);
    const bytes = randomBytes(100);
    const waiting = thread.feed(next, bytes);
    expect(waiting).toBeInstanceOf(Promise);
    await waiting;
    expect(await thread.finish(next)).toEqual([sha('sha256', bytes)]);
    // The stalled ones go on where they were: their digests cover every byte, in order.
    for (const s of stalled) {
      s.parts.push(randomBytes(SLAB));
      await thread.feed(s.id, s.parts[1]!);
    }
    for (const s of stalled) expect(await thread.finish(s.id)).toEqual([sha('sha256', ...s.parts)]);
  });

  it('holds the bytes back while the worker is 4 MiB behind', async () => {
    const lagging = new DigestThread(new URL(SILENT));
    const seen: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, callback) {
        seen.push(chunk);
        callback();
      },
    });
    const done = pipeline(Readable.from(Array.from({ length: 24 }, () => Buffer.alloc(512 * 1024))), new DigestStream(['sha512'], lagging), sink);
    const failed = expect(done).rejects.toThrow('not open');
    for (let i = 0; i < 1000 && seen.length < 8; i++) await turn();
    for (let i = 0; i < 50; i++) await turn();
    // Eight chunks are 4 MiB: the ninth waits for an acknowledgement that never comes.
    expect(seen).toHaveLength(8);
    await lagging.close();
    await failed;
  });

  it('has no digests for a stream that failed, and the thread keeps serving others', async () => {
    const failed = new DigestStream(['md5'], thread);
    const source = new Readable({
      read() {
        this.push(randomBytes(1000));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(pipeline(source, failed, slowSink([]))).rejects.toThrow('client went away');
    await expect(failed.digests()).rejects.toThrow('has not ended');
    const next = new DigestStream(['md5'], thread);
    await pipeline(Readable.from([Buffer.from('abc')]), next, slowSink([]));
    expect((await next.digests()).md5).toBe(createHash('md5').update('abc').digest('hex'));
  });

  it('fails the digests of open streams when the worker exits or the thread is closed, never hangs', async () => {
    // Workers that never answer: one stops itself once it has read a message, the other waits to be closed.
    const exiting = new DigestThread(new URL("data:text/javascript,import{parentPort}from'node:worker_threads';parentPort.once('message',()=>process.exit(3))"));
    const silent = new DigestThread(new URL(SILENT));
    const ends = [exiting, silent].map((t) => {
      const digests = new DigestStream(['sha1'], t);
      return pipeline(Readable.from([randomBytes(100)]), digests, slowSink([])).then(() => digests.digests());
    });
    await expect(ends[0]).rejects.toThrow('exited with code 3');
    const closed = expect(ends[1]).rejects.toThrow('digest thread closed');
    await silent.close();
    await closed;
  });
});
