import { linkHeader, sendPage } from './pagination.js';

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

describe(sendPage.name, () => {
  const headersOf = (options: Parameters<typeof sendPage>[4]) => {
    const headers: Record<string, string> = {};
    const reply = { header: (name: string, value: string) => (headers[name] = value) };
    const items = sendPage({ url: '/api/v1/x?limit=2' } as never, reply as never, 'http://localhost/', { items: ['a', 'b'], total: 5, page: 1, limit: 2 }, options);
    return { items, headers };
  };

  it('should send the total and the links, exposed, and answer the items', () => {
    const { items, headers } = headersOf({});
    expect(items).toEqual(['a', 'b']);
    expect(headers['X-Total-Count']).toBe('5');
    expect(headers['Access-Control-Expose-Headers']).toBe('X-Total-Count, Link');
    expect(headers.Link).toContain('rel="next"');
    expect(headers).not.toHaveProperty('X-Page');
  });

  it('should add Gitea’s page counts when asked, X-Total only where the listing sends it', () => {
    const { headers } = headersOf({ pageCounts: { total: false } });
    expect(headers).toMatchObject({ 'X-Page': '1', 'X-PerPage': '2', 'X-PageCount': '3', 'X-HasMore': 'true' });
    expect(headers).not.toHaveProperty('X-Total');
    expect(headers['Access-Control-Expose-Headers']).toBe('X-Total-Count, Link, X-Page, X-PerPage, X-PageCount, X-HasMore');
    const commits = headersOf({ pageCounts: { total: true } }).headers;
    expect(commits['X-Total']).toBe('5');
    expect(commits['Access-Control-Expose-Headers']).toBe('X-Total-Count, Link, X-Page, X-PerPage, X-Total, X-PageCount, X-HasMore');
  });
});
