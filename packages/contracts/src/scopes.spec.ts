import { isKnownScope, normalizeScopes, scopesAllow } from './scopes.js';

describe('scopes', () => {
  it('should treat write as including read and all as including everything', () => {
    expect(scopesAllow(['write:repository'], 'repository', false)).toBe(true);
    expect(scopesAllow(['read:repository'], 'repository', true)).toBe(false);
    expect(scopesAllow(['all'], 'admin', true)).toBe(true);
    expect(scopesAllow(['read:user'], 'repository', false)).toBe(false);
  });

  it('should allow everything for password authentication (null scopes)', () => {
    expect(scopesAllow(null, 'admin', true)).toBe(true);
  });

  it('should normalise, deduplicate and drop read scopes covered by write', () => {
    expect(normalizeScopes(['write:issue,read:issue', 'read:user', 'read:user'])).toEqual(['read:user', 'write:issue']);
    expect(normalizeScopes(['all', 'read:user'])).toEqual(['all']);
  });

  it('should know Gitea scope names only', () => {
    expect(isKnownScope('read:repository')).toBe(true);
    expect(isKnownScope('read:everything')).toBe(false);
  });
});
