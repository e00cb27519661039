import { accessModeName, type Organization, type Team } from '@gitforge/contracts';
import type { TeamEntity } from '../orgs/org.entities.js';
import { apiUnits } from './team-units.js';

/** Gitea's convert.ToTeam; `organization` only where Gitea loads it. */
export function toTeam(t: TeamEntity, organization: Organization | null): Team {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    organization,
    includes_all_repositories: t.includesAllRepositories,
    permission: accessModeName(t.accessMode),
    ...apiUnits(t),
    can_create_org_repo: t.canCreateOrgRepo,
    visibility: t.visibility,
  };
}
