import { compileGlob, type Pattern } from '@gitforge/contracts';
import { createLogger } from '@gitforge/platform';

const log = createLogger('unadopted');

const ANY: Pattern = { test: () => true };

/** The owner and name globs of the unadopted list's filter. */
export interface UnadoptedFilter {
  owner: Pattern;
  name: Pattern;
}

/**
 * Gitea's filter of `GET /admin/unadopted` (`query`): split at the first `/` into an owner glob and
 * a name glob (gobwas/glob: `*` matches anything, since names hold no separator); without a `/`
 * it filters owners only, and an empty query lists everything. A glob that does not compile is
 * skipped (matches everything), as Gitea logs and skips it.
 */
export function unadoptedFilter(query: string): UnadoptedFilter {
  if (query === '') return { owner: ANY, name: ANY };
  const slash = query.indexOf('/');
  if (slash < 0) return { owner: globOrAny(query), name: ANY };
  return { owner: globOrAny(query.slice(0, slash)), name: globOrAny(query.slice(slash + 1)) };
}

function globOrAny(glob: string): Pattern {
  try {
    return compileGlob(glob);
  } catch (err) {
    log.info({ glob: glob.slice(0, 200), err: (err as Error).message }, 'invalid glob expression skipped');
    return ANY;
  }
}
