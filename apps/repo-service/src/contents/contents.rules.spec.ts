import { parseGitmodules } from './contents.service.js';
import { parseLfsPointer } from './lfs.js';
import { cleanTreePath } from './tree-path.js';

describe('content rules', () => {
  it('should clean tree paths and refuse climbing, absolute, NUL and .git paths', () => {
    expect(cleanTreePath('')).toBe('');
    expect(cleanTreePath('a//b/./c/')).toBe('a/b/c');
    for (const bad of ['../a', 'a/../../b', '/etc/passwd', 'a\0b', '.git/config', 'x/.GIT/y']) expect(cleanTreePath(bad)).toBeNull();
  });

  it('should recognise Git LFS pointers as Gitea does', () => {
    const oid = 'a'.repeat(64);
    const pointer = (body: string) => Buffer.from(`version https://git-lfs.github.com/spec/v1\n${body}`);
    expect(parseLfsPointer(pointer(`oid sha256:${oid}\nsize 12\n`))).toEqual({ oid, size: 12 });
    expect(parseLfsPointer(pointer(`oid sha256:${oid.slice(1)}\nsize 12\n`))).toBeNull();
    expect(parseLfsPointer(pointer(`oid md5:${oid}\nsize 12\n`))).toBeNull();
    expect(parseLfsPointer(Buffer.from('hello'))).toBeNull();
  });

  it('should read submodule URLs from .gitmodules', () => {
    const text = '[submodule "a"]\n\tpath = libs/a\n\turl = https://x/a.git\n[submodule "b"]\n\turl = git@x:b.git\n\tpath = b\n';
    expect([...parseGitmodules(text)]).toEqual([
      ['libs/a', 'https://x/a.git'],
      ['b', 'git@x:b.git'],
    ]);
  });
});
