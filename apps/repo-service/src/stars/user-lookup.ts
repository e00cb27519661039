import { notFound, requireActor, type Actor } from '@gitforge/contracts';
import type { RepoAccessService } from '../access/repo-access.service.js';

/** Gitea's reqToken; defined once, in contracts. */
export { requireActor };

/**
 * The user whose stars or subscriptions are listed: the actor without a name, else the named
 * individual if the actor may see it (Gitea's context user; anything else is 404).
 */
export async function listedUserId(access: RepoAccessService, actor: Actor | null, username: string | undefined): Promise<number> {
  if (username === undefined) return requireActor(actor).id;
  const owner = await access.ownerInPath(actor, username).catch((err: unknown) => {
    throw (err as { code?: string }).code === 'not_found' ? notFound() : err;
  });
  if (owner.owner.kind !== 'user' || !owner.visible) throw notFound();
  return owner.owner.id;
}
