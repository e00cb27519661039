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
 * How one family of globs reads its syntax; {@link translate} turns a glob of any of them into an
 * RE2 expression, so every glob the forge matches goes through one translator.
 */
interface GlobDialect {
  /** RE2 for `?`: one character that is not a separator. */
  one: string;
  /** Characters that negate a class after its `[`. */
  negators: string;
  /** Malformed pieces (an unclosed or empty class, a trailing `\`) are literals instead of errors. */
  lenient: boolean;
  /** `{n1..n2}` is any integer in the range. */
  numericRanges: boolean;
  /** `/**\/` also matches a single `/` (no directory at all). */
  globstarDirectories: boolean;
}

/** Widest numeric range `{n1..n2}` a glob may hold (each number becomes an alternative). */
const MAX_NUMERIC_RANGE = 1000;

/** Regular expression a caller may still spend; numeric ranges take their share as they expand. */
interface RegexBudget {
  left: number;
}

/**
 * The RE2 expression of `chars` read as `dialect`: `*` any run of `one`, `**` any run at all, `?`
 * one `one`, `[abc]`, `[a-z]`, `[!abc]` a class, `{a,b}` alternatives (which may hold globs), `\`
 * escapes the next character. Throws on what the dialect calls malformed, and once the numeric
 * ranges have spent `budget`: they are what makes an expression much longer than its glob, and
 * stopping there spares building megabytes only to refuse them.
 */
function translate(chars: readonly string[], dialect: GlobDialect, budget: RegexBudget = { left: Infinity }): string {
  let pos = 0;

  const charClass = (): string => {
    const start = pos;
    let out = '[';
    if (chars[pos] !== undefined && dialect.negators.includes(chars[pos]!)) {
      pos++;
      out += '^';
    }
    let empty = true;
    while (pos < chars.length) {
      const c = chars[pos++]!;
      if (c === ']') {
        if (!empty) return `${out}]`;
        if (!dialect.lenient) throw new Error('empty character class');
      }
      empty = false;
      if (c === '\\' && pos < chars.length) out += quote(chars[pos++]!);
      else if (c === '\\' && !dialect.lenient) throw new Error('unterminated character class escape');
      else out += c === '-' ? '-' : quote(c);
    }
    if (!dialect.lenient) throw new Error('unterminated character class');
    // No closing bracket: the `[` is a literal.
    pos = start;
    return '\\[';
  };

  const range = (): string | null => {
    const close = chars.indexOf('}', pos);
    const m = close < 0 ? null : /^([+-]?\d+)\.\.([+-]?\d+)$/.exec(chars.slice(pos, close).join(''));
    if (!m) return null;
    const [lo, hi] = [Number(m[1]), Number(m[2])].sort((a, b) => a - b) as [number, number];
    if (hi - lo > MAX_NUMERIC_RANGE) throw new Error('numeric range too wide');
    pos = close + 1;
    const numbers: string[] = [];
    for (let n = lo; n <= hi; n++) numbers.push(n < 0 ? `\\-${-n}` : `\\+?${n}`);
    const expanded = `(?:${numbers.join('|')})`;
    budget.left -= expanded.length;
    if (budget.left < 0) throw new Error('pattern too long');
    return expanded;
  };

  const sequence = (inBraces: boolean): string => {
    let out = '';
    while (pos < chars.length) {
      const c = chars[pos++]!;
      if (inBraces && c === '}') return `${out})`;
      switch (c) {
        case '*':
          if (chars[pos] !== '*') {
            out += `${dialect.one}*`;
            break;
          }
          while (chars[pos] === '*') pos++;
          if (dialect.globstarDirectories && out.endsWith('/') && chars[pos] === '/') {
            pos++;
            out += '(?:.*/)?';
          } else {
            out += '.*';
          }
          break;
        case '?':
          out += dialect.one;
          break;
        case '[':
          out += charClass();
          break;
        case '{':
          out += (dialect.numericRanges ? range() : null) ?? `(?:${sequence(true)}`;
          break;
        case ',':
          out += inBraces ? '|' : ',';
          break;
        case '\\':
          if (pos < chars.length) out += quote(chars[pos++]!);
          else if (dialect.lenient) out += '\\\\';
          else throw new Error('no character to escape');
          break;
        default:
          out += c === '/' ? '/' : quote(c);
      }
    }
    if (inBraces) throw new Error('unterminated alternatives');
    return out;
  };

  return sequence(false);
}

/**
 * Gitea's globs (gobwas/glob), as {@link translate} reads them: `*` matches any run of characters
 * that are not separators, `?` one of them; a class negates with `!`. The whole value must
 * match. Without separators (hook branch filters, tag patterns) `*` matches anything. Throws on
 * a malformed pattern (unclosed class or group), which Gitea's binding reports as `GlobPattern`.
 */
export function compileGlob(pattern: string, separators = ''): Pattern {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new Error('pattern too long');
  const seps = [...separators].map(quote).join('');
  const dialect: GlobDialect = {
    one: seps ? `[^${seps}]` : '.',
    negators: '!',
    lenient: false,
    numericRanges: false,
    globstarDirectories: false,
  };
  return compile(translate([...pattern], dialect), true);
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

/**
 * Gitea's checkBranchFilter for hooks, on a full ref name (`refs/heads/…`, `refs/tags/…`): an
 * empty filter, `*` or `**` pass every ref; otherwise a branch whose name the glob matches, or any
 * ref whose full name it matches (so `main` filters tags out, `refs/tags/v*` lets them through).
 */
export function refFilterMatches(filter: string, ref: string): boolean {
  if (filter === '' || filter === '*' || filter === '**') return true;
  try {
    const glob = compileGlob(filter);
    return (ref.startsWith('refs/heads/') && glob.test(ref.slice('refs/heads/'.length))) || glob.test(ref);
  } catch {
    return false;
  }
}

/** One character as an RE2 literal: letters, digits and non-ASCII as they are, anything else escaped. */
function quote(c: string): string {
  return /^[\p{L}\p{N}_ ]$/u.test(c)
    ? c
    : /^[\x21-\x7e]$/.test(c)
      ? `\\${c}`
      : `\\x{${c.codePointAt(0)!.toString(16)}}`;
}

/** Longest regular expression an EditorConfig glob may become. */
const MAX_EDITORCONFIG_REGEX_LENGTH = 64 * 1024;
/**
 * Longest regular expression all the sections of one `.editorconfig` may become together. RE2
 * compiles some 64 KiB of expression in a fifth of a second: without a budget per file, 100
 * sections of that size took 11 s. Real sections are tens of characters (`*.{js,ts}`), so no real
 * file comes near this; a hostile one stops here.
 */
const MAX_EDITORCONFIG_FILE_REGEX_LENGTH = 64 * 1024;
/** Most sections of one `.editorconfig` compiled: each costs some microseconds and kilobytes however short, and real files have tens. */
const MAX_EDITORCONFIG_SECTIONS = 1000;

/** EditorConfig's globs: `/` separates, classes negate with `!` or `^`, numeric ranges, and malformed pieces are literals. */
const EDITORCONFIG: GlobDialect = {
  one: '[^/]',
  negators: '!^',
  lenient: true,
  numericRanges: true,
  globstarDirectories: true,
};

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
  return editorConfigGlob(section, { left: MAX_EDITORCONFIG_REGEX_LENGTH });
}

/** {@link compileEditorConfigGlob} spending `budget`: what the expression takes of it is spent even when the section is refused. */
function editorConfigGlob(section: string, budget: RegexBudget): Pattern {
  if (section.length > MAX_PATTERN_LENGTH) throw new Error('pattern too long');
  const start = budget.left;
  let chars = [...section];
  const basename = !chars.includes('/');
  if (chars[0] === '/') chars = chars.slice(1);
  let source = translate(chars, EDITORCONFIG, budget);
  if (source.startsWith('.*/')) source = `(?:.*/)?${source.slice(3)}`;
  // The ranges took their share while translating; now the whole expression counts.
  budget.left = start - source.length;
  if (budget.left < 0) throw new Error('pattern too long');
  const re = compile(source, true);
  return { test: (path) => re.test(basename ? path.slice(path.lastIndexOf('/') + 1) : path) };
}

/** One `.editorconfig`'s section names compiled under the file's budget. */
export interface EditorConfigGlobs {
  /** Each section's matcher, in order; null for a section that matches nothing (malformed, too large, or past the budget). */
  patterns: (Pattern | null)[];
  /** How much of the file's budget the sections spent: at least the length of what was compiled, to weigh a cache of these by. */
  regexLength: number;
}

/**
 * The sections of one `.editorconfig` as {@link compileEditorConfigGlob} compiles each, with one
 * budget for the whole file: the section that exhausts it and every later one match nothing, as a
 * malformed or oversized section does, so a file of many large sections answers at once.
 */
export function compileEditorConfigGlobs(sections: readonly string[]): EditorConfigGlobs {
  let left = MAX_EDITORCONFIG_FILE_REGEX_LENGTH;
  const patterns = sections.map((section, i) => {
    if (i >= MAX_EDITORCONFIG_SECTIONS || left <= 0) return null;
    const budget = { left: Math.min(left, MAX_EDITORCONFIG_REGEX_LENGTH) };
    const start = budget.left;
    try {
      return editorConfigGlob(section, budget);
    } catch {
      return null;
    } finally {
      left -= start - budget.left;
    }
  });
  return { patterns, regexLength: MAX_EDITORCONFIG_FILE_REGEX_LENGTH - Math.max(left, 0) };
}
