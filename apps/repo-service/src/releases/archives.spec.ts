import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GitService } from '../git/git.service.js';
import type { Refs } from '../git/refs.js';
import type { RepoServiceConfig } from '../repo.config.js';
import { Archives } from './archives.js';

describe('archive cache cleanup', () => {
  let data: string;
  let sut: Archives;

  beforeEach(() => {
    data = mkdtempSync(join(tmpdir(), 'gf-archives-'));
    sut = new Archives({ GITFORGE_DATA_DIR: data } as RepoServiceConfig, {} as GitService, {} as Refs);
  });

  afterEach(() => rmSync(data, { recursive: true, force: true }));

  function cached(repoId: number, name: string, ageMs: number): string {
    const dir = join(data, 'repo-archives', String(repoId));
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    writeFileSync(path, 'x');
    const when = new Date(Date.now() - ageMs);
    utimesSync(path, when, when);
    return path;
  }

  it('should remove cached archives older than the age given and keep newer ones', async () => {
    const day = 24 * 3600 * 1000;
    const old = cached(1, 'a-repo.tar.gz', 3 * day);
    const leftover = cached(2, 'b-repo.zip.1234.tmp', 3 * day);
    const fresh = cached(1, 'c-repo.zip', 60_000);
    expect(await sut.cleanCache(day)).toBe(2);
    expect([existsSync(old), existsSync(leftover), existsSync(fresh)]).toEqual([false, false, true]);
    expect(await sut.cleanCache(0)).toBe(1);
    expect(existsSync(fresh)).toBe(false);
  });

  it('should leave files still being written, and bundles being built, an hour even when asked to clean everything', async () => {
    const writing = cached(1, 'a-repo.tar.gz.5678.tmp', 60_000);
    const building = join(data, 'repo-archives', '.bundle-abc');
    mkdirSync(building, { recursive: true });
    expect(await sut.cleanCache(0)).toBe(0);
    expect([existsSync(writing), existsSync(building)]).toEqual([true, true]);
    const stale = new Date(Date.now() - 2 * 3600 * 1000);
    utimesSync(writing, stale, stale);
    utimesSync(building, stale, stale);
    expect(await sut.cleanCache(0)).toBe(2);
    expect([existsSync(writing), existsSync(building)]).toEqual([false, false]);
  });

  it('should find nothing to clean without a cache directory', async () => {
    expect(await sut.cleanCache(0)).toBe(0);
  });
});
