import { jest } from '@jest/globals';
import { ForegroundRequests } from './foreground.js';

describe(ForegroundRequests.name, () => {
  afterEach(() => jest.useRealTimers());

  it('should answer at once when no request is in flight, and once the last one is answered otherwise', async () => {
    const foreground = new ForegroundRequests();
    await foreground.idle(60_000);
    const first = foreground.enter();
    const second = foreground.enter();
    let idle = false;
    const waited = foreground.idle(60_000).then(() => (idle = true));
    first();
    // Leaving twice counts once: the second request is still in flight.
    first();
    await Promise.resolve();
    expect(idle).toBe(false);
    expect(foreground.waiting).toBe(1);
    second();
    await waited;
    expect(foreground.waiting).toBe(0);
  });

  it('should stop waiting after the longest wait however many requests are still in flight', async () => {
    jest.useFakeTimers();
    const foreground = new ForegroundRequests();
    foreground.enter();
    let idle = false;
    const waited = foreground.idle(50).then(() => (idle = true));
    jest.advanceTimersByTime(49);
    await Promise.resolve();
    expect(idle).toBe(false);
    jest.advanceTimersByTime(1);
    await waited;
    expect(foreground.waiting).toBe(0);
  });

  it('should stop waiting once its stop signal is aborted', async () => {
    const foreground = new ForegroundRequests();
    foreground.enter();
    const stop = new AbortController();
    const waited = foreground.idle(600_000, stop.signal);
    expect(foreground.waiting).toBe(1);
    stop.abort();
    await waited;
    expect(foreground.waiting).toBe(0);
    await foreground.idle(600_000, stop.signal);
  });
});
