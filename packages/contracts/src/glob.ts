/**
 * Glob patterns as Gitea compiles them for `branch_filter` (gobwas/glob without separators):
 * `*` and `**` match any run of characters (slashes included), `?` one character,
 * `[abc]`, `[a-z]`, `[!abc]` a class, `{a,b}` alternatives, `\` escapes the next character.
 * Throws on a malformed pattern (unclosed class or group), which Gitea's binding reports as
 * `[BranchFilter]: GlobPattern`.
 */
export function compileGlob(pattern: string): RegExp {
  let i = 0;
  const escape = (c: string): string => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

  const parseSequence = (inGroup: boolean): string => {
    let out = '';
    while (i < pattern.length) {
      const c = pattern[i]!;
      if (inGroup && (c === ',' || c === '}')) return out;
      i += 1;
      switch (c) {
        case '\\': {
          if (i >= pattern.length) throw new Error('unexpected end of pattern after escape');
          out += escape(pattern[i]!);
          i += 1;
          break;
        }
        case '*':
          while (pattern[i] === '*') i += 1;
          out += '[\\s\\S]*';
          break;
        case '?':
          out += '[\\s\\S]';
          break;
        case '[': {
          const close = pattern.indexOf(']', i);
          if (close < 0) throw new Error('unclosed character class');
          let body = pattern.slice(i, close);
          i = close + 1;
          const negated = body.startsWith('!');
          if (negated) body = body.slice(1);
          if (body.length === 0) throw new Error('empty character class');
          const cls = body
            .split('')
            .map((ch, idx, all) => (ch === '-' && idx > 0 && idx < all.length - 1 ? '-' : escape(ch)))
            .join('');
          out += negated ? `[^${cls}]` : `[${cls}]`;
          break;
        }
        case '{': {
          const alternatives: string[] = [];
          for (;;) {
            alternatives.push(parseSequence(true));
            if (i >= pattern.length) throw new Error('unclosed group');
            const sep = pattern[i]!;
            i += 1;
            if (sep === '}') break;
          }
          out += `(?:${alternatives.join('|')})`;
          break;
        }
        default:
          out += escape(c);
      }
    }
    if (inGroup) throw new Error('unclosed group');
    return out;
  };

  return new RegExp(`^${parseSequence(false)}$`);
}

/** Whether `pattern` compiles (Gitea's GlobPattern binding rule). */
export function isValidGlob(pattern: string): boolean {
  try {
    compileGlob(pattern);
    return true;
  } catch {
    return false;
  }
}

/** Gitea's checkBranch for hooks: an empty filter, `*` or `**` pass every branch; otherwise a glob match. */
export function branchFilterMatches(filter: string, branch: string): boolean {
  if (filter === '' || filter === '*' || filter === '**') return true;
  try {
    return compileGlob(filter).test(branch);
  } catch {
    return false;
  }
}
