import { compileGlob, compileTagPattern, isGlobPattern } from './glob.js';

describe(compileGlob.name, () => {
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

describe(compileTagPattern.name, () => {
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

describe(isGlobPattern.name, () => {
  it('should tell plain branch names from globs', () => {
    expect(isGlobPattern('main')).toBe(false);
    expect(isGlobPattern('release/v1.0')).toBe(false);
    expect(isGlobPattern('release/*')).toBe(true);
  });
});
