import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isOwnerDirName, ownerDirs, readAdoptionMarker, repoDirNames, repoNameOfDir, unadoptedRelPath, writeAdoptionMarker } from './unadopted-dirs.js';

describe('unadopted directories', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'gf-unadopted-'));
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const dirs = (...paths: string[]): void => paths.forEach((p) => mkdirSync(join(root, p), { recursive: true }));

  it.each(['alice', 'a-b.c_d', 'x1', '1'])('should take %p as an owner directory', (name) => {
    expect(isOwnerDirName(name)).toBe(true);
  });

  // gitforge's own `<id>.git` and `.staging`, upper case, reserved logins, path tricks.
  it.each(['1.git', 'alice.git', '.staging', '.hidden', 'Alice', 'admin', 'x.keys', '..', '.', '-x', 'a..b', 'a/b', '', 'a'.repeat(41)])(
    'should not take %p as an owner directory',
    (name) => {
      expect(isOwnerDirName(name)).toBe(false);
    },
  );

  it('should read a repository name from `<name>.git` only when it is lower case and usable', () => {
    expect(repoNameOfDir('proj.git')).toBe('proj');
    expect(repoNameOfDir('my-proj_1.2.git')).toBe('my-proj_1.2');
    for (const dir of ['proj', 'Proj.git', 'x.git.git', 'x.wiki.git', '..git', '...git', '-.git', '.git', 'a b.git', 'ü.git', `${'a'.repeat(101)}.git`]) {
      expect(repoNameOfDir(dir)).toBeNull();
    }
  });

  it('should build a drop path only from names no account or repository refuses, in lower case', () => {
    expect(unadoptedRelPath('Alice', 'Proj')).toBe('alice/proj.git');
    for (const [owner, name] of [
      ['..', 'x'],
      ['alice', '..'],
      ['alice', '../x'],
      ['a/b', 'x'],
      ['alice', 'x/y'],
      ['1.git', 'objects'],
      ['alice', 'x.git'],
      ['alice\u0000', 'x'],
      ['', 'x'],
      ['alice', ''],
    ]) {
      expect(unadoptedRelPath(owner!, name!)).toBeNull();
    }
  });

  it('should walk owners and their repositories in name order, skipping what cannot be an unadopted repository', async () => {
    dirs('zed/b.git', 'zed/a.git', 'bob/x.git', 'alice/proj.git', 'alice/Upper.git', 'alice/notrepo', 'alice/x.wiki.git', '1.git/objects', '.staging/2.git', 'Carol/c.git');
    writeFileSync(join(root, 'alice', 'file.git'), '');
    writeFileSync(join(root, 'stray'), '');
    mkdirSync(join(root, '..outside'), { recursive: true });
    symlinkSync(join(root, 'alice'), join(root, 'linked'));
    symlinkSync(join(root, 'alice', 'proj.git'), join(root, 'bob', 'linked.git'));
    expect(await ownerDirs(root)).toEqual(['alice', 'bob', 'zed']);
    expect(await repoDirNames(root, 'alice')).toEqual(['proj']);
    expect(await repoDirNames(root, 'bob')).toEqual(['x']);
    expect(await repoDirNames(root, 'zed')).toEqual(['a', 'b']);
    expect(await repoDirNames(root, 'linked')).toEqual([]);
    expect(await repoDirNames(root, 'nobody')).toEqual([]);
    expect(await ownerDirs(join(root, 'missing'))).toEqual([]);
  });

  it('should read back the marker it wrote, and refuse one that names no drop location', async () => {
    dirs('staged.git');
    const dir = join(root, 'staged.git');
    expect(await readAdoptionMarker(dir)).toBeNull();
    expect(await readAdoptionMarker(join(root, 'missing'))).toBeNull();
    await writeAdoptionMarker(dir, 'alice/proj.git');
    expect(await readAdoptionMarker(dir)).toBe('alice/proj.git');
    for (const bad of ['../../etc.git', 'alice/../x.git', '/abs/x.git', 'alice/proj', 'Alice/proj.git', 'alice/proj.git/x', '']) {
      await writeAdoptionMarker(dir, bad);
      await expect(readAdoptionMarker(dir)).rejects.toThrow(/names no drop location/);
    }
  });
});
