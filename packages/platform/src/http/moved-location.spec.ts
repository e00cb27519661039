import { movedLocation } from './gitea-exception.filter.js';

describe('movedLocation (Gitea RedirectToRepo)', () => {
  const d = { from_owner: 'ann', from_repo: 'old', to_owner: 'bob', to_repo: 'new' };

  it('should replace the first owner/name pair of the path and keep the query', () => {
    expect(movedLocation('/api/v1/repos/ann/old/issues?state=all&page=2', d)).toBe('/api/v1/repos/bob/new/issues?state=all&page=2');
    expect(movedLocation('/api/v1/repos/ann/old', d)).toBe('/api/v1/repos/bob/new');
    expect(movedLocation('/api/v1/repos/ann/old/contents/ann/old', d)).toBe('/api/v1/repos/bob/new/contents/ann/old');
  });

  it('should match whole segments only', () => {
    expect(movedLocation('/api/v1/repos/ann/older/x', d)).toBeUndefined();
    expect(movedLocation('/api/v1/repos/xann/old', d)).toBeUndefined();
  });

  it('should give nothing for incomplete details', () => {
    expect(movedLocation('/api/v1/repos/ann/old', { from_owner: 'ann' })).toBeUndefined();
    expect(movedLocation('/api/v1/repos/ann/old', undefined)).toBeUndefined();
  });
});
