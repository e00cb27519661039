/**
 * The part of GitHub's expression language the server evaluates when it expands a matrix: the
 * `matrix` context (`matrix.os`, `matrix['node']`, nested properties), literals, `!`, `==`, `!=`,
 * `&&`, `||` and parentheses. Anything else (another context, a function) is act_runner's to
 * evaluate: interpolation leaves such an expression as written.
 */

/** An expression the server does not evaluate (it stays `${{ … }}` in the text). */
class NotEvaluable extends Error {}

type Token =
  | { kind: 'ident'; value: string }
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'op'; value: string };

const OPERATORS = ['==', '!=', '&&', '||', '!', '.', '[', ']', '(', ')'];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'") {
      // A quote inside a string literal is written twice.
      let value = '';
      i++;
      for (;;) {
        if (i >= source.length) throw new NotEvaluable('unterminated string');
        if (source[i] === "'") {
          if (source[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += source[i++];
      }
      tokens.push({ kind: 'string', value });
    } else if (/[0-9]/.test(c) || (c === '-' && /[0-9]/.test(source[i + 1] ?? ''))) {
      const m = /^-?(0x[0-9a-f]+|[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?)/i.exec(source.slice(i))!;
      tokens.push({ kind: 'number', value: Number(m[0]) });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(source.slice(i))!;
      tokens.push({ kind: 'ident', value: m[0] });
      i += m[0].length;
    } else {
      const op = OPERATORS.find((o) => source.startsWith(o, i));
      if (!op) throw new NotEvaluable(`unexpected ${c}`);
      tokens.push({ kind: 'op', value: op });
      i += op.length;
    }
  }
  return tokens;
}

/** GitHub's truthiness: false, 0, '', null and NaN are false. */
const truthy = (v: unknown): boolean => !(v === false || v === 0 || v === '' || v === null || v === undefined || Number.isNaN(v));

const toNumber = (v: unknown): number => {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return v.trim() === '' ? 0 : Number(v);
  return NaN;
};

/** GitHub's loose equality: strings compare without case, mixed types as numbers, objects by identity. */
function looseEquals(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') return a === b;
  if (typeof a === typeof b && a !== null && b !== null) return a === b;
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if (typeof a === 'object' || typeof b === 'object') return false;
  return toNumber(a) === toNumber(b);
}

/** A property of an object, matched without case as GitHub's contexts are. */
function property(target: unknown, name: string): unknown {
  if (!target || typeof target !== 'object' || Array.isArray(target)) return null;
  const record = target as Record<string, unknown>;
  if (Object.prototype.hasOwnProperty.call(record, name)) return record[name];
  const key = Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? null : record[key];
}

/** Deepest nesting of parentheses, indexes and `!` evaluated (GitHub refuses beyond 50 as well). */
export const MAX_EXPRESSION_DEPTH = 50;

class Parser {
  private at = 0;
  private depth = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly matrix: Record<string, unknown>,
  ) {}

  parse(): unknown {
    const value = this.or();
    if (this.at < this.tokens.length) throw new NotEvaluable('trailing tokens');
    return value;
  }

  private peekOp(op: string): boolean {
    const t = this.tokens[this.at];
    return t?.kind === 'op' && t.value === op;
  }

  private expectOp(op: string): void {
    if (!this.peekOp(op)) throw new NotEvaluable(`expected ${op}`);
    this.at++;
  }

  /** Guards the recursion: a deeply nested expression is left for the runner, not a stack overflow. */
  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_EXPRESSION_DEPTH) throw new NotEvaluable('nested too deeply');
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private or(): unknown {
    return this.nested(() => this.orChain());
  }

  private orChain(): unknown {
    let left = this.and();
    while (this.peekOp('||')) {
      this.at++;
      const right = this.and();
      left = truthy(left) ? left : right;
    }
    return left;
  }

  private and(): unknown {
    let left = this.equality();
    while (this.peekOp('&&')) {
      this.at++;
      const right = this.equality();
      left = truthy(left) ? right : left;
    }
    return left;
  }

  private equality(): unknown {
    let left = this.unary();
    while (this.peekOp('==') || this.peekOp('!=')) {
      const negate = (this.tokens[this.at++] as { value: string }).value === '!=';
      const equal = looseEquals(left, this.unary());
      left = negate ? !equal : equal;
    }
    return left;
  }

  private unary(): unknown {
    if (this.peekOp('!')) {
      this.at++;
      return this.nested(() => !truthy(this.unary()));
    }
    return this.primary();
  }

  private primary(): unknown {
    const t = this.tokens[this.at++];
    if (!t) throw new NotEvaluable('unexpected end');
    if (t.kind === 'string' || t.kind === 'number') return t.value;
    if (t.kind === 'op' && t.value === '(') {
      const value = this.or();
      this.expectOp(')');
      return value;
    }
    if (t.kind !== 'ident') throw new NotEvaluable(`unexpected ${t.value}`);
    const word = t.value.toLowerCase();
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    // Only the matrix is known here; github, vars, needs, functions… are act_runner's.
    if (word !== 'matrix' || this.peekOp('(')) throw new NotEvaluable(`${t.value} is not evaluated by the server`);
    let value: unknown = this.matrix;
    for (;;) {
      if (this.peekOp('.')) {
        this.at++;
        const name = this.tokens[this.at++];
        if (name?.kind !== 'ident') throw new NotEvaluable('expected a property name');
        value = property(value, name.value);
      } else if (this.peekOp('[')) {
        this.at++;
        const index = this.or();
        this.expectOp(']');
        value = Array.isArray(value) ? (value[toNumber(index)] ?? null) : property(value, String(index));
      } else {
        return value;
      }
    }
  }
}

/** A value as GitHub turns it into text: null is empty, objects and arrays are their type's name. */
export function coerceToString(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? 'Array' : 'Object';
}

/** Where each `${{ … }}` of a text ends: at the first `}}` outside a string literal. */
function expressionEnd(text: string, from: number): number {
  let quoted = false;
  for (let i = from; i < text.length; i++) {
    if (text[i] === "'") quoted = !quoted;
    else if (!quoted && text.startsWith('}}', i)) return i;
  }
  return -1;
}

/**
 * The text with each `${{ … }}` the server can evaluate against the matrix replaced by its value;
 * the others stay as written, for act_runner.
 */
export function interpolate(text: string, matrix: Record<string, unknown>): string {
  let out = '';
  let i = 0;
  for (;;) {
    const start = text.indexOf('${{', i);
    if (start < 0) return out + text.slice(i);
    const end = expressionEnd(text, start + 3);
    if (end < 0) return out + text.slice(i);
    out += text.slice(i, start);
    try {
      out += coerceToString(new Parser(tokenize(text.slice(start + 3, end)), matrix).parse());
    } catch (err) {
      if (!(err instanceof NotEvaluable)) throw err;
      out += text.slice(start, end + 2);
    }
    i = end + 2;
  }
}

/** Whether a text holds an expression (Gitea: a name with one is evaluated instead of suffixed). */
export const hasExpression = (text: string): boolean => text.includes('${{') && text.includes('}}');

/** A value the runner will not evaluate again: GitHub never evaluates an evaluation's result. */
export const escapeExpressions = (text: string): string => text.replaceAll('${{', () => "${{ '$' }}{{");
