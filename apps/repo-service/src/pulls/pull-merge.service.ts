import { Injectable } from '@nestjs/common';
import {
  ContractError,
  isValidRefName,
  notFound,
  type AccountRef,
  type Actor,
  type PullHeadDeleteRequest,
  type PullMergeRequest,
  type PullMergeResult,
  type PullUpdateRequest,
  type User,
} from '@gitforge/contracts';
import { actorOf, createLogger, Database, DirectoryClient } from '@gitforge/platform';
import { CommitWriter, type CommitSignature } from '../git/commit-writer.js';
import { GitObjects, type GitCommit } from '../git/git-objects.js';
import { gitName } from '../git/git-identity.js';
import { GitService, isObjectId } from '../git/git.service.js';
import { Refs } from '../git/refs.js';
import { PushPolicy, type PushContext } from '../protections/push-policy.js';
import { PushesService } from '../pushes/pushes.service.js';
import { PullGit, pullHeadRef, UnrelatedHistories } from './pull-git.js';
import { PullRepos } from './pull-repos.js';

const log = createLogger('pull-merge');

/** Gitea's answers the caller passes on: conflicts are 405, a moved head or base 409. */
export const mergeErrors = {
  conflicts: () => new ContractError('method_not_allowed', 'Merge conflicts detected'),
  rebaseConflicts: () => new ContractError('method_not_allowed', 'Rebase conflicts detected'),
  unrelated: () => new ContractError('method_not_allowed', 'Unrelated histories detected'),
  notFastForward: () => new ContractError('method_not_allowed', 'Merge is not fast-forwardable'),
  headOutOfDate: () => new ContractError('conflict', 'head out of date'),
  pushOutOfDate: () => new ContractError('conflict', 'merge push out of date'),
  updateConflicts: () => new ContractError('conflict', 'merge failed because of conflict'),
  updateRebaseConflicts: () => new ContractError('conflict', 'rebase failed because of conflict'),
};

/** Identity of the synthetic commits a replay merges through (never reachable from any ref). */
const SCRATCH: CommitSignature = { name: 'gitforge', email: 'gitforge@localhost', when: 1_000_000_000, tz: '+0000' };

interface Doer {
  actor: Actor;
  signature: CommitSignature;
  /** As anyone sees them: the pusher of the ref updates. */
  user: User;
}

/**
 * Merging pull requests and updating their heads with plumbing only: `merge-tree --write-tree`
 * for every merge (a cherry-pick is a merge of the commit against its parent), `commit-tree` for
 * the commits, then one compare-and-swap `update-ref` of the target branch, so of two racing
 * merges exactly one moves the branch. The move is then recorded like any push (events, row).
 */
@Injectable()
export class PullMergeService {
  constructor(
    private readonly db: Database,
    private readonly git: GitService,
    private readonly objects: GitObjects,
    private readonly refs: Refs,
    private readonly writer: CommitWriter,
    private readonly pulls: PullGit,
    private readonly repos: PullRepos,
    private readonly pushes: PushesService,
    private readonly policy: PushPolicy,
    private readonly directory: DirectoryClient,
  ) {}

  /** `caller`: the actor issue-service acts for; when it is the doer, the repository is read for them while their account is. */
  async merge(req: PullMergeRequest, caller: Actor | null = null): Promise<PullMergeResult> {
    if (req.headSha && !isObjectId(req.headSha)) throw mergeErrors.headOutOfDate();
    const repoId = req.baseRepoId;
    // The doer and the repository first: a missing user, repository or an archived one answers before any ref is read.
    const { doer, ctx } = await this.doerIn(req.baseRepoId, req.doerId, caller);
    const [baseSha, branchHead] = await Promise.all([this.pulls.requireBranch(repoId, req.baseBranch), this.refs.branchHead(req.headRepoId, req.headBranch)]);
    // What the head branch holds now is merged (Gitea merges the branch, not the head it last
    // recorded, which follows pushes in the background); a head the caller names must be it.
    if (!branchHead || (req.headSha && branchHead !== req.headSha)) throw mergeErrors.headOutOfDate();
    const merging: PullMergeRequest = { ...req, headSha: branchHead };
    if (req.headRepoId !== repoId) await this.pulls.bringIn(repoId, req.headRepoId, [branchHead]);
    const format = ctx.repo.objectFormat;

    const next = await this.mergeCommit(merging, doer, baseSha);
    const moved = await this.db.transaction(async () => {
      // The pull's own ref shows the head it was merged at, in the same ref transaction.
      const result = await this.writer.updateRef(repoId, `refs/heads/${req.baseBranch}`, next, baseSha, format, [{ ref: pullHeadRef(req.index), next: branchHead }]);
      if (result !== 'ok') throw mergeErrors.pushOutOfDate();
      return { mergeCommitSha: next, baseBefore: baseSha };
    });
    await this.pushes.afterRefUpdates(ctx, [{ oldSha: moved.baseBefore, newSha: moved.mergeCommitSha, ref: `refs/heads/${req.baseBranch}`, mergedPull: req.index }], doer.user);
    log.info({ repoId, index: req.index, style: req.style }, 'pull merged');
    return { ...moved, headSha: branchHead, merger: doer.user };
  }

  /**
   * `POST /pulls/{index}/update`: the base merged into the head branch (a merge commit on the
   * head), or the head's commits replayed onto the base, from what the head branch holds now (as
   * Gitea's UpdatePullRequest); the branch moves only if it still holds that when the update is
   * written. Nothing to do when the head already contains the base.
   */
  async update(req: PullUpdateRequest): Promise<{ headSha: string }> {
    const doer = await this.doer(req.doerId);
    const ctx = await this.repos.context(req.headRepoId, doer.actor);
    if (req.asPullUpdate && !(await this.mayUpdate(req, req.asPullUpdate, doer, ctx))) {
      throw ContractError.empty('permission_denied', 'user is not allowed to update the pull request');
    }
    // Only to those who may update it: whether a repository they cannot see is archived is not theirs to learn.
    if (ctx.repo.isArchived) throw new ContractError('locked', 'repo is archived');
    const repoId = req.headRepoId;
    const headSha = await this.pulls.requireBranch(repoId, req.headBranch);
    const baseSha = await this.pulls.requireBranch(req.baseRepoId, req.baseBranch);
    // A merge reads the base's objects where they are, so an update refused or in conflict copies
    // none of them in; a rebase replays through the object reader, which needs them in place.
    const lazy = req.style === 'merge' && req.baseRepoId !== repoId;
    const reading = lazy ? this.git.readingObjectsOf([req.baseRepoId]) : undefined;
    if (!lazy) await this.pulls.bringIn(repoId, req.baseRepoId, [baseSha]);
    if (await this.git.isAncestor(repoId, baseSha, headSha, reading)) return { headSha };

    let next: string;
    try {
      if (req.style === 'rebase') {
        next = await this.replay(repoId, baseSha, headSha, doer.signature);
      } else {
        const merged = await this.pulls.mergeTrees(repoId, headSha, baseSha, reading);
        if (merged.conflicts.length > 0) throw mergeErrors.updateConflicts();
        const message = `${req.message ?? `Merge branch '${req.baseBranch}' into ${req.headBranch}`}\n`;
        next = await this.commitTree(repoId, merged.tree, [headSha, baseSha], message, doer.signature, doer.signature);
      }
    } catch (err) {
      if (err instanceof UnrelatedHistories || (err instanceof ContractError && err.code === 'method_not_allowed')) {
        throw req.style === 'rebase' ? mergeErrors.updateRebaseConflicts() : mergeErrors.updateConflicts();
      }
      throw err;
    }
    if (req.asPush) {
      // As Gitea's push of the update: the head branch's protection (allowlist, protected files, signatures) decides.
      const [decision] = await this.policy.checkRefUpdates(ctx, [{ oldSha: headSha, newSha: next, ref: `refs/heads/${req.headBranch}` }], reading);
      if (decision && !decision.allowed) throw new ContractError('permission_denied', decision.message);
    }
    if (lazy) {
      await this.pulls.bringIn(repoId, req.baseRepoId, [baseSha]);
      await this.pulls.bringInReachable(repoId, req.baseRepoId, next, [headSha, baseSha]);
    }
    await this.db.transaction(async () => {
      const result = await this.writer.updateRef(repoId, `refs/heads/${req.headBranch}`, next, headSha, ctx.repo.objectFormat);
      if (result !== 'ok') throw mergeErrors.headOutOfDate();
      return null;
    });
    await this.pushes.afterRefUpdates(ctx, [{ oldSha: headSha, newSha: next, ref: `refs/heads/${req.headBranch}` }], doer.user);
    return { headSha: next };
  }

  /**
   * Gitea's CheckUserAllowedToUpdate for the update's style: the doer's push (a merge) or force
   * push (a rebase) to the head branch, as its protection allows; failing that, where the poster
   * allowed maintainers' edits and the doer may merge into the base branch, the poster's.
   */
  private async mayUpdate(req: PullUpdateRequest, pull: { posterId: number; allowMaintainerEdit: boolean }, doer: Doer, headCtx: PushContext): Promise<boolean> {
    const allowed = (ctx: PushContext): Promise<boolean> =>
      req.style === 'rebase' ? this.policy.canForcePushTo(ctx, req.headBranch) : this.policy.canPushTo(ctx, req.headBranch);
    if (await allowed(headCtx)) return true;
    if (!pull.allowMaintainerEdit) return false;
    const baseCtx = req.baseRepoId === req.headRepoId ? headCtx : await this.repos.context(req.baseRepoId, doer.actor);
    if (!(await this.policy.canMergeTo(baseCtx, req.baseBranch))) return false;
    // A poster who is gone, or who can no longer reach the head repository, lends no rights.
    const posterCtx = await this.doer(pull.posterId)
      .then((poster) => this.repos.context(req.headRepoId, poster.actor))
      .catch((err: unknown) => {
        if (err instanceof ContractError && err.code === 'not_found') return null;
        throw err;
      });
    return posterCtx !== null && (await allowed(posterCtx));
  }

  /** The commit the base branch moves to, per style. */
  private async mergeCommit(req: PullMergeRequest, doer: Doer, baseSha: string): Promise<string> {
    const repoId = req.baseRepoId;
    const message = req.message.endsWith('\n') ? req.message : `${req.message}\n`;
    try {
      switch (req.style) {
        case 'fast-forward-only':
          if (!(await this.pulls.isAncestor(repoId, baseSha, req.headSha))) throw mergeErrors.notFastForward();
          return req.headSha;
        case 'merge': {
          const merged = await this.mergeOrRefuse(repoId, baseSha, req.headSha);
          return this.commitTree(repoId, merged, [baseSha, req.headSha], message, doer.signature, doer.signature);
        }
        case 'squash': {
          const merged = await this.mergeOrRefuse(repoId, baseSha, req.headSha);
          const author = await this.squashAuthor(repoId, baseSha, req, doer);
          return this.commitTree(repoId, merged, [baseSha], squashMessage(req.message, author, doer.signature), author, doer.signature);
        }
        case 'rebase':
          return this.rebased(repoId, baseSha, req.headSha, doer.signature);
        case 'rebase-merge': {
          const rebased = await this.rebased(repoId, baseSha, req.headSha, doer.signature);
          return this.commitTree(repoId, await this.pulls.treeOf(repoId, rebased), [baseSha, rebased], message, doer.signature, doer.signature);
        }
        default:
          throw new ContractError('method_not_allowed', `${String(req.style)} is not allowed an allowed merge style for this repository`);
      }
    } catch (err) {
      if (err instanceof UnrelatedHistories) throw mergeErrors.unrelated();
      throw err;
    }
  }

  private async mergeOrRefuse(repoId: number, ours: string, theirs: string): Promise<string> {
    const merged = await this.pulls.mergeTrees(repoId, ours, theirs);
    if (merged.conflicts.length > 0) throw mergeErrors.conflicts();
    return merged.tree;
  }

  /** The head rebased onto the base (as `git rebase`: a head already on the base stays as it is). */
  private async rebased(repoId: number, baseSha: string, headSha: string, committer: CommitSignature): Promise<string> {
    if (await this.pulls.isAncestor(repoId, baseSha, headSha)) return headSha;
    if (!(await this.pulls.mergeBase(repoId, baseSha, headSha))) throw new UnrelatedHistories();
    return this.replay(repoId, baseSha, headSha, committer);
  }

  /**
   * `git rebase` without a working tree: the head's commits that are not on `onto` (merges left
   * out, and commits whose change `onto` already has, as `--cherry-pick` finds them), oldest
   * first, each applied as a merge of the commit against its parent on top of the last one.
   * Authors are kept, the committer is the doer; a commit whose change turns out to be there
   * already is dropped, as git's default `--empty=drop` does.
   */
  private async replay(repoId: number, onto: string, headSha: string, committer: CommitSignature): Promise<string> {
    const out = await this.git.run(repoId, ['rev-list', '--reverse', '--topo-order', '--no-merges', '--right-only', '--cherry-pick', '--end-of-options', `${onto}...${headSha}`]);
    const shas = out.stdout.toString().split('\n').filter(Boolean);
    let current = onto;
    let currentTree = await this.pulls.treeOf(repoId, onto);
    for (const sha of shas) {
      const commit = (await this.objects.commit(repoId, sha))!;
      const parentTree = commit.parents[0] ? await this.pulls.treeOf(repoId, commit.parents[0]) : await this.emptyTree(repoId);
      let tree = currentTree;
      if (commit.tree !== parentTree) {
        tree = await this.cherryPickTree(repoId, parentTree, currentTree, commit.tree);
        if (tree === currentTree) continue;
      }
      current = await this.commitTree(repoId, tree, [current], commit.message, signatureOf(commit), { ...committer, when: nowSeconds() });
      currentTree = tree;
    }
    return current;
  }

  /**
   * The tree of applying the change `parentTree → theirs` to `ours`. git 2.39's merge-tree has no
   * `--merge-base`, so both sides get a scratch commit whose only parent holds `parentTree`:
   * their merge base is then exactly that tree. The scratch commits stay unreachable.
   */
  private async cherryPickTree(repoId: number, parentTree: string, ours: string, theirs: string): Promise<string> {
    const base = await this.commitTree(repoId, parentTree, [], 'base\n', SCRATCH, SCRATCH);
    const [a, b] = await Promise.all([
      this.commitTree(repoId, ours, [base], 'ours\n', SCRATCH, SCRATCH),
      this.commitTree(repoId, theirs, [base], 'theirs\n', SCRATCH, SCRATCH),
    ]);
    const merged = await this.pulls.mergeTrees(repoId, a, b);
    if (merged.conflicts.length > 0) throw mergeErrors.rebaseConflicts();
    return merged.tree;
  }

  private async emptyTree(repoId: number): Promise<string> {
    return (await this.git.run(repoId, ['mktree'], { input: '' })).stdout.toString().trim();
  }

  private commitTree(repoId: number, tree: string, parents: string[], message: string, author: CommitSignature, committer: CommitSignature): Promise<string> {
    return this.writer.commitTree(repoId, tree, parents, message, author, committer);
  }

  /**
   * Gitea's getAuthorSignatureSquash: the poster as they signed one of the head's commits, else
   * as their account says. Without a poster, the newest head commit's author.
   */
  private async squashAuthor(repoId: number, baseSha: string, req: PullMergeRequest, doer: Doer): Promise<CommitSignature> {
    const now = { when: nowSeconds(), tz: '+0000' };
    const out = await this.git.run(repoId, ['rev-list', '--end-of-options', req.headSha, `^${baseSha}`]);
    const commits = (await Promise.all(out.stdout.toString().split('\n').filter(Boolean).map((sha) => this.objects.commit(repoId, sha)))).filter(
      (c): c is GitCommit => c !== null,
    );
    if (!req.posterId) {
      const newest = commits[0];
      return newest ? { name: newest.author.name, email: newest.author.email, ...now } : doer.signature;
    }
    const emails = [...new Set(commits.map((c) => c.author.email))];
    const accounts = await this.directory.usersByEmails(null, emails);
    for (const c of commits) {
      const account = accounts.find((a) => a.email.toLowerCase() === c.author.email.toLowerCase());
      if (account?.id === req.posterId) return { name: c.author.name, email: c.author.email, ...now };
    }
    const [poster] = await this.directory.accountsByIds(null, [req.posterId]);
    return poster ? { ...gitIdentity(poster), ...now } : doer.signature;
  }

  /**
   * `pulls.git.deleteHead`: the head branch after a merge (delete_branch_after_merge), as the
   * branch-delete API would delete it: only if it still points at the merged head, is not its
   * repository's default branch, is not protected, and the doer may write there. Otherwise it
   * stays (the merge has happened either way). issue-service asks once it has recorded the merge,
   * so the deletion's events find the pull merged.
   */
  async deleteMergedHead(req: PullHeadDeleteRequest): Promise<boolean> {
    if (!isValidRefName(req.headBranch)) return false;
    const doer = await this.doer(req.doerId);
    const ctx = await this.repos.pushContext(req.headRepoId, doer.actor).catch((err: unknown) => {
      if (err instanceof ContractError) return null;
      throw err;
    });
    if (!ctx || !ctx.permission.canWrite('repo.code') || req.headBranch === ctx.repo.defaultBranch) return false;
    if (await this.policy.ruleFor(req.headRepoId, req.headBranch)) return false;
    const deleted = await this.db.transaction(async () => {
      return (await this.writer.deleteRef(req.headRepoId, `refs/heads/${req.headBranch}`, req.headSha)) === 'ok';
    });
    if (!deleted) return false;
    await this.pushes.afterRefUpdates(ctx, [{ oldSha: req.headSha, newSha: '0'.repeat(req.headSha.length), ref: `refs/heads/${req.headBranch}` }], doer.user);
    return true;
  }

  /**
   * The doer and the repository as they act on it. The account is read either way (their git
   * identity); the repository at the same time when the caller is the doer, with the rights their
   * account has (no token scopes, as for a merge the scheduler does).
   */
  private async doerIn(repoId: number, doerId: number, caller: Actor | null): Promise<{ doer: Doer; ctx: PushContext }> {
    if (caller?.id !== doerId) {
      const doer = await this.doer(doerId);
      return { doer, ctx: await this.repos.pushContext(repoId, doer.actor) };
    }
    const [doer, ctx] = await Promise.all([this.doer(doerId), this.repos.pushContext(repoId, { ...caller, scopes: null })]);
    return { doer, ctx: { ...ctx, actor: doer.actor } };
  }

  private async doer(doerId: number): Promise<Doer> {
    const [account] = await this.directory.accountsByIds(null, [doerId]);
    if (!account || account.kind !== 'user') throw notFound(`user does not exist [uid: ${doerId}, name: ]`);
    // Asked without a viewer, the account's user is as anyone sees it.
    return { actor: actorOf(account), signature: { ...gitIdentity(account), when: nowSeconds(), tz: '+0000' }, user: account.user };
  }
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** A user's git identity (Gitea's NewGitSig): their git name and the account's e-mail. */
function gitIdentity(account: AccountRef): { name: string; email: string } {
  return { name: gitName({ ...account.user, login: account.login }), email: account.email };
}

const signatureOf = (c: GitCommit): CommitSignature => ({ name: c.author.name, email: c.author.email, when: c.author.when, tz: c.author.tz });

/** Gitea's squash message: with a co-author and co-committer trailer when the author is not the committer. */
export function squashMessage(message: string, author: CommitSignature, committer: CommitSignature): string {
  const who = `${author.name} <${author.email}>`;
  let text = message;
  if (`${committer.name} <${committer.email}>` !== who) {
    if (!text.includes(`Co-authored-by: ${who}`)) text += `\nCo-authored-by: ${who}`;
    text += `\nCo-committed-by: ${who}\n`;
  }
  return text.endsWith('\n') ? text : `${text}\n`;
}
