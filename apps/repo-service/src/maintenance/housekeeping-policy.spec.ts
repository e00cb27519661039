import { allowedPacks, housekeepingAction, LOOSE_OBJECT_LIMIT } from './housekeeping-policy.js';

describe('housekeepingAction', () => {
  const base = { looseObjects: 0, packs: 1, packKiB: 10 * 1024, hasBitmap: true };

  it('should do nothing for a packed repository with a bitmap', () => {
    expect(housekeepingAction(base)).toBe('none');
  });

  it('should repack fully when the packs have no bitmap (a pushed pack as received)', () => {
    expect(housekeepingAction({ ...base, hasBitmap: false })).toBe('full');
  });

  it('should repack incrementally when loose objects pile up beside a bitmapped pack', () => {
    expect(housekeepingAction({ ...base, looseObjects: LOOSE_OBJECT_LIMIT + 1 })).toBe('incremental');
    expect(housekeepingAction({ ...base, looseObjects: LOOSE_OBJECT_LIMIT })).toBe('none');
  });

  it('should repack fully when only loose objects exist and there are many', () => {
    expect(
      housekeepingAction({ looseObjects: LOOSE_OBJECT_LIMIT + 1, packs: 0, packKiB: 0, hasBitmap: false }),
    ).toBe('full');
    expect(housekeepingAction({ looseObjects: 10, packs: 0, packKiB: 0, hasBitmap: false })).toBe('none');
  });

  it('should merge packs past the allowance, which grows with the size', () => {
    expect(allowedPacks(0)).toBe(2);
    expect(allowedPacks(1024 * 1024)).toBeGreaterThan(allowedPacks(10 * 1024));
    expect(housekeepingAction({ ...base, packs: allowedPacks(base.packKiB) + 1 })).toBe('full');
    expect(housekeepingAction({ ...base, packs: allowedPacks(base.packKiB) })).toBe('none');
  });
});
