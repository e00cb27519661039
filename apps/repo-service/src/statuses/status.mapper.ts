import { formatTime, type CombinedStatus, type CommitStatus, type CommitStatusState, type Repository, type User, pathEscape } from '@gitforge/contracts';
import type { RepoUrls } from '../repos/repo.mapper.js';
import type { CommitStatusEntity } from './commit-status.entity.js';

/** Gitea's convert.ToCommitStatus (`id` is the per-commit index; updated equals created). */
export function toCommitStatus(s: CommitStatusEntity, urls: RepoUrls, creator: User | null): CommitStatus {
  return {
    id: s.idx,
    status: s.state as CommitStatusState,
    target_url: s.targetUrl,
    description: s.description,
    url: `${urls.api}/statuses/${pathEscape(s.sha)}`,
    context: s.context,
    creator,
    created_at: formatTime(s.createdAt),
    updated_at: formatTime(s.createdAt),
  };
}

/**
 * Gitea's CommitStatusStates.Combine: any error, failure or warning makes `failure`; all success
 * or skipped make `success`; anything else, including no status at all, is `pending`.
 */
export function combineStates(states: string[]): CommitStatusState {
  let ok = 0;
  for (const s of states) {
    if (s === 'error' || s === 'failure' || s === 'warning') return 'failure';
    if (s === 'success' || s === 'skipped') ok++;
  }
  return ok > 0 && ok === states.length ? 'success' : 'pending';
}

export function toCombinedStatus(sha: string, statuses: CommitStatus[], repository: Repository): CombinedStatus {
  return {
    state: combineStates(statuses.map((s) => s.status)),
    sha,
    total_count: statuses.length,
    statuses: statuses.length > 0 ? statuses : null,
    repository,
    commit_url: `${repository.url}/commits/${pathEscape(sha)}`,
    url: `${repository.url}/commits/${pathEscape(sha)}/status`,
  };
}
