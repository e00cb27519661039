import { compileEditorConfigGlob, compileEditorConfigGlobs, compileGlob, compileTagPattern, isGlobPattern, isValidGlob, refFilterMatches } from './glob.js';

describe('compileGlob', () => {
  it.each([
    ['main', 'main', true],
    ['main', 'mainline', false],
    ['release/*', 'release/1.0', true],
    ['release/*', 'release/1.0/hotfix', true],
    ['*', 'feature/x', true],
    ['**', 'a/b/c', true],
    ['v?.0', 'v1.0', true],
    ['v?.0', 'v10.0', false],
    ['{main,develop}', 'develop', true],
    ['{main,develop}', 'feature', false],
    ['feature/{a,b}*', 'feature/bx', true],
    ['[abc]x', 'bx', true],
    ['[!abc]x', 'bx', false],
    ['[a-c]x', 'cx', true],
    ['a.b', 'aXb', false],
    ['\\*', '*', true],
    ['\\*', 'x', false],
  ])('should match %p against %p: %p', (pattern, value, expected) => {
    expect(compileGlob(pattern).test(value)).toBe(expected);
  });

  it.each(['[abc', '{a,b', 'a\\', '[]'])('should refuse the malformed pattern %p', (pattern) => {
    expect(isValidGlob(pattern)).toBe(false);
  });
});

describe('refFilterMatches', () => {
  it.each([
    ['', 'refs/tags/v1', true],
    ['*', 'refs/heads/any/thing', true],
    ['**', 'refs/tags/x', true],
    ['main', 'refs/heads/main', true],
    ['main', 'refs/heads/dev', false],
    ['release/*', 'refs/heads/release/2', true],
    ['{main,dev}', 'refs/heads/dev', true],
    ['[broken', 'refs/heads/x', false],
    // Tags meet the filter by their full name only (Gitea #35567).
    ['dev', 'refs/tags/dev', false],
    ['refs/tags/v*', 'refs/tags/v2', true],
    // A full-name filter for branches works too.
    ['refs/heads/rel*', 'refs/heads/release1', true],
  ])('should apply the filter %p to %p: %p', (filter, ref, expected) => {
    expect(refFilterMatches(filter, ref)).toBe(expected);
  });
});

describe('compileGlob with separators', () => {
  it('should keep a single star inside one path segment when separators are given', () => {
    const sut = compileGlob('release/*', '/');
    expect(sut.test('release/v1')).toBe(true);
    expect(sut.test('release/v1/hotfix')).toBe(false);
    expect(sut.test('release')).toBe(false);
  });

  it('should let a double star cross separators', () => {
    const sut = compileGlob('release/**', '/');
    expect(sut.test('release/v1/hotfix')).toBe(true);
    expect(compileGlob('**', '/').test('any/thing')).toBe(true);
  });

  it('should match anything with a star when there are no separators', () => {
    expect(compileGlob('v*').test('v1/2')).toBe(true);
    expect(compileGlob('v*').test('x1')).toBe(false);
  });

  it('should support question marks, classes, negated classes and alternatives', () => {
    expect(compileGlob('v?.0').test('v1.0')).toBe(true);
    expect(compileGlob('v?.0').test('v10.0')).toBe(false);
    expect(compileGlob('v[0-9]').test('v7')).toBe(true);
    expect(compileGlob('v[!0-9]').test('v7')).toBe(false);
    expect(compileGlob('{main,master}').test('master')).toBe(true);
    expect(compileGlob('{main,master}').test('mainx')).toBe(false);
  });

  it('should treat regular-expression characters literally', () => {
    expect(compileGlob('v1.0').test('v1x0')).toBe(false);
    expect(compileGlob('a+b(c)|d$').test('a+b(c)|d$')).toBe(true);
    expect(compileGlob('\\*').test('*')).toBe(true);
    expect(compileGlob('release-*/x', '/').test('release-1/x')).toBe(true);
    expect(compileGlob('\\*').test('x')).toBe(false);
  });

  it('should refuse unterminated classes and alternatives', () => {
    expect(() => compileGlob('v[0-9')).toThrow();
    expect(() => compileGlob('{a,b')).toThrow();
  });
});

describe('compileTagPattern', () => {
  it('should read slashes as an unanchored regular expression', () => {
    const sut = compileTagPattern('/^v[0-9]+$/');
    expect(sut.test('v12')).toBe(true);
    expect(sut.test('v12-rc')).toBe(false);
    expect(compileTagPattern('/rc/').test('v1-rc1')).toBe(true);
  });

  it('should read anything else as a glob over the whole name', () => {
    expect(compileTagPattern('v*').test('v1.0')).toBe(true);
    expect(compileTagPattern('v1').test('v10')).toBe(false);
  });
});

describe('isGlobPattern', () => {
  it('should tell plain branch names from globs', () => {
    expect(isGlobPattern('main')).toBe(false);
    expect(isGlobPattern('release/v1.0')).toBe(false);
    expect(isGlobPattern('release/*')).toBe(true);
  });
});

describe('linear-time matching', () => {
  // A backtracking engine would not finish these within the test's timeout (the time doubles per character).
  it('should decide patterns a backtracking engine takes exponential time on', () => {
    expect(compileTagPattern('/(a+)+$/').test(`${'a'.repeat(5000)}!`)).toBe(false);
    expect(compileTagPattern('/(a+)+$/').test('a'.repeat(5000))).toBe(true);
    expect(compileGlob('x*y*x*y*x*y*x*y*x*y*x*y*x*y*x*y*x*y*x*y*z', '/').test('xy'.repeat(2000))).toBe(false);
  });

  it('should refuse patterns too long to compile', () => {
    expect(isValidGlob('x'.repeat(5000))).toBe(false);
    expect(() => compileTagPattern(`/${'x'.repeat(5000)}/`)).toThrow();
  });

  it("should read Go's regular expression syntax for tag patterns and refuse what Go refuses", () => {
    expect(compileTagPattern('/^v\\d+\\.\\d+$/').test('v1.2')).toBe(true);
    expect(() => compileTagPattern('/(?<=v)1/')).toThrow();
  });
});

describe('compileEditorConfigGlob', () => {
  it.each([
    ['*', 'a.txt', true],
    ['*', 'dir/a.txt', true],
    ['*.py', 'src/deep/x.py', true],
    ['*.py', 'x.pyc', false],
    ['Makefile', 'sub/Makefile', true],
    ['/Makefile', 'sub/Makefile', false],
    ['/Makefile', 'Makefile', true],
    ['lib/*.js', 'lib/a.js', true],
    ['lib/*.js', 'lib/sub/a.js', false],
    ['lib/**.js', 'lib/sub/a.js', true],
    ['lib/**/a.js', 'lib/a.js', true],
    ['lib/**/a.js', 'lib/x/y/a.js', true],
    ['**/a.js', 'a.js', true],
    ['*.{js,ts}', 'a.ts', true],
    ['*.{js,ts}', 'a.go', false],
    ['a?.c', 'ab.c', true],
    ['[ab].c', 'b.c', true],
    ['[!ab].c', 'b.c', false],
    ['[ab', '[ab', true],
    ['file{1..3}.txt', 'file2.txt', true],
    ['file{1..3}.txt', 'file4.txt', false],
    ['file{-3..-1}.txt', 'file-2.txt', true],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
  ])('%s against %s is %s', (glob, path, expected) => {
    expect(compileEditorConfigGlob(glob).test(path)).toBe(expected);
  });

  // The patterns come from a repository's `.editorconfig`: none may stall the matcher.
  it('should match in linear time and refuse expanding patterns', () => {
    expect(compileEditorConfigGlob(`${'*a'.repeat(30)}b`).test('a'.repeat(5000))).toBe(false);
    expect(compileEditorConfigGlob('{a,b}'.repeat(40)).test('ab'.repeat(20))).toBe(true);
    expect(() => compileEditorConfigGlob('{1..100000000}')).toThrow();
    expect(() => compileEditorConfigGlob('{x'.repeat(5000))).toThrow();
    expect(() => compileEditorConfigGlob('{0..999}'.repeat(500))).toThrow();
  });
});

describe('compileEditorConfigGlobs', () => {
  it('should compile each section as compileEditorConfigGlob does, a malformed one matching nothing', () => {
    const { patterns } = compileEditorConfigGlobs(['*.md', '{1..100000000}', 'lib/**.js']);
    expect(patterns.map((p) => p?.test('lib/x/a.js') ?? null)).toEqual([false, null, true]);
    expect(patterns[0]!.test('docs/a.md')).toBe(true);
  });

  // One section may become 64 KiB of expression; a file of a hundred of them must not compile them all.
  it('should stop compiling once the file has spent its budget', () => {
    const large = '{0..999}'.repeat(9);
    const { patterns, regexLength } = compileEditorConfigGlobs(['*', ...Array.from({ length: 100 }, (_, i) => `${large}${i}`), '*.md']);
    expect(patterns[0]).not.toBeNull();
    expect(patterns[1]).not.toBeNull();
    expect(patterns.slice(2)).toEqual(Array(100).fill(null));
    expect(regexLength).toBeLessThanOrEqual(64 * 1024);
    expect(compileEditorConfigGlobs(Array(2000).fill('*.md')).patterns.filter((p) => p !== null)).toHaveLength(1000);
  });
});
