import { AccessMode, ContractError, RepoUnitKeys, type Actor, type RepoAccess } from '@gitforge/contracts';
import { requireMayChangeComment, requireMayChangeCommentAttachments, requireMayComment } from './comment-rules.js';

const actor = (id: number, isAdmin = false): Actor =>
  ({ id, login: `u${id}`, isAdmin, scopes: [] }) as unknown as Actor;

/** A repository where the caller has `issues` on the issue unit and `pulls` on the pull unit. */
function repoWith(issues: number, pulls: number = issues, isAdmin = false): RepoAccess {
  const units = Object.fromEntries(RepoUnitKeys.map((k) => [k, AccessMode.read])) as RepoAccess['units'];
  units['repo.issues'] = issues;
  units['repo.pulls'] = pulls;
  return {
    isAdmin,
    units,
    settings: {
      has_issues: true,
      has_pull_requests: true,
      has_projects: true,
      enable_time_tracker: true,
      allow_only_contributors_to_track_time: true,
      enable_issue_dependencies: true,
    },
  } as RepoAccess;
}

function refusal(fn: () => void): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe(requireMayComment.name, () => {
  const locked = { isLocked: true, isPull: false };

  it('should let readers comment on an open conversation', () => {
    expect(
      refusal(() =>
        requireMayComment(repoWith(AccessMode.read), { isLocked: false, isPull: false }, actor(1)),
      ),
    ).toBeUndefined();
  });

  it("should refuse readers on a locked issue with Gitea's message", () => {
    const error = refusal(() => requireMayComment(repoWith(AccessMode.read), locked, actor(1)));
    expect(error).toBeInstanceOf(ContractError);
    expect(error).toMatchObject({
      code: 'permission_denied',
      message: 'You cannot comment on a locked issue.',
    });
  });

  it("should let the unit's writers and site administrators comment on a locked issue", () => {
    expect(refusal(() => requireMayComment(repoWith(AccessMode.write), locked, actor(1)))).toBeUndefined();
    expect(
      refusal(() => requireMayComment(repoWith(AccessMode.read), locked, actor(1, true))),
    ).toBeUndefined();
  });

  it('should judge a pull request by the pulls unit, not the issues unit', () => {
    const pullWriter = repoWith(AccessMode.read, AccessMode.write);
    expect(
      refusal(() => requireMayComment(pullWriter, { isLocked: true, isPull: true }, actor(1))),
    ).toBeUndefined();
    expect(refusal(() => requireMayComment(pullWriter, locked, actor(1)))).toBeInstanceOf(ContractError);
  });
});

describe(requireMayChangeComment.name, () => {
  const issue = { isPull: false };

  it('should let the poster change their comment with read access only', () => {
    expect(
      refusal(() => requireMayChangeComment(repoWith(AccessMode.read), issue, { posterId: 7 }, actor(7))),
    ).toBeUndefined();
  });

  it("should let the unit's writers change anyone's comment", () => {
    expect(
      refusal(() => requireMayChangeComment(repoWith(AccessMode.write), issue, { posterId: 7 }, actor(8))),
    ).toBeUndefined();
  });

  it('should refuse other readers with 403, site administrators without write access included', () => {
    expect(
      refusal(() => requireMayChangeComment(repoWith(AccessMode.read), issue, { posterId: 7 }, actor(8))),
    ).toMatchObject({ code: 'permission_denied', empty: true });
    expect(
      refusal(() =>
        requireMayChangeComment(
          repoWith(AccessMode.read, AccessMode.write),
          issue,
          { posterId: 7 },
          actor(8, true),
        ),
      ),
    ).toBeInstanceOf(ContractError);
  });
});

describe(requireMayChangeCommentAttachments.name, () => {
  const issue = { isPull: false };
  const refused = { code: 'permission_denied', message: 'user should have permission to edit comment' };

  it("should let a writer who posted the comment, or a repository or site administrator, manage its files", () => {
    expect(refusal(() => requireMayChangeCommentAttachments(repoWith(AccessMode.write), issue, { posterId: 7 }, actor(7)))).toBeUndefined();
    expect(
      refusal(() => requireMayChangeCommentAttachments(repoWith(AccessMode.admin, AccessMode.admin, true), issue, { posterId: 7 }, actor(8))),
    ).toBeUndefined();
    expect(refusal(() => requireMayChangeCommentAttachments(repoWith(AccessMode.write), issue, { posterId: 7 }, actor(8, true)))).toBeUndefined();
  });

  it('should refuse the poster who only reads, and a writer who neither posted it nor administers', () => {
    expect(refusal(() => requireMayChangeCommentAttachments(repoWith(AccessMode.read), issue, { posterId: 7 }, actor(7)))).toMatchObject(refused);
    expect(refusal(() => requireMayChangeCommentAttachments(repoWith(AccessMode.write), issue, { posterId: 7 }, actor(8)))).toMatchObject(refused);
  });

  it('should judge a pull request by the pulls unit', () => {
    const pullWriter = repoWith(AccessMode.read, AccessMode.write);
    expect(refusal(() => requireMayChangeCommentAttachments(pullWriter, { isPull: true }, { posterId: 7 }, actor(7)))).toBeUndefined();
    expect(refusal(() => requireMayChangeCommentAttachments(pullWriter, issue, { posterId: 7 }, actor(7)))).toMatchObject(refused);
  });
});
