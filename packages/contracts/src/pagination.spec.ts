import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, normalizeListOptions } from './pagination.js';

describe(normalizeListOptions.name, () => {
  it('should default like Gitea: page 1, limit 30', () => {
    expect(normalizeListOptions({})).toEqual({ page: 1, limit: DEFAULT_PAGE_LIMIT });
  });

  it('should clamp a limit above the maximum to 50 and fix non-positive values', () => {
    expect(normalizeListOptions({ page: '0', limit: '500' })).toEqual({ page: 1, limit: MAX_PAGE_LIMIT });
    expect(normalizeListOptions({ page: '-3', limit: '-1' })).toEqual({ page: 1, limit: DEFAULT_PAGE_LIMIT });
    expect(normalizeListOptions({ page: '4', limit: '7' })).toEqual({ page: 4, limit: 7 });
  });

  it('should ignore garbage', () => {
    expect(normalizeListOptions({ page: 'x', limit: 'y' })).toEqual({ page: 1, limit: DEFAULT_PAGE_LIMIT });
  });

  it('should read a page beyond int64 as page 1, as Go does, and cap very high pages', () => {
    expect(normalizeListOptions({ page: '99999999999999999999' })).toEqual({ page: 1, limit: DEFAULT_PAGE_LIMIT });
    expect(normalizeListOptions({ page: '1e309' }).page).toBe(1);
    expect(normalizeListOptions({ page: String(2 ** 40) }).page).toBe(1_000_000_000);
  });
});
