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

/** Gitea's convert.ToNotificationThread. */
export function toNotificationThread(n: NotificationEntity, repository: Repository, rootUrl: string): NotificationThread {
  return {
    id: n.id,
    repository: withoutPermissions(repository),
    subject: {
      title: n.title,
      url: n.subjectUrl,
      html_url: n.subjectHtmlUrl,
      latest_comment_url: n.latestCommentUrl,
      latest_comment_html_url: n.latestCommentHtmlUrl,
      type: SUBJECT_TYPES[n.source],
      state: n.state,
    },
    unread: n.status === NotificationStatus.unread,
    pinned: n.status === NotificationStatus.pinned,
    updated_at: formatTime(n.updatedAt),
    url: `${rootUrl}api/v1/notifications/threads/${n.id}`,
  };
}
