import { heapFlags, heapRole } from './heap.js';

const NEVER = '--gc-memory-reducer-start-delay-ms=2147483647';

describe('heapFlags', () => {
  it('gives processes that bulk passes through room to grow, and those that only answer small calls little', () => {
    expect(heapFlags({ GITFORGE_HEAP_MEMORY_REDUCER: false }, 'bulk')).toEqual(['--heap-growing-percent=100', NEVER]);
    expect(heapFlags({ GITFORGE_HEAP_MEMORY_REDUCER: false }, 'calls')).toEqual(['--heap-growing-percent=20', NEVER]);
  });

  it('takes a configured growing factor over the role, and 0 leaves the factor to V8', () => {
    expect(heapFlags({ GITFORGE_HEAP_GROWING_PERCENT: 40, GITFORGE_HEAP_MEMORY_REDUCER: false }, 'calls')).toEqual(['--heap-growing-percent=40', NEVER]);
    expect(heapFlags({ GITFORGE_HEAP_GROWING_PERCENT: 0, GITFORGE_HEAP_MEMORY_REDUCER: false }, 'bulk')).toEqual([NEVER]);
  });

  it('leaves the memory reducer alone when it is asked for', () => {
    expect(heapFlags({ GITFORGE_HEAP_MEMORY_REDUCER: true }, 'bulk')).toEqual(['--heap-growing-percent=100']);
  });
});

describe('heapRole', () => {
  it('is bulk where file bytes or webhook payloads pass, calls elsewhere', () => {
    expect((['gateway', 'embedded', 'repo', 'issue', 'webhook'] as const).map((app) => heapRole(app))).toEqual(['bulk', 'bulk', 'bulk', 'bulk', 'bulk']);
    expect((['org', 'admin', 'actions'] as const).map((app) => heapRole(app))).toEqual(['calls', 'calls', 'calls']);
  });
});
