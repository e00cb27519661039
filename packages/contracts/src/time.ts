import { unprocessable } from './errors.js';

/** What Gitea sends for a time that was never set. */
export const ZERO_TIME = '0001-01-01T00:00:00Z';

/** What Gitea sends for a unix timestamp that was never set (its TimeStamp(0).AsTime()): the epoch. */
export const UNIX_ZERO_TIME = '1970-01-01T00:00:00Z';

/**
 * A time Gitea keeps as a unix timestamp (archived, last login, started, stopped) and renders
 * with AsTime(): never set is the epoch, not Go's zero time.
 */
export function formatTimestamp(value: Date | null | undefined): string {
  return value && !Number.isNaN(value.getTime()) && value.getTime() > 0 ? formatTime(value) : UNIX_ZERO_TIME;
}

/** A time cut to whole seconds, as Gitea's unix timestamps keep it (so lists order by the same second). */
export function wholeSeconds(d: Date): Date {
  return new Date(Math.floor(d.getTime() / 1000) * 1000);
}

/** RFC 3339 with second precision, as Gitea's unix-second timestamps serialise. */
export function formatTime(value: Date | null | undefined): string {
  if (!value || Number.isNaN(value.getTime()) || value.getTime() <= 0) return ZERO_TIME;
  const iso = value.toISOString();
  // YYYY-MM-DDTHH:mm:ss.sssZ for years 0 to 9999; the six-digit years of others keep the general cut.
  return iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, 'Z');
}

/** A time in a query as Gitea's routes parse it (RFC 3339: `since`, `before`); anything else is Gitea's 422. */
export function parseQueryTime(name: string, value: string | undefined): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const d = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(d.getTime())) {
    throw unprocessable(`parsing time "${value}" as "2006-01-02T15:04:05Z07:00": cannot parse ${name}`);
  }
  return d;
}
