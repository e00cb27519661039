import { Transform, type TransformCallback } from 'node:stream';

/** One pkt-line of git's wire protocol. */
export type Packet = { kind: 'data'; data: Buffer } | { kind: 'flush' } | { kind: 'delim' } | { kind: 'end' };

const SPECIAL = { flush: '0000', delim: '0001', end: '0002' } as const;

/** A pkt-line: four hex digits of length (including themselves), then the payload. */
export function pkt(data: Buffer | string): Buffer {
  const payload = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  return Buffer.concat([Buffer.from((payload.length + 4).toString(16).padStart(4, '0'), 'latin1'), payload]);
}

export function encodePacket(p: Packet): Buffer {
  return p.kind === 'data' ? pkt(p.data) : Buffer.from(SPECIAL[p.kind], 'latin1');
}

/** Splits a byte stream into pkt-lines, across chunk boundaries. */
export class PktLineReader {
  private buf: Buffer = Buffer.alloc(0);

  /** Feeds bytes; answers the packets they complete. Throws on a malformed length. */
  push(chunk: Buffer): Packet[] {
    this.buf = this.buf.length > 0 ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Packet[] = [];
    while (this.buf.length >= 4) {
      const hex = this.buf.toString('latin1', 0, 4);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Error('malformed pkt-line');
      const len = Number.parseInt(hex, 16);
      if (len < 4) {
        if (len === 3) throw new Error('malformed pkt-line');
        out.push({ kind: len === 0 ? 'flush' : len === 1 ? 'delim' : 'end' });
        this.buf = this.buf.subarray(4);
        continue;
      }
      if (this.buf.length < len) break;
      out.push({ kind: 'data', data: this.buf.subarray(4, len) });
      this.buf = this.buf.subarray(len);
    }
    return out;
  }

  /** Bytes of an unfinished packet. */
  get pending(): Buffer {
    return this.buf;
  }
}

/** git's reason when its pre-receive hook fails: every ref of the push gets it. */
export const HOOK_DECLINED = 'pre-receive hook declined';
/** Band-1 payload per packet: small enough for `side-band` (1000-byte packets) as well as `side-band-64k`. */
const BAND_CHUNK = 995;

/**
 * Passes receive-pack's answer through, replacing git's generic `ng <ref> pre-receive hook
 * declined` with gitforge's reason for that ref, so the client prints e.g.
 * `! [remote rejected] v1 -> v1 (pre-receive hook declined: Tag v1 is protected)`. Works with and without side-band: a side-band
 * answer starts every data packet with its band number (1-3), report-status lines never do.
 */
export class ReportStatusRewriter extends Transform {
  private readonly outer = new PktLineReader();
  private readonly inner = new PktLineReader();
  private sideband: boolean | undefined;
  /** Over SSH receive-pack first advertises its refs (up to a flush): passed on untouched. */
  private inAdvertisement: boolean;

  constructor(
    private readonly reasonFor: (ref: string) => string | undefined,
    options: { advertisementFirst?: boolean } = {},
  ) {
    super();
    this.inAdvertisement = options.advertisementFirst ?? false;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      for (const p of this.outer.push(chunk)) this.forward(p);
      callback();
    } catch (err) {
      callback(err as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    if (this.outer.pending.length > 0) this.push(this.outer.pending);
    if (this.inner.pending.length > 0) this.band1(this.inner.pending);
    callback();
  }

  private forward(p: Packet): void {
    if (this.inAdvertisement) {
      if (p.kind === 'flush') this.inAdvertisement = false;
      this.push(p.kind === 'data' ? pkt(p.data) : encodePacket(p));
      return;
    }
    if (p.kind !== 'data') {
      this.push(encodePacket(p));
      return;
    }
    this.sideband ??= p.data.length > 0 && p.data[0]! >= 1 && p.data[0]! <= 3;
    if (!this.sideband) {
      this.push(pkt(this.rewrite(p.data)));
      return;
    }
    if (p.data[0] !== 1) {
      this.push(pkt(p.data));
      return;
    }
    const packets = this.inner.push(p.data.subarray(1));
    if (packets.length > 0) {
      this.band1(Buffer.concat(packets.map((q) => (q.kind === 'data' ? pkt(this.rewrite(q.data)) : encodePacket(q)))));
    }
  }

  private band1(data: Buffer): void {
    for (let i = 0; i < data.length; i += BAND_CHUNK) {
      this.push(pkt(Buffer.concat([Buffer.from([1]), data.subarray(i, i + BAND_CHUNK)])));
    }
  }

  private rewrite(line: Buffer): Buffer {
    const text = line.toString('utf8');
    const m = /^ng (\S+) (.*?)(\n?)$/s.exec(text);
    if (!m || m[2] !== HOOK_DECLINED) return line;
    const reason = this.reasonFor(m[1]!);
    return reason ? Buffer.from(`ng ${m[1]} ${reason}${m[3]}`, 'utf8') : line;
  }
}
