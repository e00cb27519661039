import { isRFC3339, ValidateBy, type ValidationOptions } from 'class-validator';
import { isValidGlob } from '../../glob.js';

/**
 * Validators named after Gitea's binding rules, so a 422 reads `[Name]: AlphaDashDot` as Gitea's does.
 * The constraint name is what platform's formatter prints after the field name.
 */

const ALPHA_DASH_DOT = /^[0-9A-Za-z_.-]+$/;
export function isAlphaDashDot(v: unknown): v is string {
  return typeof v === 'string' && ALPHA_DASH_DOT.test(v);
}
export function AlphaDashDot(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'AlphaDashDot', validator: { validate: isAlphaDashDot } }, options);
}

// Gitea's IsValidUsername: starts with an alphanumeric, no two special characters in a row,
// does not end with a special character.
const USERNAME = /^[0-9A-Za-z](?:[0-9A-Za-z]|[-._](?=[0-9A-Za-z]))*$/;
export function isValidUsername(v: unknown): v is string {
  return typeof v === 'string' && USERNAME.test(v);
}
export function Username(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'Username', validator: { validate: isValidUsername } }, options);
}

/** The longest badge slug (the `badge.slug` column). */
export const MAX_BADGE_SLUG_LENGTH = 100;
// Starts with an alphanumeric (so never `.` or `..` in a path), then alphanumerics and `-_.`.
const BADGE_SLUG = /^[0-9A-Za-z][0-9A-Za-z_.-]*$/;
/** Whether `v` could be a badge's slug: a badge's path segment, so no slash, space or control character. */
export function isValidBadgeSlug(v: unknown): v is string {
  return typeof v === 'string' && v.length <= MAX_BADGE_SLUG_LENGTH && BADGE_SLUG.test(v);
}
/** Gitea's BadgeSlug binding rule (the admin badge form), as gitforge spells a slug. */
export function BadgeSlug(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'BadgeSlug', validator: { validate: isValidBadgeSlug } }, options);
}

/** git check-ref-format rules for a branch or tag name (without `refs/heads/`). */
export function isValidRefName(v: unknown): v is string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 255) return false;
  if (v.startsWith('-') || v.startsWith('/') || v.endsWith('/') || v.endsWith('.') || v.endsWith('.lock')) return false;
  if (v === '@' || v.includes('..') || v.includes('//') || v.includes('@{')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(v)) return false;
  return v.split('/').every((part) => part.length > 0 && !part.startsWith('.') && !part.endsWith('.lock'));
}
/**
 * A branch or tag name, or an empty string: Gitea's IsValidRefPattern takes "", which the optional
 * fields read as "not given" (the default branch), and which Go clients send for every field they
 * leave unset. Required fields add `@IsNotEmpty`.
 */
export function GitRefName(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'GitRefName', validator: { validate: (v: unknown) => v === '' || isValidRefName(v) } }, options);
}

export function ValidUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'Url',
      validator: {
        validate: (v: unknown) => {
          if (typeof v !== 'string') return false;
          if (v === '') return true;
          try {
            const u = new URL(v);
            return u.protocol === 'http:' || u.protocol === 'https:';
          } catch {
            return false;
          }
        },
      },
    },
    options,
  );
}

export function IsStringMap(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'StringMap',
      validator: {
        validate: (v: unknown) =>
          typeof v === 'object' &&
          v !== null &&
          !Array.isArray(v) &&
          Object.values(v as Record<string, unknown>).every((x) => typeof x === 'string'),
      },
    },
    options,
  );
}

/** Gitea's `Required` binding on a list: present and not empty. */
export function NonEmptyArray(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'Required', validator: { validate: (v: unknown) => Array.isArray(v) && v.length > 0 } }, options);
}

/** Gitea's GlobPattern binding rule (branch filters). */
export function GlobPattern(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'GlobPattern', validator: { validate: (v: unknown) => typeof v === 'string' && isValidGlob(v) } },
    options,
  );
}

/** Gitea's `Required` binding on a number: present and not zero. */
export function NonZero(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'Required', validator: { validate: (v: unknown) => typeof v === 'number' && v !== 0 } }, options);
}

/** The largest id a row can have (ids are 32-bit integer columns on PostgreSQL); larger ones name nothing. */
export const MAX_ROW_ID = 2_147_483_647;

/** Gitea's ctx.FormInt64: strconv.ParseInt(s, 10, 64), and anything it refuses (junk, beyond int64) reads as 0. */
export function formInt64(raw: unknown): number {
  const s = typeof raw === 'string' ? raw.trim() : '';
  if (!/^[+-]?\d{1,19}$/.test(s)) return 0;
  const n = BigInt(s);
  return n > 9_223_372_036_854_775_807n || n < -9_223_372_036_854_775_808n ? 0 : Number(n);
}

/** Whether a number could be a row's id (or a negative pseudo id): larger ones name no row, and PostgreSQL refuses to compare them. */
export function isRowIdRange(n: number): boolean {
  return Math.abs(n) <= MAX_ROW_ID;
}

/**
 * A row id from a path or a query, read as Go's ParseInt reads it; anything else, and any id no
 * row can have (beyond MAX_ROW_ID, which PostgreSQL would refuse to compare), is 0: no row.
 */
export function idFrom(raw: string | number | undefined): number {
  const n = typeof raw === 'number' ? raw : /^[+-]?\d{1,19}$/.test(raw ?? '') ? Number(raw) : 0;
  return Number.isInteger(n) && n > 0 && n <= MAX_ROW_ID ? n : 0;
}

/**
 * A time as Go's time.Time decodes it from JSON: RFC 3339 only. (ISO 8601's week and ordinal
 * dates, which `IsISO8601` passes, are not times any handler could store.)
 */
export function RFC3339Date(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'Date', validator: { validate: (v: unknown) => typeof v === 'string' && isRFC3339(v) } }, options);
}
