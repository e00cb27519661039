import { spawn } from 'node:child_process';
import { bytesWritten, exitOf, signalLater, writeWatch } from './git-process.js';

describe(bytesWritten.name, () => {
  it('should count what a child writes, and tell nothing of a process that is not there', async () => {
    // Linux, as everywhere gitforge runs in CI; elsewhere the direct answer is never used.
    expect(writeWatch.usable).toBe(true);
    // Writes 300 kB to its stdout when told, then waits to be told to exit.
    const script = "process.stdin.once('data', () => { require('fs').writeSync(1, Buffer.alloc(300000)); process.stdin.once('data', () => process.exit(0)); })";
    const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'ignore', 'ignore'] });
    const before = bytesWritten(child.pid);
    expect(before).toEqual(expect.any(Number));
    child.stdin.write('go\n');
    let after = before!;
    for (let i = 0; i < 200 && after < before! + 300_000; i++) {
      await new Promise((r) => setTimeout(r, 10));
      after = bytesWritten(child.pid) ?? after;
    }
    expect(after).toBeGreaterThanOrEqual(before! + 300_000);
    child.stdin.end('\n');
    await exitOf(child);
    expect(bytesWritten(2 ** 22 + 12_345)).toBeUndefined();
    expect(bytesWritten(undefined)).toBeUndefined();
  });
});

describe(signalLater.name, () => {
  it('should signal the group at each step until it has exited', async () => {
    // Ignores SIGTERM, as a git busy in a write might not stop for it.
    const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => undefined); setInterval(() => undefined, 1000); console.log('ready')"], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const exited = exitOf(child);
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.stdout.resume();
    signalLater(child, exited, [
      [20, 'SIGTERM'],
      [200, 'SIGKILL'],
    ]);
    await exited;
    expect(child.signalCode).toBe('SIGKILL');
  });
});
