import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { forbidden } from '@gitforge/contracts';
import { createServiceDataSource, Database, FsBlobStore, loadConfig, openServiceDatabase, PlatformConfig } from '@gitforge/platform';
import { createTestDatabase, expectEventually, untilLockWaiter, type TestDatabase } from '@gitforge/platform/testing';
import { RepoServiceEntities, RepoServiceMigrations } from '../src/entities.js';
import { PackageBlobs, type HeldBlob } from '../src/packages/package-blobs.js';
import { PackageBlobEntity, packageBlobKey, PackageEntity, PackageFileEntity, PackageVersionEntity } from '../src/packages/package.entities.js';

/** Every file under `dir`, the store's temporary directory included. */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => statSync(join(dir, p)).isFile());
  } catch {
    return [];
  }
}

/**
 * Package blobs on a real database and a real file store: identical bytes are stored once, an
 * upload refused (too large, failed checks, a failed transaction) leaves nothing, the last file's
 * deletion drops its blob, and cleanup_packages' sweep drops blobs no file points at, bytes no
 * blob row names and partial files of puts that never finished, once they are older than its
 * grace period.
 */
describe.each(['sqlite', 'postgres'] as const)('package blobs (%s)', (engine) => {
  let pgdb: TestDatabase | undefined;
  let dataDir: string;
  let db: Database;
  let store: FsBlobStore;
  let blobs: PackageBlobs;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gf-package-blobs-'));
    if (engine === 'postgres') pgdb = await createTestDatabase('package_blobs');
    const ds = createServiceDataSource(loadConfig(PlatformConfig, { GITFORGE_DATA_DIR: dataDir, ...(pgdb ? { DATABASE_URL: pgdb.url } : {}) }), {
      service: 'repo',
      entities: RepoServiceEntities,
      migrations: RepoServiceMigrations,
    });
    await openServiceDatabase(ds, 'repo');
    db = new Database(ds);
    store = new FsBlobStore(join(dataDir, 'blobs'));
    blobs = new PackageBlobs(db, store);
  });

  afterAll(async () => {
    await db?.dataSource.destroy();
    await pgdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const stored = (): string[] => filesUnder(join(dataDir, 'blobs'));

  /** A file of a fresh version pointing at `blobId`. */
  async function fileFor(blobId: number, name: string): Promise<PackageFileEntity> {
    const now = new Date();
    const pkg = await db.manager.save(db.manager.create(PackageEntity, { ownerId: 1, repoId: 0, type: 'generic', name, lowerName: name, createdAt: now }));
    const version = await db.manager.save(
      db.manager.create(PackageVersionEntity, { packageId: pkg.id, creatorId: 1, version: '1.0.0', lowerVersion: '1.0.0', metadata: '{}', createdAt: now }),
    );
    return db.manager.save(db.manager.create(PackageFileEntity, { versionId: version.id, blobId, name: 'f', lowerName: 'f', createdAt: now }));
  }

  /** Stages `chunks` with checks that pass, and holds them in a transaction of their own: a blob row no file points at yet. */
  async function keep(chunks: Buffer[]): Promise<HeldBlob> {
    const { staged } = await blobs.stage(Readable.from(chunks), 1024, async () => undefined);
    const held = await db.transaction((m) => blobs.hold(m, staged));
    await blobs.settle(staged, held);
    return held;
  }

  /** Bytes under their final keys (not in the store's temporary directory). */
  const committed = (): string[] => stored().filter((p) => !p.startsWith('.blob-tmp'));

  it('should store identical bytes once and compute every digest', async () => {
    const before = stored().length;
    const first = await keep([Buffer.from('same '), Buffer.from('bytes')]);
    const second = await keep([Buffer.from('same bytes')]);
    expect(first.created).toBe(true);
    expect(second).toEqual({ blob: expect.objectContaining({ id: first.blob.id }), created: false });
    const digest = (algo: string): string => createHash(algo).update('same bytes').digest('hex');
    expect(first.blob).toMatchObject({ size: 10, md5: digest('md5'), sha1: digest('sha1'), sha256: digest('sha256'), sha512: digest('sha512') });
    expect(stored()).toHaveLength(before + 1);
    await blobs.drop(await db.transaction((m) => blobs.releaseUnreferenced(m, [first.blob.id])));
    expect(stored()).toHaveLength(before);
  });

  it('should refuse bytes past the limit (413) and keep nothing of them', async () => {
    const before = stored().length;
    const rows = await db.manager.count(PackageBlobEntity);
    await expect(blobs.stage(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), 1000, async () => 'checked')).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(stored()).toHaveLength(before);
    expect(await db.manager.count(PackageBlobEntity)).toBe(rows);
  });

  it('should stop an upload whose checks fail, answer their error and keep nothing of it', async () => {
    const before = stored().length;
    // Checks that fail while the bytes still stream: the source goes no further into the store, and is drained.
    const slow = new PassThrough();
    slow.write(Buffer.alloc(100));
    const refused = blobs.stage(slow, 1 << 20, async () => {
      throw forbidden('not yours');
    });
    await expect(refused).rejects.toMatchObject({ code: 'permission_denied', message: 'not yours' });
    expect(slow.readableFlowing).toBe(true);
    slow.end(Buffer.alloc(100));
    expect(stored()).toHaveLength(before);
    // Checks that fail once the bytes are all under their key: the bytes go.
    const late = blobs.stage(Readable.from([Buffer.from(`checked late ${engine}`)]), 1024, async () => {
      await expectEventually(async () => expect(committed()).toHaveLength(before + 1));
      throw forbidden('too late');
    });
    await expect(late).rejects.toMatchObject({ message: 'too late' });
    expect(stored()).toHaveLength(before);
  });

  it('should leave no bytes and no row when the transaction holding new bytes fails', async () => {
    const before = stored().length;
    const rows = await db.manager.count(PackageBlobEntity);
    const { checked, staged } = await blobs.stage(Readable.from([Buffer.from(`rolled back ${engine}`)]), 1024, async () => 'checked');
    expect(checked).toBe('checked');
    const failed = db.transaction(async (m) => {
      expect((await blobs.hold(m, staged)).created).toBe(true);
      throw new Error('the file row could not be written');
    });
    await expect(failed).rejects.toThrow('the file row could not be written');
    await blobs.settle(staged, null);
    expect(stored()).toHaveLength(before);
    expect(await db.manager.count(PackageBlobEntity)).toBe(rows);
  });

  it('should keep staged bytes a committed row names, even when the caller saw its transaction fail', async () => {
    const before = stored().length;
    const { staged } = await blobs.stage(Readable.from([Buffer.from(`committed anyway ${engine}`)]), 1024, async () => undefined);
    const held = await db.transaction((m) => blobs.hold(m, staged));
    // As when the connection went at COMMIT: the caller has no answer, the row is there.
    await blobs.settle(staged, null);
    expect(stored()).toHaveLength(before + 1);
    await blobs.drop(await db.transaction((m) => blobs.releaseUnreferenced(m, [held.blob.id])));
    expect(stored()).toHaveLength(before);
  });

  // Two replicas on PostgreSQL (SQLite serialises transactions): both upload the same new bytes.
  (engine === 'postgres' ? it : it.skip)('should let a parallel upload of the same new bytes take the blob the first one inserts', async () => {
    const before = stored().length;
    const bytes = () => Readable.from([Buffer.from('the same new bytes, twice at once')]);
    const [first, second] = await Promise.all([blobs.stage(bytes(), 1024, async () => undefined), blobs.stage(bytes(), 1024, async () => undefined)]);
    let commitFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (commitFirst = resolve));
    let firstInserted!: () => void;
    const inserted = new Promise<void>((resolve) => (firstInserted = resolve));
    const a = db.transaction(async (m) => {
      const held = await blobs.hold(m, first.staged);
      firstInserted();
      await firstMayCommit;
      return held;
    });
    await inserted;
    // The second insert waits on the first's uncommitted row, then takes it instead of failing its transaction.
    const b = db.transaction((m) => blobs.hold(m, second.staged));
    await untilLockWaiter(db, 'the second insert');
    commitFirst();
    const [heldA, heldB] = await Promise.all([a, b]);
    expect(heldA.created).toBe(true);
    expect(heldB).toEqual({ blob: expect.objectContaining({ id: heldA.blob.id }), created: false });
    await blobs.settle(first.staged, heldA);
    await blobs.settle(second.staged, heldB);
    expect(stored()).toHaveLength(before + 1);
    await blobs.drop(await db.transaction((m) => blobs.releaseUnreferenced(m, [heldA.blob.id])));
    expect(stored()).toHaveLength(before);
  });

  it('should drop a blob with the last file pointing at it, not before', async () => {
    const held = await keep([Buffer.from(`shared ${engine}`)]);
    const a = await fileFor(held.blob.id, `a-${engine}`);
    const b = await fileFor(held.blob.id, `b-${engine}`);
    const before = stored().length;
    const first = await db.transaction(async (m) => {
      await m.delete(PackageFileEntity, { id: a.id });
      return blobs.releaseUnreferenced(m, [held.blob.id]);
    });
    expect(first).toEqual([]);
    const last = await db.transaction(async (m) => {
      await m.delete(PackageFileEntity, { id: b.id });
      return blobs.releaseUnreferenced(m, [held.blob.id]);
    });
    expect(last).toHaveLength(1);
    await blobs.drop(last);
    expect(stored()).toHaveLength(before - 1);
    expect(await db.findOneBy(PackageBlobEntity, { id: held.blob.id })).toBeNull();
  });

  // Two replicas on PostgreSQL (SQLite serialises transactions): an upload sharing a stored blob
  // and the deletion of that blob's last other file, their transactions overlapping.
  (engine === 'postgres' ? it : it.skip)('should keep a shared blob that a parallel upload points a new file at while its last other file is deleted', async () => {
    const held = await keep([Buffer.from('raced bytes')]);
    const old = await fileFor(held.blob.id, 'raced-old');
    const fresh = await fileFor(held.blob.id, 'raced-new-holder');
    await db.manager.delete(PackageFileEntity, { id: fresh.id });
    let releaseUpload!: () => void;
    const uploadMayCommit = new Promise<void>((resolve) => (releaseUpload = resolve));
    let uploadInserted!: () => void;
    const inserted = new Promise<void>((resolve) => (uploadInserted = resolve));
    // An upload of the same bytes: holds the stored blob and inserts its file, then waits before committing.
    const { staged } = await blobs.stage(Readable.from([Buffer.from('raced bytes')]), 1024, async () => undefined);
    const upload = db.transaction(async (m) => {
      const again = await blobs.hold(m, staged);
      expect(again).toEqual({ blob: expect.objectContaining({ id: held.blob.id }), created: false });
      await m.insert(PackageFileEntity, { versionId: fresh.versionId, blobId: again.blob.id, name: 'g', lowerName: 'g', createdAt: new Date() });
      uploadInserted();
      await uploadMayCommit;
      return again;
    });
    await inserted;
    // The deletion of the other file runs meanwhile; it may wait for the upload, which then commits.
    const deletion = db.transaction(async (m) => {
      await m.delete(PackageFileEntity, { id: old.id });
      return blobs.releaseUnreferenced(m, [held.blob.id]);
    });
    let deletionDone = false;
    void deletion.then(
      () => (deletionDone = true),
      () => (deletionDone = true),
    );
    // Either the deletion waits on the upload's lock, or it finished without waiting (the bug).
    await expectEventually(async () => {
      const waiting = (await db.manager.query('SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted')) as Array<{ n: number }>;
      if (waiting[0]!.n === 0 && !deletionDone) throw new Error('the deletion is neither waiting nor done');
    });
    releaseUpload();
    await blobs.settle(staged, await upload);
    const keys = await deletion;
    await blobs.drop(keys);
    expect(keys).toEqual([]);
    expect(await db.findOneBy(PackageBlobEntity, { id: held.blob.id })).not.toBeNull();
    const bytes = await store.open(packageBlobKey(held.blob.uuid));
    expect(bytes).not.toBeNull();
    bytes?.destroy();
  });

  it('should sweep blobs no file points at once they are older than the grace period (cleanup_packages)', async () => {
    const orphan = await keep([Buffer.from(`orphan ${engine}`)]);
    const kept = await keep([Buffer.from(`kept ${engine}`)]);
    await fileFor(kept.blob.id, `kept-${engine}`);
    expect(await blobs.sweep(60 * 60 * 1000)).toBe(0);
    await db.manager.update(PackageBlobEntity, { id: orphan.blob.id }, { createdAt: new Date(Date.now() - 2 * 60 * 60 * 1000) });
    await db.manager.update(PackageBlobEntity, { id: kept.blob.id }, { createdAt: new Date(Date.now() - 2 * 60 * 60 * 1000) });
    const before = stored().length;
    expect(await blobs.sweep(60 * 60 * 1000)).toBe(1);
    expect(stored()).toHaveLength(before - 1);
    expect(await db.findOneBy(PackageBlobEntity, { id: orphan.blob.id })).toBeNull();
    expect(await db.findOneBy(PackageBlobEntity, { id: kept.blob.id })).not.toBeNull();
  });

  it('should sweep bytes no row names and partial files once they are past the grace period and an hour old, as a crash mid-upload leaves them', async () => {
    const ago = (minutes: number) => (path: string): void => {
      const at = new Date(Date.now() - minutes * 60 * 1000);
      utimesSync(path, at, at);
    };
    const bytesOf = (uuid: string): string => join(dataDir, 'blobs', packageBlobKey(uuid));
    // The process died after staging, before the transaction: bytes under their key, no row.
    const stage = async (text: string): Promise<string> => (await blobs.stage(Readable.from([Buffer.from(`${text} ${engine}`)]), 1024, async () => undefined)).staged.uuid;
    const stranded = await stage('stranded');
    const halfHour = await stage('half an hour');
    const young = await stage('young');
    const named = await keep([Buffer.from(`named ${engine}`)]);
    await fileFor(named.blob.id, `named-${engine}`);
    ago(120)(bytesOf(stranded));
    ago(30)(bytesOf(halfHour));
    ago(120)(bytesOf(named.blob.uuid));
    // The process died mid-put: partial files in the store's temporary directory.
    const tmp = join(dataDir, 'blobs', '.blob-tmp');
    mkdirSync(tmp, { recursive: true });
    const partial = (name: string, minutes: number): void => {
      writeFileSync(join(tmp, `${name}-${engine}.tmp`), 'partial');
      ago(minutes)(join(tmp, `${name}-${engine}.tmp`));
    };
    partial('dead', 120);
    partial('stalled', 30);
    partial('live', 0);

    // Ten minutes of grace: what no row names must still be an hour old.
    expect(await blobs.sweep(10 * 60 * 1000)).toBe(1);

    expect(await store.exists(packageBlobKey(stranded))).toBe(false);
    expect(await store.exists(packageBlobKey(halfHour))).toBe(true);
    expect(await store.exists(packageBlobKey(young))).toBe(true);
    expect(await store.exists(packageBlobKey(named.blob.uuid))).toBe(true);
    expect(readdirSync(tmp).filter((n) => n.endsWith(`-${engine}.tmp`)).sort()).toEqual([`live-${engine}.tmp`, `stalled-${engine}.tmp`]);
    for (const name of ['live', 'stalled']) rmSync(join(tmp, `${name}-${engine}.tmp`));
    await blobs.drop([packageBlobKey(halfHour), packageBlobKey(young)]);
  });

  it('should sweep stranded bytes in batches, however many there are', async () => {
    const dir = join(dataDir, 'blobs', 'packages', 'zz');
    mkdirSync(dir, { recursive: true });
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (let i = 0; i < 1201; i++) {
      writeFileSync(join(dir, `zz-${engine}-${i}`), 'x');
      utimesSync(join(dir, `zz-${engine}-${i}`), old, old);
    }
    const named = await keep([Buffer.from(`named among many ${engine}`)]);
    await fileFor(named.blob.id, `named-many-${engine}`);
    expect(await blobs.sweep(60 * 60 * 1000)).toBe(1201);
    expect(readdirSync(dir)).toEqual([]);
    expect(await store.exists(packageBlobKey(named.blob.uuid))).toBe(true);
  });
});
