/** Token scope categories (Gitea models/auth/access_token_scope.go). */
export const ScopeCategories = [
  'activitypub',
  'admin',
  'misc',
  'notification',
  'organization',
  'package',
  'issue',
  'repository',
  'user',
] as const;
export type ScopeCategory = (typeof ScopeCategories)[number];

const ALL_SCOPES = new Set<string>([
  'all',
  'public-only',
  ...ScopeCategories.flatMap((c) => [`read:${c}`, `write:${c}`]),
]);

export function isKnownScope(scope: string): boolean {
  return ALL_SCOPES.has(scope);
}

/**
 * Splits a token's scope list the way Gitea stores it (comma separated, deduplicated, sorted),
 * dropping `read:x` when `write:x` is present.
 */
export function normalizeScopes(scopes: string[]): string[] {
  const set = new Set(scopes.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean));
  if (set.has('all')) return set.has('public-only') ? ['all', 'public-only'] : ['all'];
  for (const c of ScopeCategories) if (set.has(`write:${c}`)) set.delete(`read:${c}`);
  return [...set].sort();
}

/** Whether a token's scopes grant `category` for reading or writing. `null` scopes (password auth) grant everything. */
export function scopesAllow(scopes: string[] | null, category: ScopeCategory, write: boolean): boolean {
  if (scopes === null) return true;
  if (scopes.includes('all')) return true;
  if (scopes.includes(`write:${category}`)) return true;
  return !write && scopes.includes(`read:${category}`);
}

export function isPublicOnly(scopes: string[] | null): boolean {
  return scopes !== null && scopes.includes('public-only');
}
