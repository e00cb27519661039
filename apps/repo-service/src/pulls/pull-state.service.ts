import { Injectable } from '@nestjs/common';
import type { PullBranchRequest, PullGitState, PullSides, PullSyncItem } from '@gitforge/contracts';
import { createLogger } from '@gitforge/platform';
import { GitError, GitService, isObjectId } from '../git/git.service.js';
import { Refs } from '../git/refs.js';
import { PullGit, pullHeadRef } from './pull-git.js';

const log = createLogger('pull-state');

/** How many pulls are recomputed at once: each runs a few short git processes, and the machine has few cores. */
const CONCURRENCY = 4;

/** Runs `fn` over `items` with at most `limit` in flight, answers in order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** inspect and sync: a pull's state now, and refs/pull/{index}/head kept on its head. */
@Injectable()
export class PullStateService {
  constructor(
    private readonly git: GitService,
    private readonly refs: Refs,
    private readonly pulls: PullGit,
  ) {}

  async inspect(sides: PullSides): Promise<PullGitState> {
    const baseSha = await this.pulls.requirePullSide(sides.baseRepoId, sides.baseBranch);
    const headSha = await this.pulls.requirePullSide(sides.headRepoId, sides.headBranch);
    await this.pulls.bringIn(sides.baseRepoId, sides.headRepoId, [headSha]);
    return this.pulls.state(sides.baseRepoId, baseSha, headSha);
  }

  /**
   * Writes each pull's refs/pull/{index}/head and answers its state, in order. Branch tips are
   * read once per repository, the heads of one fork are fetched in one `git fetch`, and the refs
   * of one base repository move in one `update-ref --stdin` transaction; the states are then
   * computed a few at a time.
   */
  async sync(items: PullSyncItem[]): Promise<Array<PullGitState | null>> {
    const tips = new Map<number, Promise<Map<string, string>>>();
    const branchTip = async (repoId: number, branch: string): Promise<string | null> => {
      let all = tips.get(repoId);
      if (!all) {
        all = this.branchTips(repoId);
        tips.set(repoId, all);
      }
      return (await all).get(branch) ?? null;
    };
    const planned = await Promise.all(
      items.map(async (item) => ({
        item,
        baseSha: await branchTip(item.baseRepoId, item.baseBranch),
        headSha: item.headSha && isObjectId(item.headSha) ? item.headSha : await branchTip(item.headRepoId, item.headBranch),
      })),
    );

    const fetches = new Map<string, { base: number; head: number; shas: string[] }>();
    for (const p of planned) {
      if (!p.headSha || p.item.headRepoId === p.item.baseRepoId) continue;
      const key = `${p.item.baseRepoId}:${p.item.headRepoId}`;
      const group = fetches.get(key) ?? { base: p.item.baseRepoId, head: p.item.headRepoId, shas: [] };
      group.shas.push(p.headSha);
      fetches.set(key, group);
    }
    // A fork deleted meanwhile fails its fetch; its pulls keep whatever the base already has.
    await mapLimit([...fetches.values()], CONCURRENCY, (g) =>
      this.pulls.bringIn(g.base, g.head, g.shas).catch((err: unknown) => {
        if (!(err instanceof GitError)) throw err;
        log.warn({ baseRepoId: g.base, headRepoId: g.head, err: err.message }, 'pull head fetch failed');
      }),
    );
    const present = await Promise.all(planned.map((p) => (p.headSha ? this.pulls.hasCommit(p.item.baseRepoId, p.headSha) : false)));

    const updates = new Map<number, string[]>();
    planned.forEach((p, i) => {
      if (!present[i]) return;
      const lines = updates.get(p.item.baseRepoId) ?? [];
      lines.push(`update ${pullHeadRef(p.item.index)} ${p.headSha}\n`);
      updates.set(p.item.baseRepoId, lines);
    });
    for (const [repoId, lines] of updates) await this.git.run(repoId, ['update-ref', '--stdin'], { input: lines.join('') });

    return mapLimit(planned, CONCURRENCY, async (p, i) => {
      if (!present[i] || !p.baseSha) return null;
      return this.pulls.state(p.item.baseRepoId, p.baseSha, p.headSha!);
    });
  }

  /** A branch's tip, null when it or its repository is gone (a head branch deleted after its pull). */
  async branchHead({ repoId, branch }: PullBranchRequest): Promise<{ sha: string | null }> {
    if (!(await this.git.exists(repoId))) return { sha: null };
    return { sha: await this.refs.branchHead(repoId, branch) };
  }

  private async branchTips(repoId: number): Promise<Map<string, string>> {
    if (!(await this.git.exists(repoId))) return new Map();
    return new Map((await this.refs.branches(repoId)).map((b) => [b.name, b.sha]));
  }
}
