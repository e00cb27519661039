import { pathEscape, queryEscape } from '@gitforge/contracts';
import { formatGitTime, formatGitTimeUtc } from './commit.mapper.js';

describe('commit and URL formatting', () => {
  it('should format git dates in their own offset like Go’s RFC 3339', () => {
    expect(formatGitTime({ when: 1706925906, tz: '+0200' })).toBe('2024-02-03T04:05:06+02:00');
    expect(formatGitTime({ when: 1706925906, tz: '-0530' })).toBe('2024-02-02T20:35:06-05:30');
    expect(formatGitTime({ when: 1706925906, tz: '+0000' })).toBe('2024-02-03T02:05:06Z');
    expect(formatGitTimeUtc({ when: 1706925906 })).toBe('2024-02-03T02:05:06Z');
  });

  it('should escape like Go’s url.PathEscape and QueryEscape', () => {
    expect(pathEscape('a b+c@d:e$f&g=h,i;j?k!(l)')).toBe('a%20b+c@d:e$f&g=h%2Ci%3Bj%3Fk%21%28l%29');
    expect(queryEscape('feature/x y')).toBe('feature%2Fx+y');
  });
});
