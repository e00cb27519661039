import { combineStates } from './status.mapper.js';

describe(combineStates.name, () => {
  it('should follow Gitea’s combined state rules', () => {
    expect(combineStates([])).toBe('pending');
    expect(combineStates(['success', 'skipped'])).toBe('success');
    expect(combineStates(['success', 'pending'])).toBe('pending');
    for (const bad of ['error', 'failure', 'warning']) expect(combineStates(['success', bad, 'pending'])).toBe('failure');
  });
});
