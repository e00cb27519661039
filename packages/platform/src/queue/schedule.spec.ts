import { nextRunAt, parseDuration, parseSchedule } from './schedule.js';

describe('parseSchedule', () => {
  it('should read Gitea intervals and descriptors', () => {
    expect(parseSchedule('@every 72h')).toEqual({ everyMs: 72 * 3600_000 });
    expect(parseSchedule('@every 1h30m')).toEqual({ everyMs: 90 * 60_000 });
    expect(parseSchedule('@midnight')).toEqual({ pattern: '0 0 * * *' });
    expect(parseSchedule('@annually')).toEqual({ pattern: '0 0 1 1 *' });
    expect(parseSchedule('0 3 * * 1')).toEqual({ pattern: '0 3 * * 1' });
  });

  it('should refuse what is not a schedule', () => {
    expect(() => parseSchedule('@every soon')).toThrow(/bad interval/);
    expect(() => parseSchedule('@every 10ms')).toThrow(/bad interval/);
    expect(() => parseSchedule('whenever')).toThrow(/bad schedule/);
  });
});

describe('parseDuration', () => {
  it('should read Go durations and nothing else', () => {
    expect(parseDuration('168h')).toBe(168 * 3600_000);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('0s')).toBe(0);
    expect(parseDuration('10')).toBeNull();
    expect(parseDuration('1d')).toBeNull();
  });
});

describe('nextRunAt', () => {
  it('should align intervals on multiples since the epoch, strictly after the time given', () => {
    expect(nextRunAt({ everyMs: 10_000 }, 25_000)).toBe(30_000);
    expect(nextRunAt({ everyMs: 10_000 }, 30_000)).toBe(40_000);
  });

  it('should follow cron patterns', () => {
    const after = new Date(2026, 10, 25, 15, 30).getTime();
    expect(new Date(nextRunAt({ pattern: '0 0 * * *' }, after)).getTime()).toBe(
      new Date(2026, 10, 26, 0, 0).getTime(),
    );
  });
});
