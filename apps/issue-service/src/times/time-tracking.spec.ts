import { AccessMode, ContractError, RepoUnitKeys, type Actor, type RepoAccess, type RepoUnitKey } from '@gitforge/contracts';
import { canUseTimetracker, requireStopwatchAccess, requireTimetracker, secToHours, timesOwnerFilter, timetrackerEnabled } from './time-tracking.js';

const actor: Actor = { id: 7, login: 'tracker', isAdmin: false, scopes: null };
const admin: Actor = { id: 1, login: 'root', isAdmin: true, scopes: null };

function repo(mode: number, settings: Partial<RepoAccess['settings']> = {}): RepoAccess {
  const units = Object.fromEntries(RepoUnitKeys.map((k) => [k, mode])) as Record<RepoUnitKey, number>;
  return {
    units,
    settings: {
      has_issues: true,
      has_pull_requests: true,
      has_projects: true,
      enable_time_tracker: true,
      allow_only_contributors_to_track_time: true,
      enable_issue_dependencies: true,
      ...settings,
    },
  } as RepoAccess;
}

const issue = { isPull: false, posterId: 99, assigneeIds: [] as number[] };

/** The error a call throws, so its code can be compared. */
function errorOf(fn: () => void): ContractError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ContractError) return err;
    throw err;
  }
  throw new Error('expected a ContractError');
}

describe(secToHours.name, () => {
  it.each([
    [0, ''],
    [1, '1 second'],
    [59, '59 seconds'],
    [60, '1 minute'],
    [66, '1 minute'],
    [3600, '1 hour'],
    [3661, '1 hour 1 minute'],
    [52410, '14 hours 33 minutes'],
    [563418, '156 hours 30 minutes'],
    [7200, '2 hours'],
  ])('should format %i seconds as %p, in hours and minutes only as Gitea does', (seconds, text) => {
    expect(secToHours(seconds)).toBe(text);
  });
});

describe(canUseTimetracker.name, () => {
  it('should let only writers, the poster and assignees track when only contributors may', () => {
    expect(canUseTimetracker(repo(AccessMode.read), issue, actor)).toBe(false);
    expect(canUseTimetracker(repo(AccessMode.write), issue, actor)).toBe(true);
    expect(canUseTimetracker(repo(AccessMode.read), { ...issue, posterId: actor.id }, actor)).toBe(true);
    expect(canUseTimetracker(repo(AccessMode.read), { ...issue, assigneeIds: [3, actor.id] }, actor)).toBe(true);
  });

  it('should let any reader track when contributors-only is off, and nobody when tracking is off', () => {
    expect(canUseTimetracker(repo(AccessMode.read, { allow_only_contributors_to_track_time: false }), issue, actor)).toBe(true);
    expect(canUseTimetracker(repo(AccessMode.owner, { enable_time_tracker: false }), issue, actor)).toBe(false);
  });

  it("should judge pulls by the pull unit, and use Gitea's defaults when the issue unit is off", () => {
    const pulls = repo(AccessMode.read, { has_issues: false, enable_time_tracker: false });
    pulls.units['repo.pulls'] = AccessMode.write;
    expect(timetrackerEnabled(pulls)).toBe(true);
    expect(canUseTimetracker(pulls, { ...issue, isPull: true }, actor)).toBe(true);
  });
});

describe(requireTimetracker.name, () => {
  it("should answer Gitea's 400 when tracking is off and its 403 when the actor may not track", () => {
    const off = errorOf(() => requireTimetracker(repo(AccessMode.owner, { enable_time_tracker: false }), issue, actor));
    expect({ code: off.code, message: off.message }).toEqual({ code: 'invalid_argument', message: 'time tracking disabled' });
    expect(errorOf(() => requireTimetracker(repo(AccessMode.read), issue, actor)).code).toBe('permission_denied');
    expect(() => requireTimetracker(repo(AccessMode.write), issue, actor)).not.toThrow();
  });
});

describe(requireStopwatchAccess.name, () => {
  it('should want a writer of the unit even from the poster, and 403 (not 400) when tracking is off', () => {
    expect(errorOf(() => requireStopwatchAccess(repo(AccessMode.read), { ...issue, posterId: actor.id }, actor)).code).toBe('permission_denied');
    expect(errorOf(() => requireStopwatchAccess(repo(AccessMode.write, { enable_time_tracker: false }), issue, actor)).code).toBe('permission_denied');
    expect(() => requireStopwatchAccess(repo(AccessMode.write), issue, actor)).not.toThrow();
  });
});

describe(timesOwnerFilter.name, () => {
  it("should show readers only their own times and refuse someone else's", () => {
    expect(timesOwnerFilter(repo(AccessMode.read), actor, undefined)).toBe(actor.id);
    expect(timesOwnerFilter(repo(AccessMode.read), actor, actor.id)).toBe(actor.id);
    expect(errorOf(() => timesOwnerFilter(repo(AccessMode.read), actor, 3)).message).toBe('query by user not allowed; not enough rights');
  });

  it("should let issue writers and site administrators see everyone's or filter by anyone", () => {
    expect(timesOwnerFilter(repo(AccessMode.write), actor, undefined)).toBeUndefined();
    expect(timesOwnerFilter(repo(AccessMode.write), actor, 3)).toBe(3);
    expect(timesOwnerFilter(repo(AccessMode.none), admin, 3)).toBe(3);
  });
});
