import { RE2JS } from 're2js';

/**
 * A compiled pattern. Matching runs on RE2 (as Go's regexp does in Gitea), in time linear in the
 * input: a rule or filter written by one user (`x*y*x*y*…`, `/(a+)+$/`) cannot stall a push or
 * a delivery, which a backtracking JavaScript RegExp would.
 */
export interface Pattern {
  test(value: string): boolean;
}

/** Longest pattern compiled; beyond it a pattern is refused as malformed. */
const MAX_PATTERN_LENGTH = 4096;

function compile(source: string, anchored: boolean): Pattern {
  const re = RE2JS.compile(source, RE2JS.DOTALL);
  return anchored ? { test: (value) => re.matches(value) } : { test: (value) => re.test(value) };
}

/**
 * Gitea's globs (gobwas/glob): `*` matches any run of characters that are not separators, `**`
 * any run at all, `?` one non-separator character, `[abc]`, `[a-z]`, `[!abc]` a class, `{a,b}`
 * alternatives (which may hold globs), `\` escapes the next character. The whole value must
 * match. Without separators (hook branch filters, tag patterns) `*` matches anything. Throws on
 * a malformed pattern (unclosed class or group), which Gitea's binding reports as `GlobPattern`.
 */
export function compileGlob(pattern: string, separators = ''): Pattern {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new Error('pattern too long');
  const chars = [...pattern];
  const seps = [...separators].map(quote).join('');
  const one = seps ? `[^${seps}]` : '.';
  let pos = 0;

  const charClass = (): string => {
    let out = '[';
    if (chars[pos] === '!') {
      pos++;
      out += '^';
    }
    let empty = true;
    while (pos < chars.length) {
      const c = chars[pos++]!;
      if (c === ']') {
        if (empty) throw new Error('empty character class');
        return `${out}]`;
      }
      empty = false;
      if (c === '\\') {
        if (pos >= chars.length) throw new Error('unterminated character class escape');
        out += quote(chars[pos++]!);
      } else {
        out += c === '-' ? '-' : quote(c);
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
            while (chars[pos] === '*') pos++;
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
          out += quote(chars[pos++]!);
          break;
        default:
          out += quote(c);
      }
    }
    if (inBraces) throw new Error('unterminated alternatives');
    return out;
  };

  return compile(sequence(false), true);
}

/**
 * A tag protection's `name_pattern` as Gitea matches it: `/…/` is a regular expression in Go's
 * (RE2) syntax that may match anywhere in the name, anything else a glob over the whole name.
 */
export function compileTagPattern(pattern: string): Pattern {
  if (pattern.length >= 2 && pattern.startsWith('/') && pattern.endsWith('/')) {
    if (pattern.length > MAX_PATTERN_LENGTH) throw new Error('pattern too long');
    return compile(pattern.slice(1, -1), false);
  }
  return compileGlob(pattern);
}

/** Whether a branch rule name uses glob syntax (otherwise it names one branch, case-insensitively). */
export function isGlobPattern(name: string): boolean {
  return /[*?\\[\]{}]/.test(name);
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

/** One character as an RE2 literal: letters, digits and non-ASCII as they are, anything else escaped. */
function quote(c: string): string {
  return /^[\p{L}\p{N}_ ]$/u.test(c) ? c : /^[\x21-\x7e]$/.test(c) ? `\\${c}` : `\\x{${c.codePointAt(0)!.toString(16)}}`;
}

/** Widest numeric range `{n1..n2}` an EditorConfig glob may hold (each number becomes an alternative). */
const MAX_EDITORCONFIG_RANGE = 1000;
/** Longest regular expression an EditorConfig glob may become. */
const MAX_EDITORCONFIG_REGEX_LENGTH = 64 * 1024;

/**
 * An EditorConfig section name as a matcher of a path relative to the `.editorconfig`'s directory
 * (no leading slash), on RE2: the file comes from the repository, and a backtracking matcher
 * (`[*a*a*a*a*a*a*a*ab]` against a long path) or an expanding one (`{1..100000000}`, nested braces)
 * would stall the service. The specification's rules: a name without `/` matches a file's base
 * name in any directory, one with `/` the path from the file's directory (a leading `/` dropped);
 * `*` any run of non-separators, `**` any run at all (a `**` between two slashes also none), `?` one
 * non-separator, `[…]` / `[!…]` classes, `{a,b}` alternatives, `{n1..n2}` integers in the range,
 * `\` escapes. Throws on a malformed or oversized name.
 */
export function compileEditorConfigGlob(section: string): Pattern {
  if (section.length > MAX_PATTERN_LENGTH) throw new Error('pattern too long');
  let chars = [...section];
  const basename = !chars.includes('/');
  if (chars[0] === '/') chars = chars.slice(1);
  let pos = 0;

  const charClass = (): string => {
    const start = pos;
    let out = '[';
    if (chars[pos] === '!' || chars[pos] === '^') {
      pos++;
      out += '^';
    }
    let empty = true;
    while (pos < chars.length) {
      const c = chars[pos++]!;
      if (c === ']' && !empty) return `${out}]`;
      empty = false;
      if (c === '\\' && pos < chars.length) out += quote(chars[pos++]!);
      else out += c === '-' ? '-' : quote(c);
    }
    // No closing bracket: the `[` is a literal, as in the specification's tests.
    pos = start;
    return '\\[';
  };

  const range = (): string | null => {
    const close = chars.indexOf('}', pos);
    const m = close < 0 ? null : /^([+-]?\d+)\.\.([+-]?\d+)$/.exec(chars.slice(pos, close).join(''));
    if (!m) return null;
    const [lo, hi] = [Number(m[1]), Number(m[2])].sort((a, b) => a - b) as [number, number];
    if (hi - lo > MAX_EDITORCONFIG_RANGE) throw new Error('numeric range too wide');
    pos = close + 1;
    const numbers: string[] = [];
    for (let n = lo; n <= hi; n++) numbers.push(n < 0 ? `\\-${-n}` : `\\+?${n}`);
    return `(?:${numbers.join('|')})`;
  };

  const sequence = (inBraces: boolean): string => {
    let out = '';
    while (pos < chars.length) {
      const c = chars[pos++]!;
      if (inBraces && c === '}') return `${out})`;
      switch (c) {
        case '*':
          if (chars[pos] === '*') {
            while (chars[pos] === '*') pos++;
            if (out.endsWith('/') && chars[pos] === '/') {
              pos++;
              out += '(?:.*/)?';
            } else {
              out += '.*';
            }
          } else {
            out += '[^/]*';
          }
          break;
        case '?':
          out += '[^/]';
          break;
        case '[':
          out += charClass();
          break;
        case '{':
          out += range() ?? `(?:${sequence(true)}`;
          break;
        case ',':
          out += inBraces ? '|' : ',';
          break;
        case '\\':
          out += pos < chars.length ? quote(chars[pos++]!) : '\\\\';
          break;
        default:
          out += c === '/' ? '/' : quote(c);
      }
    }
    if (inBraces) throw new Error('unterminated alternatives');
    return out;
  };

  let source = sequence(false);
  if (source.startsWith('.*/')) source = `(?:.*/)?${source.slice(3)}`;
  if (source.length > MAX_EDITORCONFIG_REGEX_LENGTH) throw new Error('pattern too long');
  const re = compile(source, true);
  return { test: (path) => re.test(basename ? path.slice(path.lastIndexOf('/') + 1) : path) };
}
