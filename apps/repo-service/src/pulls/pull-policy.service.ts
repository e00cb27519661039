import { Injectable } from '@nestjs/common';
import { compileGlob, notFound, type Actor, type PullPolicy, type PullPolicyRequest } from '@gitforge/contracts';
import { actorOf, createLogger, DirectoryClient } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import type { BranchProtectionEntity } from '../protections/branch-protection.entity.js';
import { filePatterns, PushPolicy, type PushContext } from '../protections/push-policy.js';
import { ReposRepository } from '../records/repos.repository.js';
import type { RepositoryEntity } from '../records/repository.entity.js';
import { combineStates } from '../statuses/status.mapper.js';
import { StatusesRepository } from '../statuses/statuses.repository.js';

const log = createLogger('pull-policy');

/** Every context of one commit fits in one read (Gitea reads them all too). */
const MAX_CONTEXTS = 1000;

/** Gitea's commitStatusPriorities: lower is worse. */
const PRIORITY: Record<string, number> = { error: 0, failure: 1, warning: 2, pending: 3, success: 4, skipped: 5 };
const noBetterThan = (a: string, b: string): boolean => (PRIORITY[a] ?? 3) <= (PRIORITY[b] ?? 3);

/**
 * Gitea's MergeRequiredContextsCommitStatus: each required glob takes the state of the first
 * status whose context it matches (a glob matching none makes the whole pending); the worst
 * wins. With no required context, or when no glob matched anything, the combined state of all.
 */
export function requiredContextsState(statuses: Array<{ context: string; state: string }>, required: string[]): string {
  if (statuses.length === 0) return 'pending';
  if (required.length === 0) return combineStates(statuses.map((s) => s.state));
  let result = 'success';
  let matched = 0;
  for (const pattern of required) {
    let glob;
    try {
      glob = compileGlob(pattern);
    } catch {
      log.info({ pattern }, 'invalid status check glob skipped');
      continue;
    }
    const hit = statuses.find((s) => glob.test(s.context));
    if (!hit) {
      if (noBetterThan('pending', result)) result = 'pending';
      break;
    }
    matched++;
    if (noBetterThan(hit.state, result)) result = hit.state;
  }
  if (matched === 0 && result === 'success') return combineStates(statuses.map((s) => s.state));
  return result;
}

/** What the base branch's protection rule says about merging a pull (Gitea's CheckPullBranchProtections inputs). */
@Injectable()
export class PullPolicyService {
  constructor(
    private readonly repos: ReposRepository,
    private readonly access: RepoAccessService,
    private readonly push: PushPolicy,
    private readonly statuses: StatusesRepository,
    private readonly directory: DirectoryClient,
  ) {}

  async policy(req: PullPolicyRequest): Promise<PullPolicy> {
    const repo = await this.repos.findById(req.repoId);
    if (!repo) throw notFound();
    const rule = await this.push.ruleFor(repo.id, req.branch);
    const doer = req.doerId > 0 ? await this.context(repo, req.doerId) : null;
    const teamIds = new Map<number, Promise<Set<number>>>();
    let ownerIsOrg: Promise<boolean> | undefined;
    const inTeams = async (userId: number, ids: number[]): Promise<boolean> => {
      if (ids.length === 0) return false;
      ownerIsOrg ??= this.access.ownerAccess(null, { id: repo.ownerId }).then((o) => o.owner.kind === 'organization');
      // A user's repository has no teams.
      if (!(await ownerIsOrg)) return false;
      let mine = teamIds.get(userId);
      if (!mine) {
        mine = this.directory.teamIdsOfUser(repo.ownerId, userId).then((t) => new Set(t));
        teamIds.set(userId, mine);
      }
      const set = await mine;
      return ids.some((id) => set.has(id));
    };
    const listed = (userId: number, users: number[], teams: number[]): Promise<boolean> =>
      users.includes(userId) ? Promise.resolve(true) : inTeams(userId, teams);

    const doerCanMerge = doer ? await this.push.canMergeTo(doer, req.branch) : false;
    const officialReviewerIds = await this.officialReviewers(repo, rule, req.reviewerIds, listed);
    if (!rule) {
      return {
        protected: false,
        ruleName: '',
        doerCanMerge,
        doerCanBypass: false,
        requiredApprovals: 0,
        officialReviewerIds,
        blockOnRejectedReviews: false,
        blockOnOfficialReviewRequests: false,
        blockOnOutdatedBranch: false,
        dismissStaleApprovals: false,
        statusCheckEnabled: false,
        statusCheckContexts: [],
        statusChecksPassed: true,
        statusCheckState: '',
        protectedFiles: [],
      };
    }
    const doerCanBypass = doer
      ? (doer.permission.isAdmin && !rule.blockAdminMergeOverride) ||
        (rule.enableBypassAllowlist && (await listed(doer.actor.id, rule.bypassAllowlistUserIds, rule.bypassAllowlistTeamIds)))
      : false;
    let statusCheckState = '';
    if (rule.enableStatusCheck) {
      const [latest] = await this.statuses.latestPerContext(repo.id, req.headSha, { page: 1, limit: MAX_CONTEXTS });
      // Newest first, as Gitea's GetLatestCommitStatus answers them.
      const ordered = [...latest].sort((a, b) => b.idx - a.idx).map((s) => ({ context: s.context, state: s.state }));
      statusCheckState = requiredContextsState(ordered, rule.statusCheckContexts);
    }
    const patterns = filePatterns(rule.protectedFilePatterns);
    return {
      protected: true,
      ruleName: rule.ruleName,
      doerCanMerge,
      doerCanBypass,
      requiredApprovals: rule.requiredApprovals,
      officialReviewerIds,
      blockOnRejectedReviews: rule.blockOnRejectedReviews,
      blockOnOfficialReviewRequests: rule.blockOnOfficialReviewRequests,
      blockOnOutdatedBranch: rule.blockOnOutdatedBranch,
      dismissStaleApprovals: rule.dismissStaleApprovals,
      statusCheckEnabled: rule.enableStatusCheck,
      statusCheckContexts: rule.statusCheckContexts,
      statusChecksPassed: !rule.enableStatusCheck || statusCheckState === 'success',
      statusCheckState,
      protectedFiles: (req.changedPaths ?? []).filter((p) => patterns.some((g) => g.test(p.trim().toLowerCase()))),
    };
  }

  /** Gitea's IsOfficialReviewer: the approvals allowlist when the rule enables it, else write access to code. */
  private async officialReviewers(
    repo: RepositoryEntity,
    rule: BranchProtectionEntity | null,
    reviewerIds: number[],
    listed: (userId: number, users: number[], teams: number[]) => Promise<boolean>,
  ): Promise<number[]> {
    const ids = [...new Set(reviewerIds)];
    if (ids.length === 0) return [];
    if (rule?.enableApprovalsWhitelist) {
      const ok = await Promise.all(ids.map((id) => listed(id, rule.approvalsWhitelistUserIds, rule.approvalsWhitelistTeamIds)));
      return ids.filter((_, i) => ok[i]);
    }
    const accounts = (await this.directory.accountsByIds(null, ids)).filter((a) => a.kind === 'user');
    const writers = await Promise.all(accounts.map(async (a) => ((await this.access.permissionOfUser(actorOf(a), repo)).canWrite('repo.code') ? a.id : 0)));
    return ids.filter((id) => writers.includes(id));
  }

  private async context(repo: RepositoryEntity, userId: number): Promise<PushContext | null> {
    const [account] = await this.directory.accountsByIds(null, [userId]);
    if (!account || account.kind !== 'user') return null;
    const actor: Actor = actorOf(account);
    const owner = await this.access.ownerAccess(actor, { id: repo.ownerId });
    return { repo, owner, permission: await this.access.permissionFor(actor, owner, repo), actor };
  }
}
