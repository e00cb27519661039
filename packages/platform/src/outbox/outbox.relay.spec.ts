import { nextPollDelay } from './outbox.relay.js';

describe('outbox relay polling', () => {
  it('should look less often while it finds nothing, up to eight seconds, and every second again once it finds rows', () => {
    const delays: number[] = [];
    let delay = 1_000;
    for (const found of [false, false, false, false, false, true, false]) {
      delay = nextPollDelay(delay, found);
      delays.push(delay);
    }
    expect(delays).toEqual([2_000, 4_000, 8_000, 8_000, 8_000, 1_000, 2_000]);
  });
});
