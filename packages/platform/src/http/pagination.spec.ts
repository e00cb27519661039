import { linkHeader } from './pagination.js';

describe(linkHeader.name, () => {
  const root = 'http://localhost:3000/';

  it('should give nothing for a single page', () => {
    expect(linkHeader(root, '/api/v1/user/repos', 1, 30, 30)).toBeUndefined();
  });

  it('should order next, last, first, prev with sorted query keys as Gitea does', () => {
    expect(linkHeader(root, '/api/v1/repos/a/b/issues?state=all&limit=10&page=2', 2, 10, 50)).toBe(
      [
        '<http://localhost:3000/api/v1/repos/a/b/issues?limit=10&page=3&state=all>; rel="next"',
        '<http://localhost:3000/api/v1/repos/a/b/issues?limit=10&page=5&state=all>; rel="last"',
        '<http://localhost:3000/api/v1/repos/a/b/issues?limit=10&page=1&state=all>; rel="first"',
        '<http://localhost:3000/api/v1/repos/a/b/issues?limit=10&page=1&state=all>; rel="prev"',
      ].join(','),
    );
  });

  it('should only point back from the last page, clamping a page beyond it', () => {
    const link = linkHeader(root, '/api/v1/x?page=9', 9, 10, 25)!;
    expect(link).not.toContain('rel="next"');
    expect(link).toContain('page=2>; rel="prev"');
  });
});
