import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';

/** Signals git and everything it started (pack-objects, index-pack, hooks): it runs in its own process group. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Signals git's group at each step's delay unless it has exited by then (a stop that escalates). */
export function signalLater(child: ChildProcess, exited: Promise<unknown>, steps: Array<[ms: number, signal: NodeJS.Signals]>): void {
  const timers = steps.map(([ms, signal]) => setTimeout(() => signalGroup(child, signal), ms).unref());
  void exited.then(() => timers.forEach(clearTimeout));
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((ok) => {
    child.once('error', () => ok(null));
    child.once('close', (code) => ok(code));
  });
}

/** The first 4 KiB of a stream, for a log line. */
export function collect(stream: Readable): () => string {
  let text = '';
  stream.on('data', (b: Buffer) => {
    if (text.length < 4096) text += b.toString('utf8');
  });
  return () => text.slice(0, 4096);
}

/**
 * Bytes a process has written so far (`wchar` of /proc/PID/io), to tell a git that still answers
 * from one that is stuck when its output does not pass through this process; undefined where
 * /proc does not tell (not Linux, or the process is gone).
 */
export function bytesWritten(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const m = /^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'latin1'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether {@link bytesWritten} works here: asked of this process at start, and given up for good
 * when a child's count cannot be read (a locked-down /proc), so later answers pass through this
 * process again, where their progress shows.
 */
export const writeWatch = { usable: bytesWritten(process.pid) !== undefined };
