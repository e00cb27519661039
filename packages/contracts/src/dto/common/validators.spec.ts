import {
  formInt64,
  idFrom,
  isRowIdRange,
  isValidBadgeSlug,
  isValidRefName,
  isValidUsername,
  MAX_BADGE_SLUG_LENGTH,
  MAX_ROW_ID,
} from './validators.js';

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

  it.each(['first-pr', 'v1.0', 'A_b', '7', 'x'.repeat(MAX_BADGE_SLUG_LENGTH)])('should accept the badge slug %s', (slug) => {
    expect(isValidBadgeSlug(slug)).toBe(true);
  });

  it.each(['', '.', '..', '-x', '_x', 'a b', 'a/b', 'a%2Fb', 'é', 'a\u0000', 'x'.repeat(MAX_BADGE_SLUG_LENGTH + 1), 7])(
    'should refuse the badge slug %p',
    (slug) => {
      expect(isValidBadgeSlug(slug)).toBe(false);
    },
  );
});

describe('ids and integers from paths and queries', () => {
  it("should read numbers as Go's ParseInt does: junk and values beyond int64 are 0", () => {
    expect([formInt64('42'), formInt64('-7'), formInt64(' 3 '), formInt64('3000000000')]).toEqual([42, -7, 3, 3_000_000_000]);
    expect([formInt64('99999999999999999999'), formInt64('1e20'), formInt64('abc'), formInt64(undefined), formInt64(['1'])]).toEqual([0, 0, 0, 0, 0]);
  });

  it('should name no row with an id beyond the 32-bit id columns, which PostgreSQL refuses to compare', () => {
    expect([idFrom('1'), idFrom(String(MAX_ROW_ID)), idFrom(7)]).toEqual([1, MAX_ROW_ID, 7]);
    expect([idFrom('3000000000'), idFrom('99999999999999999999'), idFrom('-1'), idFrom('0'), idFrom('1.5'), idFrom('1e20')]).toEqual([0, 0, 0, 0, 0, 0]);
    expect([isRowIdRange(-1), isRowIdRange(MAX_ROW_ID), isRowIdRange(MAX_ROW_ID + 1), isRowIdRange(-3_000_000_000)]).toEqual([true, true, false, false]);
  });
});
