/** What `git count-objects -v` and the pack directory tell about a repository's object storage. */
export interface ObjectStats {
  looseObjects: number;
  packs: number;
  /** Size of the packs in KiB. */
  packKiB: number;
  /** Whether the packs carry a reachability bitmap (what lets upload-pack skip walking history). */
  hasBitmap: boolean;
}

export type HousekeepingAction = 'none' | 'incremental' | 'full';

/** Loose objects past which they are packed (git gc --auto's gc.auto default is 6700; Gitaly packs at 1024). */
export const LOOSE_OBJECT_LIMIT = 1024;

/**
 * How many packs a repository may have before they are merged into one: more for larger
 * repositories, as Gitaly's OptimizeRepository allows (log base 1.3 of the size in MiB), so a
 * large repository is not rewritten whole after every push, and at least two.
 */
export function allowedPacks(packKiB: number): number {
  const mib = packKiB / 1024;
  return Math.max(2, Math.floor(Math.log(Math.max(mib, 1)) / Math.log(1.3)));
}

/**
 * The heuristics after a push (modelled on Gitaly's OptimizeRepository and `git maintenance`'s
 * incremental strategy): a full repack with a bitmap when the packs have none (clones then reuse
 * the pack instead of walking the whole history) or are too many; an incremental repack when loose
 * objects piled up; otherwise nothing.
 */
export function housekeepingAction(s: ObjectStats): HousekeepingAction {
  if (s.packs > 0 && !s.hasBitmap) return 'full';
  if (s.packs > allowedPacks(s.packKiB)) return 'full';
  if (s.looseObjects > LOOSE_OBJECT_LIMIT) return s.packs === 0 ? 'full' : 'incremental';
  return 'none';
}
