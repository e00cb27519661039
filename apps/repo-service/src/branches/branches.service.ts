import { Injectable } from '@nestjs/common';
import {
  ContractError,
  forbidden,
  invalid,
  isPublicOnly,
  notFound,
  pageOf,
  unprocessable,
  type Actor,
  type Branch,
  type CreateBranchRepoOption,
  type MergeUpstreamRequest,
  type MergeUpstreamResponse,
  type RenameBranchRepoOption,
  type UpdateBranchRepoOption,
  type ListOptions,
  type Page,
} from '@gitforge/contracts';
import { Database, PlatformConfig } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { CommitUsers } from '../commits/commit-users.js';
import { codeReader, repoView, type RepoView } from '../contents/repo-view.js';
import { CommitWriter } from '../git/commit-writer.js';
import { GitService } from '../git/git.service.js';
import { GitObjects, type GitCommit } from '../git/git-objects.js';
import { Refs } from '../git/refs.js';
import { PullGit } from '../pulls/pull-git.js';
import { PullMergeService } from '../pulls/pull-merge.service.js';
import { PushesService } from '../pushes/pushes.service.js';
import { ReposRepository } from '../records/repos.repository.js';
import { BranchPolicy } from './branch-policy.js';
import { toBranch } from './branch.mapper.js';

/** Branches: list, get, create from a branch, tag or commit, delete. */
@Injectable()
export class BranchesService {
  constructor(
    private readonly db: Database,
    private readonly access: RepoAccessService,
    private readonly objects: GitObjects,
    private readonly refs: Refs,
    private readonly writer: CommitWriter,
    private readonly git: GitService,
    private readonly repos: ReposRepository,
    private readonly commitUsers: CommitUsers,
    private readonly pushes: PushesService,
    private readonly policy: BranchPolicy,
    private readonly config: PlatformConfig,
    private readonly pullGit: PullGit,
    private readonly merges: PullMergeService,
  ) {}

  /** Newest head commit first, then by name (Gitea's branch table order); `q` keeps names containing it. */
  async list(actor: Actor | null, owner: string, repo: string, options: ListOptions, q = ''): Promise<Page<Branch>> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    if (view.ctx.repo.isEmpty) return pageOf([], 0, options);
    const keyword = q.trim().toLowerCase();
    const all = (await this.refs.branches(view.repoId)).filter((b) => !keyword || b.name.toLowerCase().includes(keyword)).sort(
      (a, b) => b.committerTime - a.committerTime || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
    const page = all.slice((options.page - 1) * options.limit, options.page * options.limit);
    const commits = await Promise.all(page.map((b) => this.objects.commit(view.repoId, b.sha)));
    const present = page.flatMap((b, i) => (commits[i] ? [{ name: b.name, commit: commits[i]! }] : []));
    return pageOf(await this.toBranches(view, actor, present), all.length, options);
  }

  async get(actor: Actor | null, owner: string, repo: string, name: string): Promise<Branch> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    const commit = await this.head(view, name);
    if (!commit) throw notFound();
    const [branch] = await this.toBranches(view, actor, [{ name, commit }]);
    return branch!;
  }

  async create(actor: Actor | null, owner: string, repo: string, body: CreateBranchRepoOption): Promise<Branch> {
    const { view, actor: a } = await this.writable(actor, owner, repo);
    const ctx = view.ctx;
    const from = await this.startPoint(view, body);
    const name = body.new_branch_name;
    for (const b of await this.refs.branches(view.repoId)) {
      if (b.name === name) throw new ContractError('conflict', 'The branch already exists.');
      if (b.name.startsWith(`${name}/`) || name.startsWith(`${b.name}/`)) {
        throw new ContractError('conflict', 'The branch with the same name already exists.');
      }
    }
    if (await this.refs.tagExists(view.repoId, name)) throw new ContractError('conflict', 'The branch with the same tag already exists.');
    // The transaction holds no rows: it records the request so that a retried call does not move the ref twice.
    await this.db.transaction(async () => {
      const moved = await this.writer.updateRef(view.repoId, `refs/heads/${name}`, from.sha, null, view.objectFormat);
      if (moved === 'stale') throw new ContractError('conflict', 'The branch already exists.');
      if (moved === 'name-conflict') throw new ContractError('conflict', 'The branch with the same name already exists.');
      return null;
    });
    await this.pushes.afterRefUpdates({ ...ctx, actor: a }, [{ oldSha: zeroId(from.sha), newSha: from.sha, ref: `refs/heads/${name}` }]);
    const [branch] = await this.toBranches(view, a, [{ name, commit: from }]);
    return branch!;
  }

  /**
   * `PATCH …/branches/{branch}` (Gitea's RenameBranch): the default branch and branches with a
   * rule of their own need a repository admin; the rule follows the branch, a glob-protected one
   * stays put. Watchers hear of a deleted branch and a created one.
   */
  async rename(actor: Actor | null, owner: string, repo: string, from: string, body: RenameBranchRepoOption): Promise<void> {
    const { view, actor: a } = await this.writable(actor, owner, repo);
    const ctx = view.ctx;
    const to = body.name;
    const taken = new ContractError('unprocessable', 'Cannot rename a branch using the same name or rename to a branch that already exists.');
    if (to === from || (await this.refs.branchHead(view.repoId, to))) throw taken;
    const head = await this.refs.branchHead(view.repoId, from);
    if (!head) throw notFound("Branch doesn't exist.");
    const protection = await this.policy.protectionKind(ctx, from);
    if ((from === ctx.repo.defaultBranch || protection === 'exact') && !ctx.permission.isAdmin) {
      throw forbidden('User must be a repo or site admin to rename default or protected branches.');
    }
    // Gitea's RenameBranch: the new name may not fall under a rule the doer cannot push past, and a
    // branch a pattern protects is not renamed at all (only a rule of its own name follows it).
    const refused = forbidden('Failed to rename branch due to branch protection rules.');
    if (!(await this.policy.canPushTo(ctx, a, to))) throw refused;
    if (protection === 'glob') throw refused;
    await this.db.transaction(async (m) => {
      await this.policy.renameRule(m, ctx, from, to);
      const moved = await this.writer.renameRef(view.repoId, `refs/heads/${from}`, `refs/heads/${to}`, head);
      if (moved === 'name-conflict') throw taken;
      if (moved !== 'ok') throw new ContractError('conflict', `branch ${from} was updated concurrently; try again`);
      if (from === ctx.repo.defaultBranch) await this.repos.update(m, ctx.repo.id, { defaultBranch: to });
      return null;
    });
    if (from === ctx.repo.defaultBranch) await this.git.setHead(view.repoId, to);
    const defaultBranch = from === ctx.repo.defaultBranch ? to : ctx.repo.defaultBranch;
    await this.pushes.afterRefUpdates({ ...ctx, repo: { ...ctx.repo, defaultBranch }, actor: a }, [
      // Pulls follow a rename (Gitea's RenameBranch) where they would close for a deletion.
      { oldSha: head, newSha: zeroId(head), ref: `refs/heads/${from}`, renamedTo: to },
      { oldSha: zeroId(head), newSha: head, ref: `refs/heads/${to}` },
    ]);
  }

  /**
   * `PUT …/branches/{branch}` (Gitea's UpdateBranch): moves an existing branch to another commit
   * as a push with a lease would. Branch protection decides as for `git push`; a move that is not
   * a fast-forward needs `force`; a stale `old_commit_id` changes nothing. Watchers hear a push.
   */
  async update(actor: Actor | null, owner: string, repo: string, name: string, body: UpdateBranchRepoOption): Promise<void> {
    const { view, actor: a } = await this.writable(actor, owner, repo);
    const head = await this.refs.branchHead(view.repoId, name);
    if (!head) throw notFound("Branch doesn't exist.");
    if (body.old_commit_id) {
      const expected = await this.refs.anyCommit(view.repoId, body.old_commit_id);
      if (expected?.sha !== head) throw new ContractError('conflict', `The branch has been updated: its head is ${head}, not ${body.old_commit_id}.`);
    }
    const target = await this.refs.anyCommit(view.repoId, body.new_commit_id);
    if (!target) throw unprocessable(`object does not exist [id: ${body.new_commit_id}, rel_path: ]`);
    if (target.sha === head) return;
    if (!body.force && !(await this.git.isAncestor(view.repoId, head, target.sha))) {
      throw new ContractError('conflict', 'The update is not a fast-forward.');
    }
    await this.moveBranch(view, a, name, head, target.sha);
  }

  /**
   * Moves a branch as the actor's push would (its protection decides, 403), compare-and-swap from
   * `head` (409 when it moved meanwhile), and records the push. `objectsOf` names a repository whose
   * objects `to` may still be in: they are read there for the decision, and copied in only once it allows.
   */
  private async moveBranch(view: RepoView, a: Actor, name: string, head: string, to: string, objectsOf?: { repoId: number }): Promise<void> {
    const ctx = view.ctx;
    const objects = objectsOf ? this.git.readingObjectsOf([objectsOf.repoId]) : undefined;
    const refused = await this.policy.checkUpdate(ctx, a, name, head, to, objects);
    if (refused) throw refused;
    if (objectsOf) await this.pullGit.bringIn(view.repoId, objectsOf.repoId, [to]);
    await this.db.transaction(async () => {
      const moved = await this.writer.updateRef(view.repoId, `refs/heads/${name}`, to, head, view.objectFormat);
      if (moved !== 'ok') throw new ContractError('conflict', `branch ${name} was updated concurrently; try again`);
      return null;
    });
    await this.pushes.afterRefUpdates({ ...ctx, actor: a }, [{ oldSha: head, newSha: to, ref: `refs/heads/${name}` }]);
  }

  /**
   * `POST …/merge-upstream` (Gitea's MergeUpstream): the fork's branch takes what its parent's
   * branch of the same name (else the parent's default branch) has that it lacks, fast-forward
   * when it has nothing of its own, else by a merge commit as a pull's update makes one (400 with
   * `ff_only`). The doer must still read the parent's code, and may move the branch only as a
   * push of theirs could.
   */
  async mergeUpstream(actor: Actor | null, owner: string, repo: string, body: MergeUpstreamRequest): Promise<MergeUpstreamResponse> {
    const { view, actor: a } = await this.writable(actor, owner, repo);
    const ctx = view.ctx;
    if (!ctx.repo.isFork || !ctx.repo.forkId) throw invalid('repo is not a fork');
    const parent = await this.access.contextById(a, ctx.repo.forkId).catch((err: unknown) => {
      if (err instanceof ContractError && err.code === 'not_found') throw invalid('repo is not a fork');
      throw err;
    });
    // Otherwise a fork made while its parent was public could keep pulling from it once private.
    if (!parent.permission.canRead('repo.code')) throw forbidden(`permission denied to read base repo ${parent.repo.id}`);
    if (parent.repo.isPrivate && isPublicOnly(a.scopes)) throw forbidden('token scope is limited to public repos');
    const branch = body.branch ?? '';
    const head = await this.refs.branchHead(view.repoId, branch);
    if (!head) throw notFound(`branch does not exist [repo_id: ${view.repoId} name: ${branch}]`);
    let baseBranch = branch;
    let base = await this.refs.branchHead(parent.repo.id, baseBranch);
    if (!base) {
      baseBranch = parent.repo.defaultBranch;
      base = await this.refs.branchHead(parent.repo.id, baseBranch);
    }
    if (!base) throw notFound(`branch does not exist [repo_id: ${parent.repo.id} name: ${baseBranch}]`);
    if (base === head) return { merge_type: 'up-to-date' };
    // Judged reading the parent's objects where they are: the fork gets them only once its branch
    // is to take them, never for a refusal.
    const parentObjects = this.git.readingObjectsOf([parent.repo.id]);
    if (await this.git.isAncestor(view.repoId, base, head, parentObjects)) return { merge_type: 'up-to-date' };
    if (await this.git.isAncestor(view.repoId, head, base, parentObjects)) {
      await this.moveBranch(view, a, branch, head, base, { repoId: parent.repo.id });
      return { merge_type: 'fast-forward' };
    }
    if (body.ff_only) throw invalid('fast-forward merge not possible: branch has diverged');
    // As a pull's update, but as the doer's push: the merge commit meets the branch's protection
    // before it moves, and the parent's objects come in only if it does.
    await this.merges.update({ headRepoId: view.repoId, headBranch: branch, baseRepoId: parent.repo.id, baseBranch, index: 0, style: 'merge', doerId: a.id, message: 'merge upstream', asPush: true });
    return { merge_type: 'merge' };
  }

  async delete(actor: Actor | null, owner: string, repo: string, name: string): Promise<void> {
    const { view, actor: a } = await this.writable(actor, owner, repo);
    const ctx = view.ctx;
    if (name === ctx.repo.defaultBranch) throw forbidden('can not delete default or pull request target branch');
    const refused = await this.policy.checkDelete(ctx, a, name);
    if (refused) throw refused;
    const head = await this.refs.branchHead(view.repoId, name);
    if (!head) throw notFound();
    await this.db.transaction(async () => {
      const moved = await this.writer.deleteRef(view.repoId, `refs/heads/${name}`, head);
      if (moved !== 'ok') throw new ContractError('conflict', `branch ${name} was updated concurrently; try again`);
      return null;
    });
    await this.pushes.afterRefUpdates({ ...ctx, actor: a }, [{ oldSha: head, newSha: zeroId(head), ref: `refs/heads/${name}` }]);
  }

  /** Gitea's order for branch writes: visible, code reader, sign-in, code writer, not archived, not empty, not a mirror. */
  private async writable(actor: Actor | null, owner: string, repo: string): Promise<{ view: RepoView; actor: Actor }> {
    const ctx = await this.access.assign(actor, owner, repo);
    if (!ctx.permission.canRead('repo.code')) throw forbidden('user should have specific read permission or be a repo admin or a site admin');
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    if (!ctx.permission.canWrite('repo.code')) throw forbidden('user should have a permission to write to a repo');
    if (ctx.repo.isArchived) throw new ContractError('locked', 'repo is archived');
    if (ctx.repo.isEmpty) throw notFound('Git Repository is empty.');
    if (ctx.repo.isMirror) throw forbidden('Git Repository is a mirror.');
    return { view: repoView(ctx, this.config), actor };
  }

  /**
   * `old_ref_name` (branch, tag or commit), else the deprecated `old_branch_name` (404 when
   * missing), else the default branch. Gitea answers an unresolvable `old_ref_name` with a 500;
   * it is the caller's mistake, so here it is a 404 like a missing old branch.
   */
  private async startPoint(view: RepoView, body: CreateBranchRepoOption): Promise<GitCommit> {
    if (body.old_ref_name) {
      const commit = await this.refs.anyCommit(view.repoId, body.old_ref_name);
      if (!commit) throw notFound(`object does not exist [id: ${body.old_ref_name}, rel_path: ]`);
      return commit;
    }
    if (body.old_branch_name) {
      const commit = await this.head(view, body.old_branch_name);
      if (!commit) throw notFound('The old branch does not exist');
      return commit;
    }
    const commit = await this.head(view, view.ctx.repo.defaultBranch);
    if (!commit) throw new ContractError('internal', `branch does not exist [name: ${view.ctx.repo.defaultBranch}]`);
    return commit;
  }

  private async head(view: RepoView, name: string): Promise<GitCommit | null> {
    const sha = await this.refs.branchHead(view.repoId, name);
    return sha ? this.objects.commit(view.repoId, sha) : null;
  }

  private async toBranches(view: RepoView, actor: Actor | null, branches: Array<{ name: string; commit: GitCommit }>): Promise<Branch[]> {
    const users = await this.commitUsers.byEmail(branches.flatMap((b) => [b.commit.author.email, b.commit.committer.email]));
    const rules = await this.policy.protectionsFor(view.ctx, actor, branches.map((b) => b.name));
    return branches.map((b) => toBranch(b.name, b.commit, rules.get(b.name) ?? null, actor, view.ctx.permission, view.urls, users));
  }
}

const zeroId = (like: string): string => '0'.repeat(like.length);
