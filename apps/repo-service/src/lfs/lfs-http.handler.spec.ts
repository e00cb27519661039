import { cleanLockPath } from './lfs-http.handler.js';

describe(cleanLockPath.name, () => {
  it('should keep lock paths relative and inside the repository', () => {
    expect(cleanLockPath('dir/../doc.bin')).toBe('doc.bin');
    expect(cleanLockPath('/a//b/./c.bin')).toBe('a/b/c.bin');
    expect(cleanLockPath('../../etc/passwd')).toBe('etc/passwd');
    expect(cleanLockPath('win\\path.bin')).toBe('win/path.bin');
  });

  it('should refuse a path that names the repository itself', () => {
    expect(() => cleanLockPath('.')).toThrow('invalid path');
    expect(() => cleanLockPath('a/..')).toThrow('invalid path');
  });
});
