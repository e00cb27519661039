import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdvertisementCache, isProtocolV2 } from './advertisement-cache.js';

/** As git writes a config: a lock file renamed into place. */
function writeConfig(path: string, text: string): void {
  writeFileSync(`${path}.lock`, text);
  renameSync(`${path}.lock`, path);
}

describe(AdvertisementCache.name, () => {
  let dir: string;
  let repo: string;
  let home: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'adv-cache-'));
    repo = join(dir, '1.git');
    home = join(dir, 'home');
    mkdirSync(repo);
    mkdirSync(home);
    writeFileSync(join(repo, 'config'), '[core]\n\tbare = true\n');
    mkdirSync(join(dir, 'bin'));
    writeFileSync(bin(), '#!/bin/sh\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const bin = () => join(dir, 'bin', 'git');
  const cache = () => new AdvertisementCache(home, 'git', `${join(dir, 'nothing')}:${join(dir, 'bin')}`);

  async function keep(sut: AdvertisementCache, bytes: string): Promise<void> {
    const miss = await sut.get(repo);
    expect(miss.bytes).toBeUndefined();
    await sut.set(repo, miss.key, Buffer.from(bytes));
  }

  it('should answer what was kept while no config changed', async () => {
    const sut = cache();
    await keep(sut, '000eversion 2\n0000');
    expect((await sut.get(repo)).bytes?.toString()).toBe('000eversion 2\n0000');
  });

  it('should miss once the repository config is rewritten, even to the same size', async () => {
    const sut = cache();
    await keep(sut, 'before');
    writeConfig(join(repo, 'config'), '[core]\n\tbare = trux\n');
    expect((await sut.get(repo)).bytes).toBeUndefined();
  });

  it('should miss once a global config appears', async () => {
    const sut = cache();
    await keep(sut, 'before');
    writeConfig(join(home, '.gitconfig'), '[uploadpack]\n\tallowFilter = false\n');
    expect((await sut.get(repo)).bytes).toBeUndefined();
    mkdirSync(join(home, '.config', 'git'), { recursive: true });
    await keep(sut, 'with .gitconfig');
    writeConfig(join(home, '.config', 'git', 'config'), '[uploadpack]\n\tallowFilter = true\n');
    expect((await sut.get(repo)).bytes).toBeUndefined();
  });

  it('should keep answers apart by repository', async () => {
    const sut = cache();
    await keep(sut, 'v2');
    const other = join(dir, '2.git');
    mkdirSync(other);
    writeFileSync(join(other, 'config'), '[core]\n\tbare = true\n');
    expect((await sut.get(other)).bytes).toBeUndefined();
  });

  it('should not keep an answer under a key read before the config changed', async () => {
    const sut = cache();
    const before = await sut.get(repo);
    writeConfig(join(repo, 'config'), '[core]\n\tbare = true\n[uploadpack]\n\tallowFilter = true\n');
    await sut.set(repo, before.key, Buffer.from('stale'));
    expect((await sut.get(repo)).bytes).toBeUndefined();
  });

  it('should miss once the git binary found on PATH is replaced', async () => {
    const sut = cache();
    await keep(sut, 'agent=git/2.39.5');
    writeConfig(bin(), '#!/bin/sh\n# newer\n');
    expect((await sut.get(repo)).bytes).toBeUndefined();
  });

  it('should not keep an answer with a session id, nor one read while a config includes others', async () => {
    const sut = cache();
    await keep(sut, '0018session-id=abc-P0001\n0000');
    expect((await sut.get(repo)).bytes).toBeUndefined();
    writeConfig(join(home, '.gitconfig'), '[include]\n\tpath = more.inc\n');
    await keep(sut, '000eversion 2\n0000');
    expect((await sut.get(repo)).bytes).toBeUndefined();
  });

  it('should tell protocol v2 requests from the others', () => {
    expect(isProtocolV2('version=2')).toBe(true);
    expect(isProtocolV2('object-format=sha1:version=2')).toBe(true);
    expect(isProtocolV2('version=1')).toBe(false);
    expect(isProtocolV2('version=20')).toBe(false);
    expect(isProtocolV2(undefined)).toBe(false);
  });
});
