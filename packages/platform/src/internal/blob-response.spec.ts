import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ByteRange } from '../storage/blob-store.js';
import { sendBlob } from './blob-response.js';

describe(sendBlob.name, () => {
  const bytes = Buffer.from('0123456789abcdefghij');
  const lastModified = new Date('2026-01-02T03:04:05Z');
  const etag = '"v1"';
  let opened: Array<ByteRange | undefined>;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      void sendBlob(req, res, {
        size: bytes.length,
        lastModified,
        etag,
        headers: { 'Content-Type': 'application/octet-stream' },
        open: async (range) => {
          opened.push(range);
          return Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]);
        },
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  beforeEach(() => {
    opened = [];
  });

  const get = (headers: Record<string, string> = {}, method = 'GET') => fetch(url, { method, headers });

  it('should answer the whole file with its validators and Accept-Ranges', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(bytes.toString());
    expect(Object.fromEntries(['content-length', 'accept-ranges', 'etag', 'last-modified', 'content-type'].map((h) => [h, res.headers.get(h)]))).toEqual({
      'content-length': '20',
      'accept-ranges': 'bytes',
      etag,
      'last-modified': lastModified.toUTCString(),
      'content-type': 'application/octet-stream',
    });
    expect(opened).toEqual([undefined]);
  });

  it('should answer one range as 206 with Content-Range, opening only those bytes', async () => {
    for (const [range, start, end] of [
      ['bytes=2-5', 2, 5],
      ['bytes=15-', 15, 19],
      ['bytes=-3', 17, 19],
      ['bytes=10-99', 10, 19],
    ] as const) {
      const res = await get({ range });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/20`);
      expect(res.headers.get('content-length')).toBe(String(end - start + 1));
      expect(await res.text()).toBe(bytes.subarray(start, end + 1).toString());
    }
    expect(opened).toEqual([
      { start: 2, end: 5 },
      { start: 15, end: 19 },
      { start: 17, end: 19 },
      { start: 10, end: 19 },
    ]);
  });

  it('should answer 416 with the size for a range outside the file or one it cannot read, opening nothing', async () => {
    for (const range of ['bytes=20-', 'bytes=5-2', 'bytes=x-y', 'lines=1-2']) {
      const res = await get({ range });
      expect(res.status).toBe(416);
      expect(res.headers.get('content-range')).toBe('bytes */20');
      await res.text();
    }
    expect(opened).toEqual([]);
  });

  it('should serve the whole file for several ranges, and for a range under an If-Range naming another version', async () => {
    expect((await get({ range: 'bytes=0-1,5-6' })).status).toBe(200);
    expect((await get({ range: 'bytes=0-1', 'if-range': '"v0"' })).status).toBe(200);
    expect((await get({ range: 'bytes=0-1', 'if-range': new Date(lastModified.getTime() - 60_000).toUTCString() })).status).toBe(200);
    expect((await get({ range: 'bytes=0-1', 'if-range': etag })).status).toBe(206);
    expect((await get({ range: 'bytes=0-1', 'if-range': lastModified.toUTCString() })).status).toBe(206);
  });

  it('should answer 304 to a client whose copy is fresh, by entity tag or by date', async () => {
    for (const headers of [{ 'if-none-match': etag }, { 'if-none-match': `"other", ${etag}` }, { 'if-modified-since': lastModified.toUTCString() }]) {
      const res = await get(headers);
      expect(res.status).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect(await res.text()).toBe('');
    }
    expect((await get({ 'if-none-match': '"other"' })).status).toBe(200);
    expect((await get({ 'if-modified-since': new Date(lastModified.getTime() - 60_000).toUTCString() })).status).toBe(200);
  });

  it('should answer 412 when If-Match or If-Unmodified-Since names another version, opening nothing', async () => {
    const before = new Date(lastModified.getTime() - 1000).toUTCString();
    for (const headers of [{ 'if-match': '"v0"' }, { 'if-match': 'W/"v1"' }, { 'if-unmodified-since': before }, { 'if-match': '"v0"', 'if-unmodified-since': lastModified.toUTCString() }]) {
      const res = await get(headers);
      expect([res.status, res.headers.get('etag'), await res.text()]).toEqual([412, etag, '']);
    }
    for (const headers of [{ 'if-match': '"v0", "v1"' }, { 'if-match': '*' }, { 'if-match': '' }, { 'if-unmodified-since': lastModified.toUTCString() }, { 'if-match': '"v1"', 'if-unmodified-since': before }]) {
      expect((await get(headers)).status).toBe(200);
    }
    expect(opened).toHaveLength(5);
  });

  it('should answer HEAD with the headers alone, opening nothing', async () => {
    const res = await get({}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('20');
    const partial = await get({ range: 'bytes=0-3' }, 'HEAD');
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-length')).toBe('4');
    expect(opened).toEqual([]);
  });
});
