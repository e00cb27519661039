import { Injectable } from '@nestjs/common';
import { ContractError, notFound, PullStatus, unprocessable, type PullGitState } from '@gitforge/contracts';
import { GitObjects } from '../git/git-objects.js';
import { GitError, GitService, isObjectId } from '../git/git.service.js';
import { Refs } from '../git/refs.js';

/** What a three-way merge of two commits gives: the tree, and the files it could not merge. */
export interface TreeMerge {
  tree: string;
  conflicts: string[];
}

/** Thrown (as an answer, not a failure) when two commits share no history. */
export class UnrelatedHistories extends Error {}

/** `refs/pull/{index}/head`, the base repository's copy of a pull's head. */
export function pullHeadRef(index: number): string {
  if (!Number.isSafeInteger(index) || index <= 0) throw new ContractError('invalid_argument', `invalid pull index: ${index}`);
  return `refs/pull/${index}/head`;
}

/**
 * The git facts of pull requests, computed in the base repository without a working tree:
 * merge bases, `merge-tree --write-tree` merges, ahead/behind counts, diff stats. A head in
 * another repository of the fork network is fetched (objects only) into the base first.
 */
@Injectable()
export class PullGit {
  constructor(
    private readonly git: GitService,
    private readonly objects: GitObjects,
    private readonly refs: Refs,
  ) {}

  /** A branch's tip, or Gitea's not-found error for a pull's side. */
  async requireBranch(repoId: number, branch: string): Promise<string> {
    const sha = await this.refs.branchHead(repoId, branch);
    if (!sha) throw notFound(`branch does not exist [name: ${branch}]`);
    return sha;
  }

  /**
   * A new pull's side, as Gitea's CreatePullRequest guesses the name: a branch's tip; a tag or a
   * commit id names something that is no branch (422); anything else is not found (404).
   */
  async requirePullSide(repoId: number, name: string): Promise<string> {
    const sha = await this.refs.branchHead(repoId, name);
    if (sha) return sha;
    if ((await this.refs.tagCommit(repoId, name)) ?? (await this.refs.commitById(repoId, name))) {
      throw unprocessable('Invalid PullRequest: base and head must be branches');
    }
    throw notFound(`branch does not exist [name: ${name}]`);
  }

  async hasCommit(repoId: number, sha: string): Promise<boolean> {
    return (await this.objects.info(repoId, sha))?.type === 'commit';
  }

  /**
   * Copies the objects of `shas` from the head repository into the base repository, without
   * writing any ref. They are readable by id in the base from then on (objects are served by id),
   * so callers bring in only what the base's readers may see: a pull's head, which becomes
   * refs/pull/{index}/head there (reads alone use GitService.readingObjectsOf). Both paths come from
   * repository ids and every sha is a validated object id, so nothing user-given reaches git as
   * an option.
   */
  async bringIn(baseRepoId: number, headRepoId: number, shas: string[]): Promise<void> {
    if (baseRepoId === headRepoId) return;
    const wanted = [...new Set(shas)];
    for (const sha of wanted) if (!isObjectId(sha)) throw new ContractError('internal', 'not an object id');
    const present = await Promise.all(wanted.map((sha) => this.hasCommit(baseRepoId, sha)));
    const missing = wanted.filter((_, i) => !present[i]);
    if (missing.length === 0) return;
    await this.git.run(baseRepoId, [
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      '--no-recurse-submodules',
      '--end-of-options',
      this.git.repoPath(headRepoId),
      ...missing,
    ]);
  }

  /**
   * Completes a commit made in `repoId` while it read `otherRepoId`'s objects in place
   * ({@link GitService.readingObjectsOf}): copies in whatever `tip` reaches that is not reachable
   * from `known` and was found only in the other repository. Git writes no object it finds in
   * either store, so a merge's tree or merged file that the other repository already held (its
   * mergeability checks write the same trees) would otherwise be missing here. Call it after
   * {@link bringIn} of the other side's commits, so that only what the commit itself made is packed.
   */
  async bringInReachable(repoId: number, otherRepoId: number, tip: string, known: string[]): Promise<void> {
    if (repoId === otherRepoId) return;
    for (const sha of [tip, ...known]) if (!isObjectId(sha)) throw new ContractError('internal', 'not an object id');
    const env = this.git.readingObjectsOf([otherRepoId]);
    const pack = await this.git.run(repoId, ['pack-objects', '--revs', '--stdout', '-q', '--no-use-bitmap-index'], { env, input: `${tip}\n--not\n${known.join('\n')}\n` });
    // Objects the repository holds already are not written again.
    await this.git.run(repoId, ['unpack-objects', '-q'], { input: pack.stdout });
  }

  /** The merge base of two commits, or null for unrelated histories. */
  async mergeBase(repoId: number, a: string, b: string): Promise<string | null> {
    const r = await this.git.run(repoId, ['merge-base', '--end-of-options', a, b], { okCodes: [1] });
    return r.code === 0 ? r.stdout.toString().trim() : null;
  }

  async isAncestor(repoId: number, ancestor: string, descendant: string): Promise<boolean> {
    return this.git.isAncestor(repoId, ancestor, descendant);
  }

  /**
   * `merge-tree --write-tree`: the merged tree (written to the object store) and the conflicted
   * paths. `env` may let it read another repository's objects ({@link GitService.readingObjectsOf}).
   */
  async mergeTrees(repoId: number, ours: string, theirs: string, env?: Record<string, string>): Promise<TreeMerge> {
    const r = await this.git.run(repoId, ['merge-tree', '--write-tree', '-z', '--name-only', '--no-messages', '--end-of-options', ours, theirs], {
      okCodes: [1],
      ...(env ? { env } : {}),
    }).catch((err: unknown) => {
      if (err instanceof GitError && /unrelated histories/.test(err.stderr)) throw new UnrelatedHistories();
      throw err;
    });
    const [tree = '', ...rest] = r.stdout.toString('utf8').split('\0');
    const conflicts = r.code === 1 ? [...new Set(rest.filter(Boolean))] : [];
    return { tree, conflicts };
  }

  /** A commit's tree id. */
  async treeOf(repoId: number, commit: string): Promise<string> {
    const c = await this.objects.commit(repoId, commit);
    if (!c) throw new ContractError('internal', `commit ${commit} is missing`);
    return c.tree;
  }

  /**
   * Gitea's testPullRequestTmpRepoBranchMergeable, from git alone: an already merged head is
   * `ancestorMerged`; a merge with conflicts is `conflict`; a merge whose tree is the base's
   * own is `empty` (the head adds nothing); anything else `mergeable`. Line and file counts are
   * the diff from the merge base to the head, as Gitea's GetDiffShortStat.
   */
  async state(repoId: number, baseSha: string, headSha: string): Promise<PullGitState> {
    const mergeBase = await this.mergeBase(repoId, baseSha, headSha);
    const [counts, stat] = await Promise.all([this.aheadBehind(repoId, baseSha, headSha), mergeBase ? this.shortStat(repoId, mergeBase, headSha) : null]);
    const state: PullGitState = {
      headSha,
      baseSha,
      mergeBase: mergeBase ?? '',
      status: PullStatus.mergeable,
      conflictedFiles: [],
      commitsAhead: counts.ahead,
      commitsBehind: counts.behind,
      additions: stat?.additions ?? 0,
      deletions: stat?.deletions ?? 0,
      changedFiles: stat?.files ?? 0,
    };
    if (!mergeBase) return { ...state, status: PullStatus.error };
    if (mergeBase === headSha) return { ...state, status: PullStatus.ancestorMerged };
    const merged = await this.mergeTrees(repoId, baseSha, headSha);
    if (merged.conflicts.length > 0) return { ...state, status: PullStatus.conflict, conflictedFiles: merged.conflicts };
    if (merged.tree === (await this.treeOf(repoId, baseSha))) return { ...state, status: PullStatus.empty };
    return state;
  }

  /** Commits on the head not on the base (ahead) and the reverse (behind). */
  private async aheadBehind(repoId: number, baseSha: string, headSha: string): Promise<{ ahead: number; behind: number }> {
    const out = (await this.git.run(repoId, ['rev-list', '--left-right', '--count', '--end-of-options', `${baseSha}...${headSha}`])).stdout.toString();
    const [behind = '0', ahead = '0'] = out.trim().split(/\s+/);
    return { ahead: Number(ahead) || 0, behind: Number(behind) || 0 };
  }

  private async shortStat(repoId: number, from: string, to: string): Promise<{ files: number; additions: number; deletions: number }> {
    const out = (await this.git.run(repoId, ['diff', '--shortstat', '-M', '--end-of-options', from, to, '--'])).stdout.toString();
    const num = (re: RegExp): number => Number(re.exec(out)?.[1] ?? 0);
    return { files: num(/(\d+) files? changed/), additions: num(/(\d+) insertions?\(\+\)/), deletions: num(/(\d+) deletions?\(-\)/) };
  }
}
