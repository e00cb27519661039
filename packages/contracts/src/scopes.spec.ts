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
    expect(normalizeScopes(['write:issue,read:issue', 'read:user', 'read:user'])).toEqual(['write:issue', 'read:user']);
    expect(normalizeScopes(['all', 'read:user'])).toEqual(['all']);
  });

  it('should order scopes as Gitea does: public-only first, then by category', () => {
    expect(normalizeScopes(['read:user', 'write:repository'])).toEqual(['write:repository', 'read:user']);
    expect(normalizeScopes(['read:user', 'public-only', 'read:admin', 'read:activitypub'])).toEqual([
      'public-only',
      'read:activitypub',
      'read:admin',
      'read:user',
    ]);
    expect(normalizeScopes(['all', 'public-only'])).toEqual(['public-only', 'all']);
  });

  it('should collapse every write scope into all', () => {
    const writes = ['activitypub', 'admin', 'misc', 'notification', 'organization', 'package', 'issue', 'repository', 'user'].map((c) => `write:${c}`);
    expect(normalizeScopes(writes)).toEqual(['all']);
    expect(normalizeScopes(writes.slice(1))).toEqual(writes.slice(1));
  });

  it('should know Gitea scope names only', () => {
    expect(isKnownScope('read:repository')).toBe(true);
    expect(isKnownScope('read:everything')).toBe(false);
  });
});
