import { Transform, type TransformCallback } from 'node:stream';

/** Bytes gathered before they are passed on at once. */
const TARGET_BYTES = 64 * 1024;
/** The longest a gathered byte waits: far below anything git's client notices (its keepalives are seconds apart). */
const MAX_DELAY_MS = 2;

/**
 * Gathers git's output into larger writes. pack-objects writes a filtered or shallow pack object by
 * object, and each few-KB write would otherwise cross both HTTP hops (here and the gateway) as its
 * own chunk, each with its own event-loop turn, parse and syscall: a blob-less clone of 20k
 * commits came through in about 1,100 chunks of 6.6 KB. Bytes wait at most MAX_DELAY_MS.
 */
export class WriteCoalescer extends Transform {
  private parts: Buffer[] = [];
  private size = 0;
  private timer: NodeJS.Timeout | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.parts.push(chunk);
    this.size += chunk.length;
    if (this.size >= TARGET_BYTES) this.flushNow();
    else this.timer ??= setTimeout(() => this.flushNow(), MAX_DELAY_MS);
    done();
  }

  override _flush(done: TransformCallback): void {
    this.flushNow();
    done();
  }

  override _destroy(err: Error | null, done: (err: Error | null) => void): void {
    clearTimeout(this.timer);
    done(err);
  }

  private flushNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.size === 0) return;
    const out = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    this.push(out);
  }
}
