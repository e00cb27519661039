/** Deepest nesting of arrays and objects a request body may have. */
export const MAX_BODY_DEPTH = 64;

/** A body nested deeper than {@link MAX_BODY_DEPTH}; answered as an undecodable body. */
export class BodyTooDeep extends Error {
  readonly code = 'FST_ERR_CTP_INVALID_JSON_BODY';
  constructor() {
    super(`nesting deeper than ${MAX_BODY_DEPTH} levels`);
  }
}

/**
 * A string holding U+0000: no text column of PostgreSQL and no git message or environment value
 * can store it, so it is refused as an undecodable body (422) before it reaches a service.
 */
export class NulInBody extends Error {
  readonly code = 'FST_ERR_CTP_INVALID_JSON_BODY';
  constructor() {
    super('a string holds a NUL character (U+0000)');
  }
}

/**
 * A decoded JSON body as Go's encoding/json leaves it for Gitea's handlers: a `null` field is the
 * same as an absent one (so `{"description": null}` changes nothing), and a lone UTF-16
 * surrogate becomes U+FFFD. Nesting deeper than {@link MAX_BODY_DEPTH} is refused before the
 * validators walk it recursively.
 */
export function normalizeJsonBody(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return wellFormed(noNul(value));
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_BODY_DEPTH) throw new BodyTooDeep();
  if (Array.isArray(value)) return value.map((v) => normalizeJsonBody(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    // Keys that would reach an object's prototype are dropped (the form parser does not refuse them).
    if (v === null || key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    out[wellFormed(noNul(key))] = normalizeJsonBody(v, depth + 1);
  }
  return out;
}

/**
 * A query string as Gitea's handlers read it (`ctx.FormString`): the first value of a repeated
 * parameter, never an array, so `?ref=a&ref=b` cannot reach a handler as a list. A parameter
 * holding a NUL character is left out, as Gitea drops such a search keyword: no database column
 * could be compared with it.
 */
export function parseQueryString(query: string): Record<string, string> {
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [key, value] of new URLSearchParams(query)) {
    if (seen.has(key)) continue;
    seen.add(key);
    if (!key.includes('\u0000') && !value.includes('\u0000')) out[key] = wellFormed(value);
  }
  return out;
}

/** Whether a decoded path parameter can name anything: a NUL character names no user, repository or row. */
export function isNameablePathValue(value: unknown): boolean {
  return typeof value !== 'string' || !value.includes('\u0000');
}

function noNul(value: string): string {
  if (value.includes('\u0000')) throw new NulInBody();
  return value;
}

/** Lone UTF-16 surrogates replaced by U+FFFD, as Go decodes them (String.prototype.toWellFormed). */
function wellFormed(value: string): string {
  return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
