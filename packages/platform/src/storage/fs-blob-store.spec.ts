import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { BlobMismatchError, BlobTooLargeError } from './blob-store.js';
import { FsBlobStore } from './fs-blob-store.js';

describe(FsBlobStore.name, () => {
  let root: string;
  let sut: FsBlobStore;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'gf-blobs-'));
    sut = new FsBlobStore(root);
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const leftovers = (): string[] => readdirSync(join(root, '.blob-tmp'));

  it('should store a stream under its key and answer its size and sha256', async () => {
    const stored = await sut.put('attachments/a/b/ab-1', Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(stored).toEqual({ size: 11, sha256: createHash('sha256').update('hello world').digest('hex'), digests: {} });
    expect(readFileSync(join(root, 'attachments/a/b/ab-1'), 'utf8')).toBe('hello world');
    expect(await sut.exists('attachments/a/b/ab-1')).toBe(true);
    expect(await text((await sut.open('attachments/a/b/ab-1'))!)).toBe('hello world');
    expect(leftovers()).toEqual([]);
  });

  it('should answer the further digests it is asked for', async () => {
    const bytes = Buffer.concat([Buffer.alloc(300_000, 'a'), Buffer.from('tail')]);
    const stored = await sut.put('packages/p/q/pq', Readable.from([bytes.subarray(0, 70_000), bytes.subarray(70_000)]), { digests: ['md5', 'sha1', 'sha512'] });
    const hex = (alg: string): string => createHash(alg).update(bytes).digest('hex');
    expect(stored).toEqual({ size: bytes.length, sha256: hex('sha256'), digests: { md5: hex('md5'), sha1: hex('sha1'), sha512: hex('sha512') } });
  });

  it('should refuse a stream over the limit and keep nothing of it', async () => {
    await expect(sut.put('attachments/x/big', Readable.from([Buffer.alloc(6), Buffer.alloc(6)]), { maxBytes: 10 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await sut.exists('attachments/x/big')).toBe(false);
    expect(leftovers()).toEqual([]);
    expect(await sut.put('attachments/x/exact', Readable.from([Buffer.alloc(10)]), { maxBytes: 10 })).toMatchObject({ size: 10 });
  });

  it('should commit a blob only when it has the expected size and digest, keeping the one already there otherwise', async () => {
    const sha = (t: string): string => createHash('sha256').update(t).digest('hex');
    await sut.put('lfs/aa/bb/good', Readable.from([Buffer.from('good')]), { expect: { size: 4, sha256: sha('good') } });
    await expect(sut.put('lfs/aa/bb/good', Readable.from([Buffer.from('evil')]), { expect: { size: 4, sha256: sha('good') } })).rejects.toEqual(
      new BlobMismatchError('sha256'),
    );
    await expect(sut.put('lfs/aa/bb/short', Readable.from([Buffer.from('goo')]), { expect: { size: 4 } })).rejects.toEqual(new BlobMismatchError('size'));
    expect(await text((await sut.open('lfs/aa/bb/good'))!)).toBe('good');
    expect(await sut.exists('lfs/aa/bb/short')).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  it('should never show a partial blob: the old one stays until the new one is complete, and a failed write keeps the old one', async () => {
    await sut.put('attachments/k/v', Readable.from([Buffer.from('old')]));
    const source = new PassThrough();
    const writing = sut.put('attachments/k/v', source);
    source.write('new-partial');
    // Until the partial bytes reach the temporary file (bounded: a write that never starts fails the test).
    for (let turns = 0; leftovers().length === 0 && turns < 10_000; turns++) await new Promise((r) => setImmediate(r));
    expect(leftovers()).toHaveLength(1);
    expect(readFileSync(join(root, 'attachments/k/v'), 'utf8')).toBe('old');
    source.destroy(new Error('client went away'));
    await expect(writing).rejects.toThrow('client went away');
    expect(readFileSync(join(root, 'attachments/k/v'), 'utf8')).toBe('old');
    expect(leftovers()).toEqual([]);
    await sut.put('attachments/k/v', Readable.from([Buffer.from('new')]));
    expect(readFileSync(join(root, 'attachments/k/v'), 'utf8')).toBe('new');
  });

  it('should answer null for a missing blob, and delete idempotently', async () => {
    expect(await sut.open('attachments/none')).toBeNull();
    await sut.put('attachments/gone', Readable.from([Buffer.from('x')]));
    await sut.delete('attachments/gone');
    await sut.delete('attachments/gone');
    expect(await sut.exists('attachments/gone')).toBe(false);
  });

  it('should list the blobs under a prefix with when they were written, and nothing of other kinds, of puts under way or of the file system', async () => {
    await sut.put('packages/ab/ab-1', Readable.from([Buffer.from('one')]));
    await sut.put('packages/cd/cd-2', Readable.from([Buffer.from('two')]));
    await sut.put('attachments/ab/ab-3', Readable.from([Buffer.from('three')]));
    mkdirSync(join(root, '.blob-tmp'), { recursive: true });
    writeFileSync(join(root, '.blob-tmp', 'under-way.tmp'), 'partial');
    // What a file system keeps of its own (an NFS silly-rename, a snapshot directory) is no blob.
    writeFileSync(join(root, 'packages', 'ab', '.nfs0001'), 'deleted while open');
    mkdirSync(join(root, 'packages', '.snapshot', 'ab'), { recursive: true });
    writeFileSync(join(root, 'packages', '.snapshot', 'ab', 'ab-1'), 'one');
    const listed: Array<{ key: string; modifiedAt: Date }> = [];
    for await (const blob of sut.list('packages')) listed.push(blob);
    expect(listed.map((b) => b.key).sort()).toEqual(['packages/ab/ab-1', 'packages/cd/cd-2']);
    expect(listed.every((b) => Math.abs(Date.now() - b.modifiedAt.getTime()) < 60_000)).toBe(true);
    const none: unknown[] = [];
    for await (const blob of sut.list('releases')) none.push(blob);
    expect(none).toEqual([]);
    await expect(sut.list('../outside')[Symbol.asyncIterator]().next()).rejects.toThrow('invalid blob key');
  });

  it('should clear the partial files of puts that never finished once they are old enough, and nothing else', async () => {
    expect(await sut.clearAbandoned(1000)).toBe(0);
    await sut.put('attachments/k/kept', Readable.from([Buffer.from('kept')]));
    const tmp = join(root, '.blob-tmp');
    writeFileSync(join(tmp, 'dead.tmp'), 'partial');
    writeFileSync(join(tmp, 'live.tmp'), 'under way');
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(tmp, 'dead.tmp'), old, old);
    expect(await sut.clearAbandoned(30_000)).toBe(1);
    expect(leftovers()).toEqual(['live.tmp']);
    expect(await sut.exists('attachments/k/kept')).toBe(true);
  });

  it('should refuse keys that could leave the store', async () => {
    for (const key of ['../etc/passwd', '/abs/path', 'attachments/../../x', 'attachments', 'a\\b/c', 'attachments/.hidden', 'attachments//x']) {
      await expect(sut.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow('invalid blob key');
    }
  });
});
