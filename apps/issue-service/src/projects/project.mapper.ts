import { formatTime, type Project, type ProjectColumn } from '@gitforge/contracts';
import type { ProjectColumnEntity } from './project-column.entity.js';
import type { ProjectEntity } from './project.entity.js';

/**
 * Where a project's web page lives (Gitea's Project.Link): under its repository, or under its
 * organization's `/-/projects`.
 */
export function projectHome(
  rootUrl: string,
  where: { repoHtmlUrl: string } | { ownerLogin: string },
): string {
  return 'repoHtmlUrl' in where
    ? `${where.repoHtmlUrl}/projects`
    : `${rootUrl}${encodeURIComponent(where.ownerLogin)}/-/projects`;
}

/** A project as gitforge's project API shows it (Gitea's project model, docs/spec.md's Project). */
export function toProject(p: ProjectEntity, rootUrl: string, home: string): Project {
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    repo_id: p.repoId,
    owner_id: p.ownerId,
    creator_id: p.creatorId,
    is_closed: p.isClosed,
    template_type: p.templateType,
    card_type: p.cardType,
    created_at: formatTime(p.createdAt),
    updated_at: formatTime(p.updatedAt),
    closed_at: p.isClosed && p.closedAt ? formatTime(p.closedAt) : null,
    url: `${rootUrl}api/v1/projects/${p.id}`,
    html_url: `${home}/${p.id}`,
  };
}

/** A board column with its issue count, counted now. */
export function toProjectColumn(c: ProjectColumnEntity, numIssues: number): ProjectColumn {
  return {
    id: c.id,
    project_id: c.projectId,
    title: c.title,
    color: c.color,
    default: c.isDefault,
    sorting: c.sorting,
    num_issues: numIssues,
    created_at: formatTime(c.createdAt),
    updated_at: formatTime(c.updatedAt),
  };
}
