import { CronExpressionParser } from 'cron-parser';

/**
 * When a scheduled job repeats: a fixed interval (`@every 10m`) or a cron pattern (`@midnight`,
 * `0 3 * * *`). Both queue drivers and anyone showing the next run use {@link nextRunAt}, so the
 * time a listing shows is the time the job is queued for.
 */
export type RepeatSpec = { everyMs: number } | { pattern: string };

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration as Gitea writes them (`72h`, `1h30m`, `5s`) in milliseconds; null if it is not one. */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim();
  if (!/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(trimmed)) return null;
  let total = 0;
  for (const [, n, unit] of trimmed.matchAll(DURATION_PART)) total += Number(n) * UNIT_MS[unit!]!;
  return Math.round(total);
}

/**
 * Gitea's schedule strings (robfig/cron): `@every <duration>`, the `@daily`-style descriptors,
 * or a cron expression of five fields (six with seconds). Throws on anything else.
 */
export function parseSchedule(spec: string): RepeatSpec {
  const s = spec.trim();
  if (s.startsWith('@every ')) {
    const everyMs = parseDuration(s.slice('@every '.length));
    if (!everyMs || everyMs < 1000) throw new Error(`bad interval in schedule "${spec}"`);
    return { everyMs };
  }
  const pattern = DESCRIPTORS[s] ?? s;
  try {
    CronExpressionParser.parse(pattern);
  } catch (err) {
    throw new Error(`bad schedule "${spec}": ${err instanceof Error ? err.message : String(err)}`);
  }
  return { pattern };
}

/**
 * The first run strictly after `after` (epoch ms). Intervals are aligned on multiples of the
 * interval since the epoch (as BullMQ aligns them), so every replica computes the same ticks.
 */
export function nextRunAt(repeat: RepeatSpec, after: number): number {
  if ('everyMs' in repeat) return Math.floor(after / repeat.everyMs) * repeat.everyMs + repeat.everyMs;
  return CronExpressionParser.parse(repeat.pattern, { currentDate: new Date(after) })
    .next()
    .getTime();
}
