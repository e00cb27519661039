import { Injectable } from '@nestjs/common';
import {
  canRead,
  canWrite,
  RepoFactPatterns,
  requireActor,
  requireIssuesOrPulls,
  requireNotArchived,
  requireRepoAdmin,
  requireRepoWriter,
  type Actor,
  type RepoAccess,
  type RepoUnitKey,
  type UserRepoAccess,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';

/**
 * repo-service's answer to "may this actor see this repository, and what may it do there",
 * asked once per request (or once per page of repositories), never per row.
 */
@Injectable()
export class RepoGate {
  constructor(private readonly rpc: RpcClient) {}

  /** The repository if the actor can see it; repo-service answers 404 otherwise. */
  assign(actor: Actor | null, owner: string, repo: string): Promise<RepoAccess> {
    return this.rpc.call<RepoAccess, { owner: string; repo: string }>(RepoFactPatterns.access, { actor, params: { owner, repo } });
  }

  /**
   * The caller, who must be signed in (401), once the repository is known to be visible: Gitea
   * assigns the repository before its reqToken, so an anonymous caller of a hidden (or missing)
   * repository gets its 404 first.
   */
  async signedIn(actor: Actor | null, owner: string, repo: string): Promise<Actor> {
    if (!actor) await this.assign(null, owner, repo);
    return requireActor(actor);
  }

  /**
   * The repositories among `ids` as their owners see them, whoever may see them: for the
   * tracker's own work on them (pull sync, auto-merge, closing pulls of a deleted head), never to
   * answer a caller. One call.
   */
  asOwner(ids: number[]): Promise<RepoAccess[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.rpc.call<RepoAccess[], Record<string, string>, { ids: number[]; asOwner: true }>(RepoFactPatterns.accessMany, {
      actor: null,
      body: { ids: [...new Set(ids)], asOwner: true },
    });
  }

  /** The repositories among `ids` the actor can see, one call. */
  many(actor: Actor | null, ids: number[]): Promise<RepoAccess[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.rpc.call<RepoAccess[], Record<string, string>, { ids: number[] }>(RepoFactPatterns.accessMany, {
      actor,
      body: { ids: [...new Set(ids)] },
    });
  }

  /**
   * A repository whose issue tracker the actor manages (labels, milestones): visible (404),
   * signed in (401), a writer of issues or pulls (403, Gitea's reqRepoWriter), not archived (423).
   */
  async assignForManaging(actor: Actor | null, owner: string, repo: string): Promise<RepoAccess> {
    const access = await this.assign(actor, owner, repo);
    requireActor(actor);
    requireIssuesWriter(access);
    requireNotArchived(access);
    return access;
  }

  /** Every repository the actor reaches (of one owner or team), with its access: one call. */
  reachable(actor: Actor | null, scope: { owner?: string; team?: string }): Promise<RepoAccess[]> {
    return this.rpc.call<RepoAccess[], Record<string, string>, { owner?: string; team?: string }>(RepoFactPatterns.reachable, { actor, body: scope });
  }

  /** What each user may do in the repository (assignees), one call. */
  usersAccess(repoId: number, userIds: number[]): Promise<UserRepoAccess[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.rpc.call<UserRepoAccess[], Record<string, string>, { repoId: number; userIds: number[] }>(RepoFactPatterns.usersAccess, {
      actor: null,
      body: { repoId, userIds: [...new Set(userIds)] },
    });
  }
}

/** The unit an issue belongs to: pull requests have their own. */
export const unitOf = (isPull: boolean): RepoUnitKey => (isPull ? 'repo.pulls' : 'repo.issues');

/** Gitea's route rights over RepoAccess, defined once, in contracts. */
export { canRead, canWrite, requireIssuesOrPulls, requireNotArchived, requireRepoAdmin };

export const canReadIssuesOrPulls = (repo: RepoAccess, isPull: boolean): boolean => canRead(repo, unitOf(isPull));
export const canWriteIssuesOrPulls = (repo: RepoAccess, isPull: boolean): boolean => canWrite(repo, unitOf(isPull));

/** Gitea's reqToken for the routes that need a signed-in caller; defined once, in contracts. */
export { requireActor };

/**
 * Gitea's reqRepoWriter(issues, pulls), which guards label and milestone changes: writers of
 * either unit and repository administrators.
 */
export function requireIssuesWriter(repo: RepoAccess): void {
  requireRepoWriter(repo, ['repo.issues', 'repo.pulls']);
}
