import { setFlagsFromString } from 'node:v8';

/** The heap settings of {@link PlatformConfig} that {@link tuneHeap} applies. */
export interface HeapSettings {
  GITFORGE_HEAP_GROWING_PERCENT: number;
  GITFORGE_HEAP_MEMORY_REDUCER: boolean;
}

let applied: string | undefined;

/**
 * The longest delay V8 takes for its memory reducer's first collection (a 32-bit count of
 * milliseconds, about 25 days): set as the delay, the reducer never starts.
 */
const NEVER_MS = 2 ** 31 - 1;

/**
 * Tunes V8's collector for how a gitforge process uses its heap: mostly loaded code (about
 * 50 MiB), next to tens of MiB of buffers that a clone or an upload streams through and that
 * die young. Applied once per process as it starts (the embedded process starts several apps).
 *
 * - **Growing factor** (`GITFORGE_HEAP_GROWING_PERCENT`): how far the old generation may grow
 *   past what the last full collection kept, as `1 + percent / 100` of it (0 leaves V8's own
 *   choice). V8 picks that factor from how fast the process allocates next to how fast it marks,
 *   and it settled at its floor (about 1.1) in a process that allocates little while it streams
 *   much. V8 starts marking the whole heap once the room left in the old generation is less than
 *   the new generation's capacity (up to 32 MiB), so from then on the process marked its whole
 *   heap again after every few MiB promoted, and blob-less clones spent two thirds of the
 *   gateway's CPU in the collector (`npm run bench clone`: server CPU 3.7-4.0x the reference's,
 *   2.1x at 50). At 50 the room (about 27 MiB of a 54 MiB heap) was still below that capacity:
 *   a process relaying 9.3 MB answers to a client reading 15 MB/s marked its heap 4 times in 20
 *   answers (45 ms of CPU per answer instead of 25), and none at 100 in 4 runs of 5. The cost is
 *   headroom: the heap may grow as far past its live size (the embedded process peaked at 277 MiB
 *   under the API load instead of about 245). V8 reads it at each full collection.
 * - **Memory reducer** (`GITFORGE_HEAP_MEMORY_REDUCER`, off by default): V8 arms it after a full
 *   collection that grew the heap, and once it finds the JavaScript allocation rate low it marks
 *   the whole heap up to three times in a row to give memory back. The bytes a process streams
 *   are buffers outside the JavaScript heap, so to V8 a gateway relaying clones looks idle: it ran
 *   these collections during clones (30-90 ms of marking each, measured with `--trace-gc`) and
 *   freed almost nothing, since the heap is mostly code. `--no-memory-reducer` takes effect only
 *   on node's command line; at run time the same is had by deferring its first collection for
 *   ever, which V8 reads each time it arms the reducer.
 */
export function tuneHeap(settings: HeapSettings): void {
  const key = `${settings.GITFORGE_HEAP_GROWING_PERCENT}/${settings.GITFORGE_HEAP_MEMORY_REDUCER}`;
  if (applied === key) return;
  applied = key;
  if (settings.GITFORGE_HEAP_GROWING_PERCENT > 0) setFlagsFromString(`--heap-growing-percent=${settings.GITFORGE_HEAP_GROWING_PERCENT}`);
  if (!settings.GITFORGE_HEAP_MEMORY_REDUCER) setFlagsFromString(`--gc-memory-reducer-start-delay-ms=${NEVER_MS}`);
}
