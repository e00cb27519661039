import { isValidRefName, isValidUsername } from './validators.js';

describe('validators', () => {
  it.each(['main', 'feature/x', 'v1.0', 'a-b_c'])('should accept the ref name %s', (name) => {
    expect(isValidRefName(name)).toBe(true);
  });

  it.each(['', '-x', '--upload-pack=touch', 'a..b', 'a b', 'a~1', 'a^', 'a:b', 'x.lock', 'a//b', '/a', 'a/', '.hidden', 'a@{1}', 'a\\b'])(
    'should refuse the ref name %p',
    (name) => {
      expect(isValidRefName(name)).toBe(false);
    },
  );

  it.each(['alice', 'a.b-c_d', 'A1'])('should accept the username %s', (name) => {
    expect(isValidUsername(name)).toBe(true);
  });

  it.each(['-alice', 'alice-', 'a..b', 'a b', '', 'a__b', 'é'])('should refuse the username %p', (name) => {
    expect(isValidUsername(name)).toBe(false);
  });
});
