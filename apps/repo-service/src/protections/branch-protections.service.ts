import { Injectable } from '@nestjs/common';
import {
  forbidden,
  invalid,
  notFound,
  type AccountRef,
  type Actor,
  type BranchProtection,
  type CreateBranchProtectionOption,
  type EditBranchProtectionOption,
} from '@gitforge/contracts';
import { actorOf, Database, DirectoryClient } from '@gitforge/platform';
import { RepoAccessService, type RepoContext } from '../access/repo-access.service.js';
import type { RepoPermission } from '../access/repo-permission.js';
import type { BranchProtectionEntity } from './branch-protection.entity.js';
import { ProtectionAccess } from './protection-access.js';
import { toBranchProtection } from './protection.mapper.js';
import { ProtectionsRepository } from './protections.repository.js';

type UserList = 'push' | 'forcePush' | 'merge' | 'bypass' | 'approvals';

/** Gitea keeps only allowlisted users who could use the grant: writers of code, or readers of pull requests for approvals. */
const qualifies: Record<UserList, (p: RepoPermission) => boolean> = {
  push: (p) => p.canWrite('repo.code'),
  forcePush: (p) => p.canWrite('repo.code'),
  merge: (p) => p.canWrite('repo.code'),
  bypass: (p) => p.canWrite('repo.code'),
  approvals: (p) => p.canRead('repo.pulls'),
};

/** Gitea's branch protection API (`routers/api/v1/repo/branch.go`). */
@Injectable()
export class BranchProtectionsService {
  constructor(
    private readonly db: Database,
    private readonly protections: ProtectionsRepository,
    private readonly guard: ProtectionAccess,
    private readonly directory: DirectoryClient,
    private readonly access: RepoAccessService,
  ) {}

  private async toApi(actor: Actor, ctx: RepoContext, rows: BranchProtectionEntity[]): Promise<BranchProtection[]> {
    const lookup = await this.guard.names(actor, ctx, rows);
    return rows.map((r) => toBranchProtection(r, lookup));
  }

  private async one(actor: Actor, ctx: RepoContext, ruleName: string): Promise<BranchProtection> {
    const row = await this.protections.branchProtection(ctx.repo.id, ruleName);
    if (!row) throw notFound();
    return (await this.toApi(actor, ctx, [row]))[0]!;
  }

  /** User ids for an allowlist: unknown names are a 422, users who could not use the grant are dropped. */
  private async userIds(actor: Actor, ctx: RepoContext, names: string[] | undefined, list: UserList): Promise<number[]> {
    if (!names || names.length === 0) return [];
    const accounts: AccountRef[] = await this.directory.requireUsers(actor, names);
    const unique = [...new Map(accounts.map((a) => [a.id, a])).values()];
    const allowed = await Promise.all(unique.map(async (a) => qualifies[list](await this.access.permissionOfUser(actorOf(a), ctx.repo))));
    return unique.filter((_, i) => allowed[i]).map((a) => a.id);
  }

  async list(actor: Actor | null, owner: string, repo: string): Promise<BranchProtection[]> {
    const { actor: a, ctx } = await this.guard.admin(actor, owner, repo);
    return this.toApi(a, ctx, await this.protections.branchProtections(ctx.repo.id));
  }

  async get(actor: Actor | null, owner: string, repo: string, name: string): Promise<BranchProtection> {
    const { actor: a, ctx } = await this.guard.admin(actor, owner, repo);
    return this.one(a, ctx, name);
  }

  async create(actor: Actor | null, owner: string, repo: string, body: CreateBranchProtectionOption): Promise<BranchProtection> {
    const { actor: a, ctx } = await this.guard.admin(actor, owner, repo, { write: true });
    const ruleName = body.rule_name || body.branch_name || '';
    if (!ruleName) throw invalid('both rule_name and branch_name are empty');
    if (await this.protections.branchProtection(ctx.repo.id, ruleName)) throw forbidden('Branch protection already exist');
    const push = body.enable_push ?? false;
    const forcePush = push && (body.enable_force_push ?? false);
    const row: Partial<BranchProtectionEntity> = {
      repoId: ctx.repo.id,
      ruleName,
      priority: body.priority ?? 0,
      canPush: push,
      enableWhitelist: push && (body.enable_push_whitelist ?? false),
      whitelistDeployKeys: push && (body.enable_push_whitelist ?? false) && (body.push_whitelist_deploy_keys ?? false),
      canForcePush: forcePush,
      enableForcePushAllowlist: forcePush && (body.enable_force_push_allowlist ?? false),
      forcePushAllowlistDeployKeys: forcePush && (body.enable_force_push_allowlist ?? false) && (body.force_push_allowlist_deploy_keys ?? false),
      enableMergeWhitelist: body.enable_merge_whitelist ?? false,
      enableBypassAllowlist: body.enable_bypass_allowlist ?? false,
      enableStatusCheck: body.enable_status_check ?? false,
      statusCheckContexts: body.status_check_contexts ?? [],
      enableApprovalsWhitelist: body.enable_approvals_whitelist ?? false,
      requiredApprovals: Math.max(0, body.required_approvals ?? 0),
      blockOnRejectedReviews: body.block_on_rejected_reviews ?? false,
      blockOnOfficialReviewRequests: body.block_on_official_review_requests ?? false,
      blockOnOutdatedBranch: body.block_on_outdated_branch ?? false,
      dismissStaleApprovals: body.dismiss_stale_approvals ?? false,
      ignoreStaleApprovals: body.ignore_stale_approvals ?? false,
      requireSignedCommits: body.require_signed_commits ?? false,
      protectedFilePatterns: body.protected_file_patterns ?? '',
      unprotectedFilePatterns: body.unprotected_file_patterns ?? '',
      blockAdminMergeOverride: body.block_admin_merge_override ?? false,
      whitelistUserIds: await this.userIds(a, ctx, body.push_whitelist_usernames, 'push'),
      forcePushAllowlistUserIds: await this.userIds(a, ctx, body.force_push_allowlist_usernames, 'forcePush'),
      mergeWhitelistUserIds: await this.userIds(a, ctx, body.merge_whitelist_usernames, 'merge'),
      bypassAllowlistUserIds: await this.userIds(a, ctx, body.bypass_allowlist_usernames, 'bypass'),
      approvalsWhitelistUserIds: await this.userIds(a, ctx, body.approvals_whitelist_username, 'approvals'),
      whitelistTeamIds: await this.guard.teamIds(ctx, body.push_whitelist_teams),
      forcePushAllowlistTeamIds: await this.guard.teamIds(ctx, body.force_push_allowlist_teams),
      mergeWhitelistTeamIds: await this.guard.teamIds(ctx, body.merge_whitelist_teams),
      bypassAllowlistTeamIds: await this.guard.teamIds(ctx, body.bypass_allowlist_teams),
      approvalsWhitelistTeamIds: await this.guard.teamIds(ctx, body.approvals_whitelist_teams),
    };
    await this.db.transaction(async (m) => {
      if (await this.protections.branchProtection(ctx.repo.id, ruleName, m)) throw forbidden('Branch protection already exist');
      // A new rule without a priority goes last.
      if (!row.priority) row.priority = (await this.protections.maxBranchPriority(m, ctx.repo.id)) + 1;
      const now = new Date();
      await this.protections.insertBranchProtection(m, { ...row, createdAt: now, updatedAt: now });
    });
    return this.one(a, ctx, ruleName);
  }

  async edit(actor: Actor | null, owner: string, repo: string, name: string, body: EditBranchProtectionOption): Promise<BranchProtection> {
    const { actor: a, ctx } = await this.guard.admin(actor, owner, repo, { write: true });
    const rule = await this.protections.branchProtection(ctx.repo.id, name);
    if (!rule) throw notFound();
    const c: Partial<BranchProtectionEntity> = { updatedAt: new Date() };
    if (body.enable_push !== undefined) {
      c.canPush = body.enable_push;
      if (!body.enable_push) {
        c.enableWhitelist = false;
        c.whitelistDeployKeys = false;
      } else if (body.enable_push_whitelist !== undefined) {
        c.enableWhitelist = body.enable_push_whitelist;
        if (!body.enable_push_whitelist) c.whitelistDeployKeys = false;
        else if (body.push_whitelist_deploy_keys !== undefined) c.whitelistDeployKeys = body.push_whitelist_deploy_keys;
      }
    }
    if (body.enable_force_push !== undefined) {
      c.canForcePush = body.enable_force_push;
      if (!body.enable_force_push) {
        c.enableForcePushAllowlist = false;
        c.forcePushAllowlistDeployKeys = false;
      } else if (body.enable_force_push_allowlist !== undefined) {
        c.enableForcePushAllowlist = body.enable_force_push_allowlist;
        if (!body.enable_force_push_allowlist) c.forcePushAllowlistDeployKeys = false;
        else if (body.force_push_allowlist_deploy_keys !== undefined) c.forcePushAllowlistDeployKeys = body.force_push_allowlist_deploy_keys;
      }
    }
    if (body.priority !== undefined) c.priority = body.priority;
    if (body.enable_merge_whitelist !== undefined) c.enableMergeWhitelist = body.enable_merge_whitelist;
    if (body.enable_bypass_allowlist !== undefined) c.enableBypassAllowlist = body.enable_bypass_allowlist;
    if (body.enable_status_check !== undefined) c.enableStatusCheck = body.enable_status_check;
    if (body.status_check_contexts !== undefined) c.statusCheckContexts = body.status_check_contexts;
    if (body.required_approvals !== undefined && body.required_approvals >= 0) c.requiredApprovals = body.required_approvals;
    if (body.enable_approvals_whitelist !== undefined) c.enableApprovalsWhitelist = body.enable_approvals_whitelist;
    if (body.block_on_rejected_reviews !== undefined) c.blockOnRejectedReviews = body.block_on_rejected_reviews;
    if (body.block_on_official_review_requests !== undefined) c.blockOnOfficialReviewRequests = body.block_on_official_review_requests;
    if (body.dismiss_stale_approvals !== undefined) c.dismissStaleApprovals = body.dismiss_stale_approvals;
    if (body.ignore_stale_approvals !== undefined) c.ignoreStaleApprovals = body.ignore_stale_approvals;
    if (body.require_signed_commits !== undefined) c.requireSignedCommits = body.require_signed_commits;
    if (body.protected_file_patterns !== undefined) c.protectedFilePatterns = body.protected_file_patterns;
    if (body.unprotected_file_patterns !== undefined) c.unprotectedFilePatterns = body.unprotected_file_patterns;
    if (body.block_on_outdated_branch !== undefined) c.blockOnOutdatedBranch = body.block_on_outdated_branch;
    if (body.block_admin_merge_override !== undefined) c.blockAdminMergeOverride = body.block_admin_merge_override;
    if (body.push_whitelist_usernames !== undefined) c.whitelistUserIds = await this.userIds(a, ctx, body.push_whitelist_usernames, 'push');
    if (body.force_push_allowlist_usernames !== undefined) {
      c.forcePushAllowlistUserIds = await this.userIds(a, ctx, body.force_push_allowlist_usernames, 'forcePush');
    }
    if (body.merge_whitelist_usernames !== undefined) c.mergeWhitelistUserIds = await this.userIds(a, ctx, body.merge_whitelist_usernames, 'merge');
    if (body.bypass_allowlist_usernames !== undefined) c.bypassAllowlistUserIds = await this.userIds(a, ctx, body.bypass_allowlist_usernames, 'bypass');
    if (body.approvals_whitelist_username !== undefined) {
      c.approvalsWhitelistUserIds = await this.userIds(a, ctx, body.approvals_whitelist_username, 'approvals');
    }
    if (body.push_whitelist_teams !== undefined) c.whitelistTeamIds = await this.guard.teamIds(ctx, body.push_whitelist_teams);
    if (body.force_push_allowlist_teams !== undefined) c.forcePushAllowlistTeamIds = await this.guard.teamIds(ctx, body.force_push_allowlist_teams);
    if (body.merge_whitelist_teams !== undefined) c.mergeWhitelistTeamIds = await this.guard.teamIds(ctx, body.merge_whitelist_teams);
    if (body.bypass_allowlist_teams !== undefined) c.bypassAllowlistTeamIds = await this.guard.teamIds(ctx, body.bypass_allowlist_teams);
    if (body.approvals_whitelist_teams !== undefined) c.approvalsWhitelistTeamIds = await this.guard.teamIds(ctx, body.approvals_whitelist_teams);
    await this.db.transaction(async (m) => {
      if (!(await this.protections.branchProtection(ctx.repo.id, name, m))) throw notFound();
      await this.protections.updateBranchProtection(m, rule.id, c);
    });
    return this.one(a, ctx, name);
  }

  /** Gitea's UpdateProtectBranchPriorities: priorities 1, 2, … in the order given; ids of other repositories change nothing. */
  async prioritize(actor: Actor | null, owner: string, repo: string, ids: number[]): Promise<void> {
    const { ctx } = await this.guard.admin(actor, owner, repo, { write: true });
    await this.db.transaction(async (m) => {
      const mine = new Set((await this.protections.branchProtections(ctx.repo.id, m)).map((r) => r.id));
      let priority = 1;
      for (const id of ids) {
        if (mine.has(id)) await this.protections.updateBranchProtection(m, id, { priority });
        priority += 1;
      }
    });
  }

  async delete(actor: Actor | null, owner: string, repo: string, name: string): Promise<void> {
    const { ctx } = await this.guard.admin(actor, owner, repo);
    await this.db.transaction(async (m) => {
      const rule = await this.protections.branchProtection(ctx.repo.id, name, m);
      if (!rule) throw notFound();
      await this.protections.deleteBranchProtection(m, rule.id);
    });
  }
}
