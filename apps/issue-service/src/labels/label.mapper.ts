import type { Label, RepoAccess } from '@gitforge/contracts';
import type { LabelEntity } from './label.entity.js';

/**
 * Where a label lives, for its `url`: the repository's API URL for a repository label, the
 * organization's name for an organization label (Gitea's ToLabel).
 */
export interface LabelHome {
  rootUrl: string;
  repoApiUrl?: string;
  orgLogin?: string;
}

/** Where the labels usable in a repository live: the repository, or its organization. */
export function repoLabelHome(rootUrl: string, repo: RepoAccess): LabelHome {
  return { rootUrl, repoApiUrl: repo.repository.url, orgLogin: repo.ownerLogin };
}

/** Gitea's ToLabel: the colour without `#`. */
export function toLabel(l: LabelEntity, home: LabelHome): Label {
  const url =
    l.repoId > 0 && home.repoApiUrl
      ? `${home.repoApiUrl}/labels/${l.id}`
      : `${home.rootUrl}api/v1/orgs/${encodeURIComponent(home.orgLogin ?? '')}/labels/${l.id}`;
  return {
    id: l.id,
    name: l.name,
    exclusive: l.exclusive,
    is_archived: l.archivedAt !== null,
    color: l.color.replace(/^#/, ''),
    description: l.description,
    url,
  };
}
