import { Injectable } from '@nestjs/common';
import { AccessMode, GitHttp, isPublicOnly, scopesAllow, type Actor, type OwnerAccess, type RepoMovedDetails } from '@gitforge/contracts';
import { RepoAccessService, type RepoContext } from '../access/repo-access.service.js';
import { RepoPermission } from '../access/repo-permission.js';
import type { GitHttpService } from '../git/git.service.js';
import { ReposRepository } from '../records/repos.repository.js';
import type { RepositoryEntity } from '../records/repository.entity.js';
import { Lru } from '@gitforge/platform';

/** Either the repository to serve, or the plain-text answer git gets instead. */
export type GitAccessVerdict =
  | { ok: true; ctx: RepoContext }
  | { ok: false; status: number; message: string; headers?: Record<string, string>; moved?: RepoMovedDetails };

const refuse = (status: number, message: string, headers?: Record<string, string>): GitAccessVerdict => ({ ok: false, status, message, headers });

/**
 * Gitea's httpBase: who may fetch from or push to `{owner}/{repo}` over smart HTTP. Public
 * repositories of public owners are readable anonymously; everything else asks for credentials
 * (401 with a Basic challenge), then needs read permission on code. Writing is decided per ref
 * by PushPolicy, as Gitea's pre-receive hook does, so a reader's push is refused with a reason.
 */
@Injectable()
export class GitAccess {
  constructor(
    private readonly access: RepoAccessService,
    private readonly repos: ReposRepository,
  ) {}

  /** Owner ids by lower-case name: a hint for {@link ownerAndRepo}, never an answer. */
  private readonly ownerIds = new Lru<string, number>(10_000);

  async check(actor: Actor | null, ownerName: string, repoName: string, service: GitHttpService): Promise<GitAccessVerdict> {
    const pull = service === 'upload-pack';
    const { owner, repo } = await this.ownerAndRepo(actor, ownerName, repoName);
    if (owner && !repo) {
      // An old name (Gitea redirects there too): only to those who may see the repository where it
      // is now; anyone else gets what a name that never existed gets (401 first when anonymous).
      const moved = await this.access.redirect(actor, owner, ownerName, repoName);
      if (moved) return { ok: false, status: 307, message: 'Temporary Redirect', moved };
    }
    if (repo?.isArchived && !pull) {
      return refuse(403, 'This repo is archived. You can view files and clone it, but cannot push or open issues/pull-requests.');
    }
    const publicPull = !!owner && !!repo && !repo.isPrivate && pull && owner.owner.visibility === 'public';
    if (publicPull) return { ok: true, ctx: { repo, owner, permission: await this.access.permissionFor(actor, owner, repo) } };

    if (!owner) {
      // An old login of a renamed owner: redirected for those who may see the repository there;
      // anonymous callers are asked for credentials first (the repository may be private).
      const renamed = await this.access.renamedOwnerRedirect(actor, ownerName, repoName);
      if (renamed && renamed !== 'hidden') return { ok: false, status: 307, message: 'Temporary Redirect', moved: renamed };
      if (renamed === 'hidden' && !actor) return refuse(401, 'Unauthorized', { 'WWW-Authenticate': GitHttp.challenge });
    }
    // Gitea looks the owner up before it asks for credentials: an unknown owner is a 404 for everyone.
    if (!owner) return refuse(404, 'Repository not found');
    if (!actor) return refuse(401, 'Unauthorized', { 'WWW-Authenticate': GitHttp.challenge });
    if (actor.scopes !== null) {
      if (!scopesAllow(actor.scopes, 'repository', !pull)) {
        const required = `${pull ? 'read' : 'write'}:repository`;
        return refuse(403, `token does not have at least one of required scope(s), required=[${required}], token scope=${actor.scopes.join(',')}`);
      }
      if (repo?.isPrivate && isPublicOnly(actor.scopes)) return refuse(403, 'token scope is limited to public repos');
    }
    if (!repo) {
      if (pull) return refuse(404, 'Repository not found');
      return refuse(403, `Push to create is not enabled for ${owner.owner.kind === 'organization' ? 'organizations' : 'users'}.`);
    }
    const permission = await this.access.permissionFor(actor, owner, repo);
    if (!permission.canRead('repo.code')) return refuse(404, 'Repository not found');
    if (!pull && repo.isMirror) return refuse(403, 'mirror repository is read-only');
    return { ok: true, ctx: { repo, owner, permission } };
  }

  /**
   * A deploy key (SSH, or an LFS token one handed out): only the repositories it was added to,
   * reading always, writing unless it is read-only. It acts as the repository's owner, as Gitea's
   * serv does, with `deployKeyId` set so that branch protection applies its deploy-key rules.
   */
  async checkDeployKey(
    uses: { deployKeyId: number; repoId: number; readOnly: boolean }[],
    ownerName: string,
    repoName: string,
    service: GitHttpService,
  ): Promise<{ ok: true; ctx: RepoContext; actor: Actor; deployKeyId: number } | { ok: false; status: number; message: string }> {
    const pull = service === 'upload-pack';
    const { owner, repo } = await this.ownerAndRepo(null, ownerName, repoName);
    const use = repo ? uses.find((u) => u.repoId === repo.id) : undefined;
    if (!owner || !repo || !use) return { ok: false, status: 404, message: 'Repository not found' };
    if (!pull && use.readOnly) return { ok: false, status: 403, message: `Deploy key ${use.deployKeyId} is read-only: it cannot push to ${ownerName}/${repoName}` };
    if (!pull && repo.isArchived) {
      return { ok: false, status: 403, message: 'This repo is archived. You can view files and clone it, but cannot push or open issues/pull-requests.' };
    }
    if (!pull && repo.isMirror) return { ok: false, status: 403, message: 'mirror repository is read-only' };
    const actor: Actor = { id: owner.owner.id, login: owner.owner.login, isAdmin: false, scopes: null };
    const permission = new RepoPermission(use.readOnly ? AccessMode.read : AccessMode.write);
    return { ok: true, ctx: { repo, owner, permission }, actor, deployKeyId: use.deployKeyId };
  }

  /**
   * The owner (asked of org-service) and its repository. A clone asks three times in a row, so
   * the owner's id is remembered by name and the repository looked up beside the question; the
   * answer decides, and a name that now belongs to another owner is looked up again.
   */
  private async ownerAndRepo(actor: Actor | null, ownerName: string, repoName: string): Promise<{ owner: OwnerAccess | null; repo: RepositoryEntity | null }> {
    const key = ownerName.toLowerCase();
    const knownId = this.ownerIds.get(key);
    const [owner, early] = await Promise.all([
      this.ownerOf(actor, ownerName),
      // A failed guess is no answer: the lookup by the answered id follows.
      knownId === undefined ? undefined : this.repos.findByOwnerAndName(knownId, repoName).catch(() => undefined),
    ]);
    if (!owner) return { owner, repo: null };
    this.ownerIds.set(key, owner.owner.id);
    const repo = early !== undefined && knownId === owner.owner.id ? early : await this.repos.findByOwnerAndName(owner.owner.id, repoName);
    return { owner, repo };
  }

  private async ownerOf(actor: Actor | null, name: string): Promise<OwnerAccess | null> {
    try {
      return await this.access.ownerAccess(actor, { name });
    } catch (err) {
      if ((err as { code?: string }).code === 'not_found') return null;
      throw err;
    }
  }
}
