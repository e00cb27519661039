/** The real git CLI for end-to-end tests: a throwaway HOME, no system config, never a prompt. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Layout } from './layout.js';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitRunOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Resolve with a failing exit code instead of throwing. */
  allowFailure?: boolean;
}

export class GitCli {
  private counter = 0;

  private constructor(readonly home: string) {}

  static create(): GitCli {
    const home = mkdtempSync(join(tmpdir(), 'gf-git-'));
    writeFileSync(
      join(home, '.gitconfig'),
      ['[user]', '\tname = Test Pusher', '\temail = pusher@example.com', '[init]', '\tdefaultBranch = main', '[advice]', '\tdetachedHead = false', ''].join('\n'),
    );
    return new GitCli(home);
  }

  /** A fresh directory under the temporary HOME. */
  dir(prefix = 'wc'): string {
    this.counter += 1;
    return join(this.home, `${prefix}-${this.counter}`);
  }

  run(args: string[], options: GitRunOptions = {}): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      const child = spawn('git', args, {
        cwd: options.cwd ?? this.home,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: this.home,
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_TERMINAL_PROMPT: '0',
          GIT_ASKPASS: '/bin/false',
          LANG: 'C',
          LC_ALL: 'C',
          ...options.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
      child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        const result = { code: code ?? -1, stdout, stderr };
        if (result.code !== 0 && !options.allowFailure) {
          reject(new Error(`git ${args.join(' ')} failed (${result.code}):\n${stderr}`));
        } else {
          resolve(result);
        }
      });
    });
  }

  /** Writes files in a working copy and commits them; answers the new commit's id. */
  async commit(cwd: string, files: Record<string, string>, message: string, env: Record<string, string> = {}): Promise<string> {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(cwd, name), content);
    await this.run(['add', '--all'], { cwd });
    await this.run(['commit', '--quiet', '-m', message], { cwd, env });
    return (await this.run(['rev-parse', 'HEAD'], { cwd })).stdout.trim();
  }

  /** `ref → sha` as the server advertises them. */
  async lsRemote(url: string): Promise<Map<string, string>> {
    const out = (await this.run(['ls-remote', url])).stdout;
    return new Map(
      out
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [sha = '', ref = ''] = line.split('\t');
          return [ref, sha];
        }),
    );
  }

  cleanup(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** A clone URL, with credentials in it when given (password or token). */
export function gitUrl(layout: Layout, owner: string, repo: string, auth?: [string, string] | null, suffix = '.git'): string {
  const base = new URL(`${layout.rootUrl}${encodeURIComponent(owner)}/${encodeURIComponent(repo)}${suffix}`);
  if (auth) {
    base.username = encodeURIComponent(auth[0]);
    base.password = encodeURIComponent(auth[1]);
  }
  return base.toString();
}
