import { setFlagsFromString } from 'node:v8';
import type { ServiceName } from '@gitforge/contracts';
import { loadConfig, PlatformConfig } from '../config/config.js';

/** The heap settings of {@link PlatformConfig} that {@link tuneHeap} applies. */
export interface HeapSettings {
  GITFORGE_HEAP_GROWING_PERCENT?: number;
  GITFORGE_HEAP_MEMORY_REDUCER: boolean;
}

/**
 * What passes through a process, which decides its growing factor when none is configured:
 * `bulk` where file bytes stream or payloads pile up in batches (the gateway, repo-service,
 * issue-service, the webhook worker, and the embedded process that holds them all), `calls`
 * where only small calls and jobs run (org-, admin- and actions-service).
 */
export type HeapRole = 'bulk' | 'calls';

/** The processes bulk passes through: file bytes (the gateway; repo-service's and issue-service's own listeners: smart HTTP, packages, archives, attachments), webhook payloads by the batch, or all of them (the embedded process). */
const BULK_PROCESSES: ReadonlySet<string> = new Set(['gateway', 'embedded', 'repo', 'issue', 'webhook']);

/** The role of a process that runs one service, the gateway, or every app (`embedded`). */
export function heapRole(app: ServiceName | 'gateway' | 'embedded'): HeapRole {
  return BULK_PROCESSES.has(app) ? 'bulk' : 'calls';
}

/** Tunes this process's heap for what runs in it, from the environment; its entry calls this before it starts anything. */
export function tuneProcessHeap(app: ServiceName | 'gateway' | 'embedded'): void {
  tuneHeap(loadConfig(PlatformConfig), heapRole(app));
}

/** The growing factor of each role, in percent past what the last full collection kept (see {@link tuneHeap}). */
const DEFAULT_GROWING_PERCENT: Readonly<Record<HeapRole, number>> = { bulk: 100, calls: 20 };

let applied: string | undefined;

/**
 * The longest delay V8 takes for its memory reducer's first collection (a 32-bit count of
 * milliseconds, about 25 days): set as the delay, the reducer never starts.
 */
const NEVER_MS = 2 ** 31 - 1;

/**
 * Tunes V8's collector for how a gitforge process uses its heap: mostly loaded code (about
 * 50 MiB), next to tens of MiB of buffers that a clone or an upload streams through and that
 * die young. Applied once per process, by its entry ({@link tuneProcessHeap}).
 *
 * - **Growing factor** (`GITFORGE_HEAP_GROWING_PERCENT`): how far the old generation may grow past
 *   what the last full collection kept, as `1 + percent / 100` of it (0 leaves V8's own choice);
 *   unset, the process's {@link HeapRole} decides. V8 picks that factor from how fast the process
 *   allocates next to how fast it marks, and it settled at its floor (about 1.1) in a process that
 *   allocates little while it streams much. V8 starts marking the whole heap once the room left in
 *   the old generation is less than the new generation's capacity (up to 32 MiB), so from then on
 *   the process marked its whole heap again after every few MiB promoted, and blob-less clones
 *   spent two thirds of the gateway's CPU in the collector (`npm run bench clone`: server CPU
 *   3.7-4.0x the reference's, 2.1x at 50). At 50 the room (about 27 MiB of a 54 MiB heap) was still
 *   below that capacity: a process relaying 9.3 MB answers to a client reading 15 MB/s marked its
 *   heap 4 times in 20 answers (45 ms of CPU per answer instead of 25), and none at 100 in 4 runs
 *   of 5. The cost is headroom: the heap may grow as far past its live size (the embedded process
 *   peaked at 277 MiB under the API load instead of about 245). V8 reads it at each full
 *   collection.
 *   That headroom is wrong where only small calls run. Such a process promotes a trickle of garbage
 *   that outlives a scavenge or two (blocking Redis reads, heartbeats, queries under way):
 *   org-service about 2.4 MiB a minute under the API load, an idle admin-service about 0.5. At 100,
 *   org-service's old generation (about 38 MiB live) would have reached its next full collection
 *   after some 16 minutes, and its RSS rose by 34 MiB over a 10-minute load (`npm run bench
 *   memory`); at 20 it collected every two minutes or so, 5 to 30 ms each, and held flat from the
 *   third minute. V8 lets the old generation grow by at least 8 MiB whatever the factor, so an idle
 *   process still creeps for a quarter of an hour between collections, by that much at most instead
 *   of by its whole heap. The webhook worker keeps 100: its batches of payloads live across awaits,
 *   and at 20 it spent a quarter more CPU draining a backlog (0.61-0.64 CPU-s against 0.45-0.53 for
 *   `npm run bench webhooks`, alternated).
 * - **Memory reducer** (`GITFORGE_HEAP_MEMORY_REDUCER`, off by default): V8 arms it after a full
 *   collection that grew the heap, and once it finds the JavaScript allocation rate low it marks
 *   the whole heap up to three times in a row to give memory back. The bytes a process streams
 *   are buffers outside the JavaScript heap, so to V8 a gateway relaying clones looks idle: it ran
 *   these collections during clones (30-90 ms of marking each, measured with `--trace-gc`) and
 *   freed almost nothing, since the heap is mostly code. `--no-memory-reducer` takes effect only
 *   on node's command line; at run time the same is had by deferring its first collection for
 *   ever, which V8 reads each time it arms the reducer.
 */
function tuneHeap(settings: HeapSettings, role: HeapRole): void {
  const flags = heapFlags(settings, role);
  const key = flags.join(' ');
  if (applied === key) return;
  applied = key;
  for (const flag of flags) setFlagsFromString(flag);
}

/** The V8 flags {@link tuneHeap} sets for these settings in a process of this role. Each process tunes once: a flag left out here is not reset to V8's default. */
export function heapFlags(settings: HeapSettings, role: HeapRole): string[] {
  const flags: string[] = [];
  const percent = settings.GITFORGE_HEAP_GROWING_PERCENT ?? DEFAULT_GROWING_PERCENT[role];
  if (percent > 0) flags.push(`--heap-growing-percent=${percent}`);
  if (!settings.GITFORGE_HEAP_MEMORY_REDUCER) flags.push(`--gc-memory-reducer-start-delay-ms=${NEVER_MS}`);
  return flags;
}
