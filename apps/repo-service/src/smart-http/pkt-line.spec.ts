import { PassThrough } from 'node:stream';
import { pkt, PktLineReader, ReportStatusRewriter } from './pkt-line.js';

async function run(sut: ReportStatusRewriter, chunks: Buffer[]): Promise<Buffer> {
  const out: Buffer[] = [];
  const source = new PassThrough();
  source.pipe(sut);
  sut.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((resolve) => sut.on('end', resolve));
  for (const c of chunks) source.write(c);
  source.end();
  await done;
  return Buffer.concat(out);
}

function sideband(report: Buffer, splitAt: number): Buffer[] {
  return [pkt(Buffer.concat([Buffer.from([1]), report.subarray(0, splitAt)])), pkt(Buffer.concat([Buffer.from([1]), report.subarray(splitAt)]))];
}

describe(PktLineReader.name, () => {
  it('should split packets across chunk boundaries', () => {
    const sut = new PktLineReader();
    const bytes = Buffer.concat([pkt('hello\n'), Buffer.from('0000'), pkt('x')]);
    expect(sut.push(bytes.subarray(0, 5))).toEqual([]);
    const rest = sut.push(bytes.subarray(5));
    expect(rest.map((p) => (p.kind === 'data' ? p.data.toString() : p.kind))).toEqual(['hello\n', 'flush', 'x']);
  });

  it('should refuse a malformed length', () => {
    expect(() => new PktLineReader().push(Buffer.from('zzzz'))).toThrow('malformed pkt-line');
  });
});

describe(ReportStatusRewriter.name, () => {
  const reasons = new Map([['refs/tags/v1', 'protected tag']]);
  const report = Buffer.concat([
    pkt('unpack ok\n'),
    pkt('ng refs/heads/main pre-receive hook declined\n'),
    pkt('ng refs/tags/v1 pre-receive hook declined\n'),
    Buffer.from('0000'),
  ]);

  it('should put the reason into a report without side-band', async () => {
    const out = await run(new ReportStatusRewriter((ref) => reasons.get(ref)), [report]);
    const lines = new PktLineReader().push(out).map((p) => (p.kind === 'data' ? p.data.toString() : p.kind));
    expect(lines).toEqual(['unpack ok\n', 'ng refs/heads/main pre-receive hook declined\n', 'ng refs/tags/v1 protected tag\n', 'flush']);
  });

  it('should put the reason into a side-band report split across packets and keep progress untouched', async () => {
    const progress = pkt(Buffer.concat([Buffer.from([2]), Buffer.from('remote: gitforge: Tag v1 is protected\n')]));
    const out = await run(new ReportStatusRewriter((ref) => reasons.get(ref)), [progress, ...sideband(report, 30), Buffer.from('0000')]);
    const outer = new PktLineReader().push(out);
    expect(outer[0]).toEqual({ kind: 'data', data: progress.subarray(4) });
    const band1 = Buffer.concat(outer.filter((p) => p.kind === 'data' && p.data[0] === 1).map((p) => (p.kind === 'data' ? p.data.subarray(1) : Buffer.alloc(0))));
    const inner = new PktLineReader().push(band1).map((p) => (p.kind === 'data' ? p.data.toString() : p.kind));
    expect(inner).toEqual(['unpack ok\n', 'ng refs/heads/main pre-receive hook declined\n', 'ng refs/tags/v1 protected tag\n', 'flush']);
    expect(outer.at(-1)).toEqual({ kind: 'flush' });
  });

  it('should leave other refusals as git wrote them', async () => {
    const other = Buffer.concat([pkt('unpack ok\n'), pkt('ng refs/tags/v1 failed to lock\n'), Buffer.from('0000')]);
    expect(await run(new ReportStatusRewriter((ref) => reasons.get(ref)), [other])).toEqual(other);
  });

  it('should pass a full-duplex (SSH) advertisement through untouched and rewrite the side-band report after it', async () => {
    const advertisement = pkt('1234567890123456789012345678901234567890 refs/heads/main\0report-status side-band-64k\n');
    const out = await run(new ReportStatusRewriter((ref) => reasons.get(ref), { advertisementFirst: true }), [
      advertisement,
      Buffer.from('0000'),
      ...sideband(report, 30),
      Buffer.from('0000'),
    ]);
    const outer = new PktLineReader().push(out);
    expect(outer.slice(0, 2)).toEqual([{ kind: 'data', data: advertisement.subarray(4) }, { kind: 'flush' }]);
    const band1 = Buffer.concat(outer.slice(2).filter((p) => p.kind === 'data' && p.data[0] === 1).map((p) => (p.kind === 'data' ? p.data.subarray(1) : Buffer.alloc(0))));
    const inner = new PktLineReader().push(band1).map((p) => (p.kind === 'data' ? p.data.toString() : p.kind));
    expect(inner).toContain('ng refs/tags/v1 protected tag\n');
  });
});
