import { formatTime, ZERO_TIME } from './time.js';

describe(formatTime.name, () => {
  it('should write whole seconds in RFC 3339, as Gitea serialises its unix-second times', () => {
    expect(formatTime(new Date('2026-11-30T20:14:16.789Z'))).toBe('2026-11-30T20:14:16Z');
  });

  it('should cut the milliseconds of a year beyond 9999 too', () => {
    expect(formatTime(new Date('+012345-06-07T08:09:10.123Z'))).toBe('+012345-06-07T08:09:10Z');
  });

  it("should write Go's zero time for no time, an invalid one and the epoch or before", () => {
    expect([formatTime(null), formatTime(undefined), formatTime(new Date('nope')), formatTime(new Date(0))]).toEqual([ZERO_TIME, ZERO_TIME, ZERO_TIME, ZERO_TIME]);
  });
});
