/** What Gitea sends for a time that was never set. */
export const ZERO_TIME = '0001-01-01T00:00:00Z';

/** RFC 3339 with second precision, as Gitea's unix-second timestamps serialise. */
export function formatTime(value: Date | null | undefined): string {
  if (!value || Number.isNaN(value.getTime()) || value.getTime() <= 0) return ZERO_TIME;
  return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
