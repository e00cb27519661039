import { formatTime, type NotificationSubjectType, type NotificationThread, type Repository } from '@gitforge/contracts';
import { NotificationSource, NotificationStatus, type NotificationEntity, type NotificationSourceValue } from './notification.entity.js';

const SUBJECT_TYPES: Record<NotificationSourceValue, NotificationSubjectType> = {
  [NotificationSource.issue]: 'Issue',
  [NotificationSource.pull]: 'Pull',
  [NotificationSource.commit]: 'Commit',
  [NotificationSource.repository]: 'Repository',
};

/** Gitea drops the repository's permissions from a thread ("this permission is not correct"), its parent's too. */
function withoutPermissions(repo: Repository): Repository {
  const { permissions: _dropped, parent, ...rest } = repo;
  return { ...rest, parent: parent ? withoutPermissions(parent) : parent } as Repository;
}

/**
 * A URL under `prefix` (`{root}api/v1/repos/` or `{root}`) whose first two segments are the
 * repository's owner and name, moved onto `base` (the repository's URL of the same kind now):
 * threads keep the URLs of their latest event, Gitea builds them from the repository as it is.
 */
function rebased(url: string, prefix: string, base: string): string {
  if (!url.startsWith(prefix)) return url;
  const segments = url.slice(prefix.length).split('/');
  if (segments.length < 2) return url;
  return [base, ...segments.slice(2)].join('/');
}

/** Gitea's Repository.Link(): the repository's path under the site's sub-path, relative (what a Repository subject's `url` is). */
export function repositoryLink(repository: Repository, rootUrl: string): string {
  return `${new URL(rootUrl).pathname.replace(/\/$/, '')}/${repository.full_name}`;
}

/** The subject as Gitea's convert.ToNotificationThread builds it, from the repository's current name and owner. */
function subjectOf(n: NotificationEntity, repository: Repository, rootUrl: string): NotificationThread['subject'] {
  const type = SUBJECT_TYPES[n.source];
  if (n.source === NotificationSource.repository) {
    return { title: repository.full_name, url: repositoryLink(repository, rootUrl), html_url: repository.html_url, latest_comment_url: '', latest_comment_html_url: '', type, state: '' };
  }
  const api = (u: string): string => rebased(u, `${rootUrl}api/v1/repos/`, repository.url);
  const html = (u: string): string => rebased(u, rootUrl, repository.html_url);
  return {
    title: n.title,
    url: n.source === NotificationSource.commit ? html(n.subjectUrl) : api(n.subjectUrl),
    html_url: html(n.subjectHtmlUrl),
    latest_comment_url: api(n.latestCommentUrl),
    latest_comment_html_url: html(n.latestCommentHtmlUrl),
    type,
    state: n.state,
  };
}

/** Gitea's convert.ToNotificationThread; `repository` null when the thread's user may no longer see it (then no subject either). */
export function toNotificationThread(n: NotificationEntity, repository: Repository | null, rootUrl: string): NotificationThread {
  return {
    id: n.id,
    repository: repository ? withoutPermissions(repository) : null,
    subject: repository ? subjectOf(n, repository, rootUrl) : null,
    unread: n.status === NotificationStatus.unread,
    pinned: n.status === NotificationStatus.pinned,
    updated_at: formatTime(n.updatedAt),
    url: `${rootUrl}api/v1/notifications/threads/${n.id}`,
  };
}
