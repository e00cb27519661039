/** What Gitea sends for a time that was never set. */
export const ZERO_TIME = '0001-01-01T00:00:00Z';

/** A time cut to whole seconds, as Gitea's unix timestamps keep it (so lists order by the same second). */
export function wholeSeconds(d: Date): Date {
  return new Date(Math.floor(d.getTime() / 1000) * 1000);
}

/** RFC 3339 with second precision, as Gitea's unix-second timestamps serialise. */
export function formatTime(value: Date | null | undefined): string {
  if (!value || Number.isNaN(value.getTime()) || value.getTime() <= 0) return ZERO_TIME;
  return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
