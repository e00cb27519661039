import { ContractError, forbidden, type Actor, type RepoAccess } from '@gitforge/contracts';
import { canWrite, canWriteIssuesOrPulls } from '../access/repo-gate.js';

/**
 * Gitea's IsTimetrackerEnabled: the issue unit's setting. A repository without the issue unit
 * has no such setting, and Gitea then falls back to its default (on), which pulls still use.
 */
export function timetrackerEnabled(repo: RepoAccess): boolean {
  return repo.settings.has_issues ? repo.settings.enable_time_tracker : true;
}

/** Gitea's AllowOnlyContributorsToTrackTime, with the same fallback (on). */
function onlyContributorsTrack(repo: RepoAccess): boolean {
  return repo.settings.has_issues ? repo.settings.allow_only_contributors_to_track_time : true;
}

/** What Gitea's CanUseTimetracker asks of an issue. */
export interface TrackedIssue {
  isPull: boolean;
  posterId: number;
  assigneeIds: number[];
}

/**
 * Gitea's CanUseTimetracker: tracking is on, and either anyone may track or the actor is a
 * writer of the issue's unit, its poster or one of its assignees.
 */
export function canUseTimetracker(repo: RepoAccess, issue: TrackedIssue, actor: Actor): boolean {
  if (!timetrackerEnabled(repo)) return false;
  if (!onlyContributorsTrack(repo)) return true;
  return canWriteIssuesOrPulls(repo, issue.isPull) || issue.posterId === actor.id || issue.assigneeIds.includes(actor.id);
}

/** Gitea's answer to tracked-time changes (and the repository listing) while tracking is off. */
export const trackingDisabled = (): ContractError => new ContractError('invalid_argument', 'time tracking disabled');

/** The tracked-time routes' check: tracking off is Gitea's 400, tracking not allowed its 403. */
export function requireTimetracker(repo: RepoAccess, issue: TrackedIssue, actor: Actor): void {
  if (canUseTimetracker(repo, issue, actor)) return;
  if (!timetrackerEnabled(repo)) throw trackingDisabled();
  throw forbidden('user is not allowed to track time on this issue');
}

/** The stopwatch routes' check: writers of the issue's unit who may track time, else Gitea's 403. */
export function requireStopwatchAccess(repo: RepoAccess, issue: TrackedIssue, actor: Actor): void {
  if (!canWriteIssuesOrPulls(repo, issue.isPull)) throw forbidden('user should have permission to write the issue');
  if (!canUseTimetracker(repo, issue, actor)) throw forbidden('user is not allowed to track time on this issue');
}

/**
 * Whose times a listing shows: site administrators and writers of the issue unit see anyone's
 * (and may filter by user); others only their own, and asking for someone else's is Gitea's 403.
 */
export function timesOwnerFilter(repo: RepoAccess, actor: Actor, requested: number | undefined): number | undefined {
  if (actor.isAdmin || requested === actor.id || canWrite(repo, 'repo.issues')) return requested;
  if (requested === undefined) return actor.id;
  throw forbidden('query by user not allowed; not enough rights');
}

/**
 * Gitea's SecToHours, the stopwatch's `duration`: hours and minutes only (a work day has no fixed
 * length), seconds alone while under a minute, "" for nothing.
 */
export function secToHours(seconds: number): string {
  const hours = Math.trunc(seconds / 3600);
  const minutes = Math.trunc(seconds / 60) % 60;
  const parts = [unit(hours, 'hour'), unit(minutes, 'minute')].filter((p) => p !== '');
  if (parts.length === 0 && seconds > 0) return unit(seconds, 'second');
  return parts.join(' ');
}

function unit(value: number, name: string): string {
  if (value === 1) return `1 ${name}`;
  if (value > 1) return `${value} ${name}s`;
  return '';
}
