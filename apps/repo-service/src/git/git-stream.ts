import { spawn } from 'node:child_process';
import { GitError, gitKind, measureGit, type GitService } from './git.service.js';

/**
 * Runs `git` in a repository and hands its stdout to `onChunk` as it arrives; `onChunk` answers
 * false to stop early (the process is killed, which is the point: a history walk ends as soon as
 * it has what it needs). Resolves when the process is gone.
 */
export function streamGit(
  git: GitService,
  repoId: number,
  args: string[],
  onChunk: (chunk: Buffer) => boolean,
  env: Record<string, string> = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(git.bin, args, { env: git.env(repoId, env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stopped = false;
    measureGit(child, gitKind(args), (code) => stopped || code === 0);
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      if (stopped) return;
      if (!onChunk(chunk)) {
        stopped = true;
        child.kill();
      }
    });
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      if (stopped || code === 0) resolve();
      else reject(new GitError(args, code, Buffer.concat(err).toString('utf8')));
    });
  });
}
