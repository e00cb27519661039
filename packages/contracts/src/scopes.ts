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

/** Scope entries as Gitea parses them: each item split on commas, trimmed, empty ones dropped. */
export function splitScopes(scopes: string[]): string[] {
  return scopes.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
}

export function isKnownScope(scope: string): boolean {
  return ALL_SCOPES.has(scope);
}

/**
 * A token's scope list as Gitea stores and answers it (AccessTokenScope.Normalize): comma-separated
 * entries split and deduplicated, `public-only` first, then one entry per category in Gitea's
 * category order (`write:x` covers `read:x`), and `all` in place of every write scope. Clients
 * compare the answered list with what they sent, so the order is part of the wire format.
 * Unknown entries are the caller's to reject (isKnownScope); they are dropped here.
 */
export function normalizeScopes(scopes: string[]): string[] {
  const set = new Set(splitScopes(scopes));
  const result: string[] = set.has('public-only') ? ['public-only'] : [];
  if (set.has('all') || ScopeCategories.every((c) => set.has(`write:${c}`))) return [...result, 'all'];
  for (const c of ScopeCategories) {
    if (set.has(`write:${c}`)) result.push(`write:${c}`);
    else if (set.has(`read:${c}`)) result.push(`read:${c}`);
  }
  return result;
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
