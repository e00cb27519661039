// The helper process behind GitSpawner (git-spawner.ts): it starts each git run it is sent,
// collects what the run writes, and answers once the run has ended. It stays small, so a fork
// here is cheap, and it holds up no request of the service while it forks.
import { spawn } from 'node:child_process';
import type { SpawnReply, SpawnRequest } from './git-spawner.js';

const send = process.send?.bind(process);
if (!send) throw new Error('git-spawner.process runs as a forked child');

process.on('message', (m: SpawnRequest) => {
  let answered = false;
  const answer = (reply: () => SpawnReply): void => {
    if (answered) return;
    answered = true;
    // One run's answer that cannot be built or sent (an output too large for the channel) fails that run, not the helper.
    try {
      send(reply());
    } catch (e) {
      send({ id: m.id, error: { message: `the run's answer could not be sent: ${(e as Error).message}` } });
    }
  };
  let child;
  try {
    child = spawn(m.bin, m.args, { env: m.env, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (err) {
    answer(() => ({ id: m.id, error: { message: (err as Error).message, code: (err as NodeJS.ErrnoException).code } }));
    return;
  }
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => err.push(b));
  // A process that could not start (git missing) has no pid; one that did ends with 'close'.
  child.on('error', (e: NodeJS.ErrnoException) => {
    if (child.pid === undefined) answer(() => ({ id: m.id, error: { message: e.message, code: e.code } }));
  });
  child.on('close', (code, signal) => answer(() => ({ id: m.id, code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') })));
  child.stdin.on('error', () => undefined);
  child.stdin.end(m.input);
});

// The service is gone (or closed its channel): so is the helper. Runs already started finish on
// their own: a git killed mid-write could leave a lock file behind.
process.on('disconnect', () => process.exit(0));
