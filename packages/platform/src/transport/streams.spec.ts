import { Writable } from 'node:stream';
import { gatherWrites } from './streams.js';

/** A socket stand-in that records each write it is asked to make (one per system call on a real socket). */
function recordingStream(): { stream: Writable; writes: string[][] } {
  const writes: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, callback) {
      writes.push([chunk.toString()]);
      callback();
    },
    writev(chunks, callback) {
      writes.push(chunks.map((c) => (c.chunk as Buffer).toString()));
      callback();
    },
  });
  return { stream, writes };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe(gatherWrites.name, () => {
  it('should send the commands of one turn of the event loop in one write, at the end of that turn', async () => {
    const { stream, writes } = recordingStream();
    const redis = { stream };
    gatherWrites(redis);
    stream.write('XADD a');
    gatherWrites(redis);
    stream.write('XADD b');
    await Promise.resolve();
    gatherWrites(redis);
    stream.write('XADD c');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual([['XADD a', 'XADD b', 'XADD c']]);
  });

  it('should hold nothing past its turn: a later turn gathers its own writes', async () => {
    const { stream, writes } = recordingStream();
    gatherWrites({ stream });
    stream.write('first');
    await nextTurn();
    stream.write('alone');
    expect(writes).toEqual([['first'], ['alone']]);
    gatherWrites({ stream });
    stream.write('second');
    await nextTurn();
    expect(writes).toEqual([['first'], ['alone'], ['second']]);
    expect(stream.writableCorked).toBe(0);
  });

  it('should leave a connection that is not there yet, or corked by someone else, as it is', async () => {
    expect(() => gatherWrites(undefined)).not.toThrow();
    expect(() => gatherWrites({})).not.toThrow();
    const { stream, writes } = recordingStream();
    stream.cork();
    gatherWrites({ stream });
    stream.write('theirs');
    await nextTurn();
    // Still corked: its owner uncorks it, not this.
    expect(writes).toEqual([]);
    stream.uncork();
    expect(writes).toEqual([['theirs']]);
  });
});
