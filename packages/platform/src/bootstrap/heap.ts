import { setFlagsFromString } from 'node:v8';

let applied: number | undefined;

/**
 * Fixes how far V8 lets the old generation grow past what the last full collection kept, as
 * `1 + percent / 100` of it (0 leaves V8's own choice). V8 picks that factor from how fast the
 * process allocates next to how fast it marks, and a gitforge process allocates little while it
 * streams much: a clone or an upload through the gateway moves tens of MiB in buffers that die
 * young, on a heap that is mostly loaded code (about 50 MiB). V8 then settled at its floor (about
 * 1.1), which left less room in the old generation than the new generation's size, the point at
 * which it starts marking: from then on the process marked its whole heap again after every few
 * MiB promoted, and blob-less clones spent two thirds of the gateway's CPU in the collector
 * (`npm run bench clone`: server CPU 3.7-4.0x the reference's, 2.1x with 50). The cost is
 * headroom: the heap may grow this share past its live size before it is collected (about 10 MiB
 * more RSS for the gateway under load).
 *
 * Applied once per process as it starts (the embedded process starts several apps); V8 reads it
 * at each full collection.
 */
export function tuneHeap(percent: number): void {
  if (applied === percent) return;
  applied = percent;
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
