import { eventLoopDelays, metricsRegistry, type DelayHistogram } from './metrics.js';

/** A histogram whose samples are the given delays between timer ticks, in milliseconds. */
const histogram = (samplesMs: number[]): DelayHistogram => {
  const ns = [...samplesMs].sort((a, b) => a - b).map((ms) => ms * 1e6);
  return {
    count: ns.length,
    min: ns.length ? ns[0]! : 9223372036854776000,
    max: ns.length ? ns.at(-1)! : 0,
    mean: ns.length ? ns.reduce((a, b) => a + b, 0) / ns.length : Number.NaN,
    stddev: ns.length ? Math.sqrt(ns.reduce((a, b) => a + (b - ns.reduce((x, y) => x + y, 0) / ns.length) ** 2, 0) / ns.length) : Number.NaN,
    percentile: (p) => ns[Math.min(ns.length - 1, Math.ceil((p / 100) * ns.length) - 1)]!,
  };
};

describe(eventLoopDelays.name, () => {
  it('should report the delays net of the sampling interval, in seconds', () => {
    const delays = eventLoopDelays(histogram([100.5, 100.5, 101, 350]), 100)!;
    expect(delays.get('min')).toBeCloseTo(0.0005, 9);
    expect(delays.get('p50')).toBeCloseTo(0.0005, 9);
    expect(delays.get('max')).toBeCloseTo(0.25, 9);
    expect(delays.get('mean')).toBeCloseTo((0.5 + 0.5 + 1 + 250) / 4 / 1000, 9);
    // The spread of the samples is the spread of the delays: no interval to take off.
    expect(delays.get('stddev')).toBeCloseTo(Math.sqrt((2 * 62.5 ** 2 + 62 ** 2 + 187 ** 2) / 4) / 1000, 9);
  });

  it('should report no negative delay for a tick a little early, and nothing before the first sample', () => {
    expect(eventLoopDelays(histogram([99.8]), 100)!.get('min')).toBe(0);
    expect(eventLoopDelays(histogram([]), 100)).toBeNull();
  });
});

describe('the event-loop delay series', () => {
  it('should be exposed once each, as gauges', async () => {
    const text = await metricsRegistry.metrics();
    for (const suffix of ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99']) {
      expect(text.match(new RegExp(`^# TYPE nodejs_eventloop_lag_${suffix}_seconds gauge$`, 'gm'))).toHaveLength(1);
    }
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });
});
