import { unadoptedFilter } from './unadopted-filter.js';

describe('unadoptedFilter', () => {
  const matches = (query: string, owner: string, name: string): boolean => {
    const f = unadoptedFilter(query);
    return f.owner.test(owner) && f.name.test(name);
  };

  it('should list everything without a query', () => {
    expect(matches('', 'alice', 'proj')).toBe(true);
  });

  it('should filter owners only without a slash', () => {
    expect(matches('ali*', 'alice', 'anything')).toBe(true);
    expect(matches('bob', 'alice', 'proj')).toBe(false);
  });

  it('should split at the first slash into an owner glob and a name glob', () => {
    expect(matches('alice/p*', 'alice', 'proj')).toBe(true);
    expect(matches('alice/p*', 'alice', 'other')).toBe(false);
    expect(matches('*/{proj,lib}', 'bob', 'lib')).toBe(true);
    expect(matches('a?ice/*', 'alice', 'x')).toBe(true);
    expect(matches('alice/x/y', 'alice', 'x')).toBe(false);
  });

  it('should match nothing for an empty glob, as Gitea compiles one', () => {
    expect(matches('alice/', 'alice', 'proj')).toBe(false);
    expect(matches('/proj', 'alice', 'proj')).toBe(false);
  });

  it('should skip a glob that does not compile (match everything), as Gitea does', () => {
    expect(matches('[abc', 'alice', 'proj')).toBe(true);
    expect(matches('alice/{x', 'alice', 'proj')).toBe(true);
    expect(matches('[z/{x', 'alice', 'proj')).toBe(true);
    expect(matches('bob/{x', 'alice', 'proj')).toBe(false);
  });
});
