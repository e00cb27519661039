import { formatTime, type RepoAccess, type WatchInfo } from '@gitforge/contracts';
import type { IssueEntity } from '../issues/issue.entity.js';
import { issueApiUrl } from '../issues/issue.mapper.js';

/** Gitea's WatchInfo of an issue subscription check. */
export function toWatchInfo(issue: IssueEntity, repo: RepoAccess, subscribed: boolean): WatchInfo {
  return {
    subscribed,
    ignored: !subscribed,
    reason: null,
    created_at: formatTime(issue.createdAt),
    url: `${issueApiUrl(repo.repository, issue.idx)}/subscriptions`,
    repository_url: repo.repository.url,
  };
}
