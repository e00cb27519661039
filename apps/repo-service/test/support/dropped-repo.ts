import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface DropOptions {
  /** Branches to create, each with one commit of its own (none: an empty repository). */
  branches?: string[];
  /** The branch HEAD names (default: the first of `branches`, or `main`). */
  head?: string;
  /** A lightweight tag on the first branch's commit. */
  tag?: string;
}

/**
 * A bare repository dropped the way an operator drops one for adoption, at `<root>/<rel>`,
 * written with the git CLI; answers its path.
 */
export function dropRepository(root: string, rel: string, options: DropOptions = {}): string {
  const dir = join(root, rel);
  mkdirSync(dir, { recursive: true });
  const branches = options.branches ?? [];
  const env = {
    PATH: process.env.PATH,
    HOME: root,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_DIR: dir,
    GIT_AUTHOR_NAME: 'Operator',
    GIT_AUTHOR_EMAIL: 'operator@example.com',
    GIT_COMMITTER_NAME: 'Operator',
    GIT_COMMITTER_EMAIL: 'operator@example.com',
  };
  const git = (args: string[], input?: string): string => execFileSync('git', args, { env, input }).toString().trim();
  git(['init', '--bare', '--quiet', `--initial-branch=${options.head ?? branches[0] ?? 'main'}`, dir]);
  for (const branch of branches) {
    const blob = git(['hash-object', '-w', '--stdin'], `on ${branch}\n`);
    const tree = git(['mktree'], `100644 blob ${blob}\tREADME.md\n`);
    const commit = git(['commit-tree', tree, '-m', `first on ${branch}`]);
    git(['update-ref', `refs/heads/${branch}`, commit]);
    if (options.tag && branch === branches[0]) git(['tag', options.tag, commit]);
  }
  return dir;
}
