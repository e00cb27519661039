import { AccessMode, type OwnerAccess } from '@gitforge/contracts';
import { RepoPermission } from '../access/repo-permission.js';
import { GitService } from '../git/git.service.js';
import type { RepositoryEntity } from '../records/repository.entity.js';
import { strictMock } from '../testing/strict-mock.js';
import type { BranchProtectionEntity } from './branch-protection.entity.js';
import { ProtectionsRepository } from './protections.repository.js';
import { firstMatchingRule, PushPolicy, type PushContext, type RefUpdate } from './push-policy.js';
import type { TagProtectionEntity } from './tag-protection.entity.js';
import { DirectoryClient } from '@gitforge/platform';

const ZERO = '0'.repeat(40);
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

function rule(ruleName: string, extra: Partial<BranchProtectionEntity> = {}): BranchProtectionEntity {
  return {
    id: Math.floor(Math.random() * 1e6),
    repoId: 7,
    ruleName,
    priority: 1,
    canPush: false,
    enableWhitelist: false,
    whitelistUserIds: [],
    whitelistTeamIds: [],
    whitelistDeployKeys: false,
    canForcePush: false,
    enableForcePushAllowlist: false,
    forcePushAllowlistUserIds: [],
    forcePushAllowlistTeamIds: [],
    forcePushAllowlistDeployKeys: false,
    enableMergeWhitelist: false,
    mergeWhitelistUserIds: [],
    mergeWhitelistTeamIds: [],
    enableBypassAllowlist: false,
    bypassAllowlistUserIds: [],
    bypassAllowlistTeamIds: [],
    enableStatusCheck: false,
    statusCheckContexts: [],
    enableApprovalsWhitelist: false,
    approvalsWhitelistUserIds: [],
    approvalsWhitelistTeamIds: [],
    requiredApprovals: 0,
    blockOnRejectedReviews: false,
    blockOnOfficialReviewRequests: false,
    blockOnOutdatedBranch: false,
    dismissStaleApprovals: false,
    ignoreStaleApprovals: false,
    requireSignedCommits: false,
    protectedFilePatterns: '',
    unprotectedFilePatterns: '',
    blockAdminMergeOverride: false,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...extra,
  };
}

function tagRule(namePattern: string, extra: Partial<TagProtectionEntity> = {}): TagProtectionEntity {
  return { id: 1, repoId: 7, namePattern, allowlistUserIds: [], allowlistTeamIds: [], createdAt: new Date(), updatedAt: new Date(), ...extra };
}

function context(mode: number, kind: 'user' | 'organization' = 'user'): PushContext {
  return {
    actor: { id: 42, login: 'pusher', isAdmin: false, scopes: null },
    repo: { id: 7, defaultBranch: 'main' } as RepositoryEntity,
    owner: { owner: { id: 9, login: 'o', kind, visibility: 'public' } } as OwnerAccess,
    permission: new RepoPermission(mode),
  };
}

const update = (ref: string, oldSha = A, newSha = B): RefUpdate => ({ ref, oldSha, newSha });

describe(PushPolicy.name, () => {
  let branches: BranchProtectionEntity[];
  let tags: TagProtectionEntity[];
  let ancestor: boolean;
  let changed: string[];
  let teamIds: number[];
  let sut: PushPolicy;

  beforeEach(() => {
    branches = [];
    tags = [];
    ancestor = true;
    changed = [];
    teamIds = [];
    sut = new PushPolicy(
      strictMock(ProtectionsRepository, {
        branchProtections: async () => branches,
        tagProtections: async () => tags,
      }),
      strictMock(GitService, {
        isAncestor: async () => ancestor,
        changedFiles: async () => changed,
      }),
      strictMock(DirectoryClient, { teamIdsOfUser: async () => teamIds }),
    );
  });

  const decide = async (ctx: PushContext, u: RefUpdate) => (await sut.checkRefUpdates(ctx, [u]))[0];

  it('should allow any update of an unprotected ref to a writer', async () => {
    expect(await decide(context(AccessMode.write), update('refs/heads/feature'))).toEqual({ ref: 'refs/heads/feature', allowed: true });
    expect(await decide(context(AccessMode.write), update('refs/tags/v1', ZERO))).toMatchObject({ allowed: true });
  });

  it('should refuse every ref to a reader, with Gitea message', async () => {
    expect(await decide(context(AccessMode.read), update('refs/heads/feature'))).toEqual({
      ref: 'refs/heads/feature',
      allowed: false,
      message: 'User permission denied for writing.',
    });
  });

  it('should refuse names git could read as options', async () => {
    expect(await decide(context(AccessMode.owner), update('refs/heads/-x'))).toMatchObject({ allowed: false, message: expect.stringMatching(/^Invalid (branch|tag) name: /) });
    expect(await decide(context(AccessMode.owner), update('refs/tags/--upload-pack=x'))).toMatchObject({ allowed: false, message: expect.stringMatching(/^Invalid (branch|tag) name: /) });
  });

  it('should refuse deleting the default branch', async () => {
    expect(await decide(context(AccessMode.owner), update('refs/heads/main', A, ZERO))).toMatchObject({
      allowed: false,
      message: 'Branch main is the default branch and cannot be deleted',
    });
  });

  describe('tags', () => {
    it('should let only allowlisted users move a protected tag, even repository owners', async () => {
      tags = [tagRule('v*', { allowlistUserIds: [1] })];
      expect(await decide(context(AccessMode.owner), update('refs/tags/v1', ZERO))).toMatchObject({
        allowed: false,
        message: 'Tag v1 is protected',
      });
      tags = [tagRule('v*', { allowlistUserIds: [42] })];
      expect(await decide(context(AccessMode.write), update('refs/tags/v1', ZERO))).toMatchObject({ allowed: true });
      expect(await decide(context(AccessMode.write), update('refs/tags/release', ZERO))).toMatchObject({ allowed: true });
    });

    it('should allow members of an allowlisted team and read regular expressions', async () => {
      tags = [tagRule('/^v\\d+$/', { allowlistTeamIds: [5] })];
      teamIds = [5];
      expect(await decide(context(AccessMode.write, 'organization'), update('refs/tags/v12', A, ZERO))).toMatchObject({ allowed: true });
      teamIds = [6];
      expect(await decide(context(AccessMode.write, 'organization'), update('refs/tags/v12', A, ZERO))).toMatchObject({ allowed: false });
      expect(await decide(context(AccessMode.write, 'organization'), update('refs/tags/v12-rc', ZERO))).toMatchObject({ allowed: true });
    });
  });

  describe('branches', () => {
    it('should refuse direct pushes when the rule does not enable them', async () => {
      branches = [rule('main')];
      expect(await decide(context(AccessMode.owner), update('refs/heads/main'))).toMatchObject({
        allowed: false,
        message: 'Not allowed to push to protected branch main',
      });
    });

    it('should let writers push when push is enabled without an allowlist, and only the allowlist with one', async () => {
      branches = [rule('main', { canPush: true })];
      expect(await decide(context(AccessMode.write), update('refs/heads/main'))).toMatchObject({ allowed: true });
      branches = [rule('main', { canPush: true, enableWhitelist: true, whitelistUserIds: [1] })];
      expect(await decide(context(AccessMode.owner), update('refs/heads/main'))).toMatchObject({ allowed: false });
      branches = [rule('main', { canPush: true, enableWhitelist: true, whitelistUserIds: [42] })];
      expect(await decide(context(AccessMode.write), update('refs/heads/main'))).toMatchObject({ allowed: true });
    });

    it('should refuse deleting and force-pushing a protected branch unless force push is enabled', async () => {
      branches = [rule('release/*', { canPush: true })];
      expect(await decide(context(AccessMode.owner), update('refs/heads/release/1', A, ZERO))).toMatchObject({
        message: 'Branch release/1 is protected from deletion',
      });
      ancestor = false;
      expect(await decide(context(AccessMode.owner), update('refs/heads/release/1'))).toMatchObject({
        message: 'Branch release/1 is protected from force push',
      });
      branches = [rule('release/*', { canPush: true, canForcePush: true, enableForcePushAllowlist: true, forcePushAllowlistUserIds: [1] })];
      expect(await decide(context(AccessMode.owner), update('refs/heads/release/1'))).toMatchObject({
        message: 'Not allowed to force-push to protected branch release/1',
      });
      branches = [rule('release/*', { canPush: true, canForcePush: true })];
      expect(await decide(context(AccessMode.write), update('refs/heads/release/1'))).toMatchObject({ allowed: true });
      expect(await decide(context(AccessMode.write), update('refs/heads/release/1/x'))).toMatchObject({ allowed: true });
    });

    it('should refuse changes to protected files and allow pushes touching only unprotected ones', async () => {
      branches = [rule('main', { canPush: true, protectedFilePatterns: 'secrets/*;*.LOCK' })];
      changed = ['src/a.ts', 'yarn.lock'];
      expect(await decide(context(AccessMode.owner), update('refs/heads/main'))).toMatchObject({
        message: 'Branch main is protected from changing file yarn.lock',
      });
      branches = [rule('main', { unprotectedFilePatterns: 'docs/**' })];
      changed = ['docs/a.md', 'docs/x/b.md'];
      expect(await decide(context(AccessMode.write), update('refs/heads/main'))).toMatchObject({ allowed: true });
      changed = ['docs/a.md', 'src/x.ts'];
      expect(await decide(context(AccessMode.write), update('refs/heads/main'))).toMatchObject({ allowed: false });
    });

    it('should refuse new commits when the rule requires signed ones', async () => {
      branches = [rule('main', { canPush: true, requireSignedCommits: true })];
      ancestor = true;
      expect(await decide(context(AccessMode.owner), update('refs/heads/main', ZERO))).toMatchObject({
        message: `Branch main is protected from unverified commit ${B}`,
      });
    });

    it('should answer canPushTo for writes that do not come through git', async () => {
      branches = [rule('main', { canPush: true, enableWhitelist: true, whitelistUserIds: [42] })];
      expect(await sut.canPushTo(context(AccessMode.write), 'main')).toBe(true);
      expect(await sut.canPushTo(context(AccessMode.write), 'other')).toBe(true);
      expect(await sut.canPushTo(context(AccessMode.read), 'other')).toBe(false);
      branches = [rule('main')];
      expect(await sut.canPushTo(context(AccessMode.owner), 'main')).toBe(false);
    });

    it('should answer canMergeTo from the merge allowlist, else from write access', async () => {
      branches = [rule('main')];
      expect(await sut.canMergeTo(context(AccessMode.write), 'main')).toBe(true);
      expect(await sut.canMergeTo(context(AccessMode.read), 'main')).toBe(false);
      branches = [rule('main', { enableMergeWhitelist: true, mergeWhitelistUserIds: [1] })];
      expect(await sut.canMergeTo(context(AccessMode.owner), 'main')).toBe(false);
      branches = [rule('main', { enableMergeWhitelist: true, mergeWhitelistUserIds: [42] })];
      expect(await sut.canMergeTo(context(AccessMode.write), 'main')).toBe(true);
    });
  });
});

describe(firstMatchingRule.name, () => {
  it('should prefer a rule naming the branch, then globs in priority order', () => {
    const exact = rule('Main', { priority: 9 });
    const early = rule('ma*', { priority: 1 });
    const late = rule('*', { priority: 5 });
    expect(firstMatchingRule([early, late, exact], 'main')).toBe(exact);
    expect(firstMatchingRule([early, late], 'master')).toBe(early);
    expect(firstMatchingRule([early, late], 'dev')).toBe(late);
    expect(firstMatchingRule([early], 'dev/x')).toBeNull();
  });
});
