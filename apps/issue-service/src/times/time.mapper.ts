import { formatTime, type Issue, type RepoAccess, type StopWatch, type TrackedTime } from '@gitforge/contracts';
import type { IssueEntity } from '../issues/issue.entity.js';
import type { StopwatchEntity } from './stopwatch.entity.js';
import { secToHours } from './time-tracking.js';
import type { TrackedTimeEntity } from './tracked-time.entity.js';

/** Gitea's ToTrackedTime: `issue` is null when the issue is gone, `user_name` the ghost's for a deleted user. */
export function toTrackedTime(t: TrackedTimeEntity, parts: { userName: string; issue: Issue | null }): TrackedTime {
  return {
    id: t.id,
    created: formatTime(t.createdAt),
    time: t.time,
    user_id: t.userId,
    user_name: parts.userName,
    issue_id: t.issueId,
    issue: parts.issue,
  };
}

/** Gitea's ToStopWatches entry; `seconds` and `duration` count up to `now`. */
export function toStopWatch(sw: StopwatchEntity, issue: IssueEntity, repo: RepoAccess, now: Date): StopWatch {
  const seconds = Math.max(0, Math.floor(now.getTime() / 1000) - Math.floor(sw.createdAt.getTime() / 1000));
  return {
    created: formatTime(sw.createdAt),
    seconds,
    duration: secToHours(seconds),
    issue_index: issue.idx,
    issue_title: issue.title,
    repo_owner_name: repo.ownerLogin,
    repo_name: repo.name,
  };
}
