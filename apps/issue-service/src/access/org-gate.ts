import { Injectable } from '@nestjs/common';
import { ContractError, forbidden, isPublicOnly, notFound, type Actor, type OwnerAccess } from '@gitforge/contracts';
import { DirectoryClient } from '@gitforge/platform';

/** An organization the actor may see, and whether the actor may manage it. */
export interface OrgAccess {
  id: number;
  login: string;
  /** Gitea's reqOrgOwnership: a member of the Owners team or a site administrator. */
  canManage: boolean;
}

/**
 * org-service's answer to "may this actor see this organization" (Gitea's orgAssignment with
 * reqOrgVisible), asked once per request.
 */
@Injectable()
export class OrgGate {
  constructor(
    private readonly directory: DirectoryClient,
  ) {}

  /**
   * The organization `name` if it exists and the actor may see it (404 otherwise, users
   * included); a public-only token stops at one that is not public (403), as Gitea's reqToken.
   */
  async assign(actor: Actor | null, name: string): Promise<OrgAccess> {
    const access = await this.access(actor, { owner: name });
    return { id: access.owner.id, login: access.owner.login, canManage: actor !== null && (actor.isAdmin || access.isOrgOwner) };
  }

  /** As {@link assign}, by name or id, with everything org-service says of the actor there (teams' unit access). */
  async access(actor: Actor | null, org: { owner: string } | { ownerId: number }): Promise<OwnerAccess> {
    // An old name of a renamed organization in the path: Gitea's orgAssignment redirects (307).
    const access =
      'owner' in org
        ? await this.directory.ownerInPath(actor, org.owner, notFound())
        : await this.directory.ownerAccess(actor, org).catch((err: unknown) => {
            throw err instanceof ContractError && err.code === 'not_found' ? notFound() : err;
          });
    if (access.owner.kind !== 'organization' || !access.visible) throw notFound();
    if (actor && isPublicOnly(actor.scopes) && access.owner.visibility !== 'public') throw forbidden('token scope is limited to public orgs');
    return access;
  }
}

/** Gitea's reqOrgOwnership, after reqToken. */
export function requireOrgOwner(org: OrgAccess): void {
  if (!org.canManage) throw forbidden('Must be an organization owner');
}
