/**
 * Gitea's globs as regular expressions: `*` matches within a segment (any run of characters
 * that are not separators), `**` across separators, `?` one non-separator character, `[abc]` and
 * `[!abc]` classes, `{a,b}` alternatives, `\` escapes. Anchored at both ends. Without
 * separators (tag patterns) `*` matches anything.
 */
export function compileGlob(pattern: string, separators = ''): RegExp {
  const seps = escapeClass(separators);
  const one = seps ? `[^${seps}]` : '.';
  let pos = 0;
  const chars = [...pattern];

  const charClass = (): string => {
    let out = '[';
    if (chars[pos] === '!') {
      pos++;
      out += '^';
    }
    while (pos < chars.length) {
      const c = chars[pos++]!;
      if (c === ']') return `${out}]`;
      if (c === '\\') {
        if (pos >= chars.length) throw new Error('unterminated character class escape');
        out += `\\${chars[pos++]}`;
      } else {
        out += c === '[' || c === '^' ? `\\${c}` : c;
      }
    }
    throw new Error('unterminated character class');
  };

  const sequence = (inBraces: boolean): string => {
    let out = '';
    while (pos < chars.length) {
      const c = chars[pos++]!;
      if (inBraces && c === '}') return `${out})`;
      switch (c) {
        case '*':
          if (chars[pos] === '*') {
            pos++;
            out += '.*';
          } else {
            out += `${one}*`;
          }
          break;
        case '?':
          out += one;
          break;
        case '[':
          out += charClass();
          break;
        case '{':
          out += `(?:${sequence(true)}`;
          break;
        case ',':
          out += inBraces ? '|' : ',';
          break;
        case '\\':
          if (pos >= chars.length) throw new Error('no character to escape');
          out += escapeLiteral(chars[pos++]!);
          break;
        default:
          out += escapeLiteral(c);
      }
    }
    if (inBraces) throw new Error('unterminated alternatives');
    return out;
  };

  return new RegExp(`^${sequence(false)}$`, 'su');
}

/** Whether a rule name uses glob syntax (otherwise it names one branch, case-insensitively). */
export function isGlobPattern(name: string): boolean {
  return /[*?\\[\]{}]/.test(name);
}

/**
 * A tag protection's `name_pattern` as Gitea matches it: `/…/` is a regular expression that may
 * match anywhere in the name, anything else a glob over the whole name.
 */
export function compileTagPattern(pattern: string): RegExp {
  if (pattern.length >= 2 && pattern.startsWith('/') && pattern.endsWith('/')) return new RegExp(pattern.slice(1, -1), 'u');
  return compileGlob(pattern);
}

function escapeLiteral(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

function escapeClass(s: string): string {
  return [...s].map((c) => (/[\\\]^-]/.test(c) ? `\\${c}` : c)).join('');
}
