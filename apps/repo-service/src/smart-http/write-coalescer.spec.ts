import { Readable } from 'node:stream';
import { WriteCoalescer } from './write-coalescer.js';

async function collect(chunks: Buffer[]): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const c of Readable.from(chunks).pipe(new WriteCoalescer())) out.push(c as Buffer);
  return out;
}

describe(WriteCoalescer.name, () => {
  it('should pass every byte on, in order, in fewer and larger writes', async () => {
    const chunks = Array.from({ length: 100 }, (_, i) => Buffer.alloc(1000, i));
    const out = await collect(chunks);
    expect(Buffer.concat(out).equals(Buffer.concat(chunks))).toBe(true);
    expect(out.length).toBeLessThan(10);
  });

  it('should pass a small write on shortly while the stream stays open (git waits for it)', async () => {
    const sut = new WriteCoalescer();
    const got = new Promise<Buffer>((resolve) => sut.once('data', resolve));
    sut.write(Buffer.from('0008NAK\n'));
    expect((await got).toString()).toBe('0008NAK\n');
    sut.destroy();
  });
});
