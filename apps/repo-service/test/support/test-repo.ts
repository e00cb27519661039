import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RepoServiceConfig } from '../../src/repo.config.js';
import { GitService } from '../../src/git/git.service.js';

/**
 * A throwaway data directory with repository 1 as a bare repo, and a working clone to build
 * history with the git CLI (unit tests of the git readers and writers; not part of the build).
 */
export class TestRepo {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'gf-git-unit-'));
  readonly work = join(this.dataDir, 'work');
  readonly git: GitService;
  private tick = 1_700_000_000;

  constructor() {
    const config = Object.assign(new RepoServiceConfig(), { GITFORGE_DATA_DIR: this.dataDir });
    this.git = new GitService(config);
  }

  async init(): Promise<this> {
    await this.git.initStaged(1, 'main');
    await this.git.promote(1);
    execFileSync('git', ['clone', '-q', this.git.repoPath(1), this.work], { env: this.env() });
    this.sh('checkout', '-q', '-b', 'main');
    return this;
  }

  env(): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: this.dataDir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Tester',
      GIT_AUTHOR_EMAIL: 'tester@example.com',
      GIT_COMMITTER_NAME: 'Tester',
      GIT_COMMITTER_EMAIL: 'tester@example.com',
    };
  }

  /** git in the working clone; every commit gets a distinct, increasing date. */
  sh(...args: string[]): string {
    this.tick += 60;
    const date = `${this.tick} +0000`;
    return execFileSync('git', ['-C', this.work, ...args], {
      env: { ...this.env(), GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    }).toString();
  }

  /** git on the bare repository. */
  bare(...args: string[]): string {
    return execFileSync('git', args, { env: { ...this.env(), GIT_DIR: this.git.repoPath(1) } }).toString();
  }

  push(): void {
    this.sh('push', '-q', 'origin', '--all');
  }

  remove(): void {
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
