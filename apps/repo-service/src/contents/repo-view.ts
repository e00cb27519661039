import { forbidden, type Actor } from '@gitforge/contracts';
import type { PlatformConfig } from '@gitforge/platform';
import type { RepoAccessService, RepoContext } from '../access/repo-access.service.js';
import { repoUrls, type RepoUrls } from '../repos/repo.mapper.js';

/** A repository the actor may read, with what git readers need about it. */
export interface RepoView {
  ctx: RepoContext;
  repoId: number;
  urls: RepoUrls;
  objectFormat: 'sha1' | 'sha256';
}

export function repoView(ctx: RepoContext, config: PlatformConfig): RepoView {
  return {
    ctx,
    repoId: ctx.repo.id,
    urls: repoUrls(config, ctx.owner.ownerUser.login, ctx.repo.name),
    objectFormat: ctx.repo.objectFormat,
  };
}

/** Gitea's repoAssignment + reqRepoReader(code): 404 when hidden, 403 when visible without code access. */
export async function codeReader(
  access: RepoAccessService,
  config: PlatformConfig,
  actor: Actor | null,
  owner: string,
  repo: string,
): Promise<RepoView> {
  const ctx = await access.assign(actor, owner, repo);
  if (!ctx.permission.canRead('repo.code')) {
    throw forbidden('user should have specific read permission or be a repo admin or a site admin');
  }
  return repoView(ctx, config);
}
