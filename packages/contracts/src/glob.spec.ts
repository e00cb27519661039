import { branchFilterMatches, compileGlob, isValidGlob } from './glob.js';

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

describe('branchFilterMatches', () => {
  it.each([
    ['', 'any', true],
    ['*', 'any/thing', true],
    ['**', 'x', true],
    ['main', 'main', true],
    ['main', 'dev', false],
    ['release/*', 'release/2', true],
    ['{main,dev}', 'dev', true],
    ['[broken', 'x', false],
  ])('should apply the filter %p to branch %p: %p', (filter, branch, expected) => {
    expect(branchFilterMatches(filter, branch)).toBe(expected);
  });
});
