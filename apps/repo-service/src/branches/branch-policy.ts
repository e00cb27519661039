import { Injectable, Module } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { forbidden, type Actor, type ContractError } from '@gitforge/contracts';
import type { RepoContext } from '../access/repo-access.service.js';
import { ProtectionsModule } from '../protections/protections.module.js';
import { ProtectionsRepository } from '../protections/protections.repository.js';
import { filePatterns, firstMatchingRule, PushPolicy, type ObjectEnv } from '../protections/push-policy.js';

/** What the protection rule matching a branch says, as the Branch shape shows it to one actor. */
export interface BranchProtectionView {
  /** The matching rule's name (may be a glob). */
  ruleName: string;
  requiredApprovals: number;
  enableStatusCheck: boolean;
  statusCheckContexts: string[];
  userCanPush: boolean;
  userCanMerge: boolean;
}

/**
 * The one seam between repository contents and branch protection. Branches read the matching
 * rule for the Branch shape; file changes and branch deletion ask before they write.
 */
export abstract class BranchPolicy {
  /** The first rule matching each branch, or null when none protects it. */
  abstract protectionsFor(ctx: RepoContext, actor: Actor | null, branches: string[]): Promise<Map<string, BranchProtectionView | null>>;

  /**
   * Gitea's VerifyBranchProtection for an API file change to `branch` touching `paths`: the
   * error to answer (403 "user cannot commit to repo", protected file path), or null to allow.
   */
  abstract checkFileChange(ctx: RepoContext, actor: Actor, branch: string, paths: string[]): Promise<ContractError | null>;

  /**
   * The error to answer when the actor may not move `branch` from `oldSha` to `newSha` (403 with
   * the sentence a `git push` would get from the pre-receive check), or null to allow. `objects`
   * lets the check read objects the repository does not hold yet.
   */
  abstract checkUpdate(ctx: RepoContext, actor: Actor, branch: string, oldSha: string, newSha: string, objects?: ObjectEnv): Promise<ContractError | null>;

  /** Whether the actor may push to `branch` as its rule (if any) says (Gitea's CanUserPush). */
  abstract canPushTo(ctx: RepoContext, actor: Actor, branch: string): Promise<boolean>;

  /** The error to answer when the branch may not be deleted (403 "branch protected"), or null. */
  abstract checkDelete(ctx: RepoContext, actor: Actor, branch: string): Promise<ContractError | null>;

  /** How a branch is protected: by a rule named exactly after it, only by a glob rule, or not at all. */
  abstract protectionKind(ctx: RepoContext, branch: string): Promise<'exact' | 'glob' | null>;

  /** A renamed branch keeps the rule named exactly after it (Gitea's RenameBranch), in the caller's transaction. */
  abstract renameRule(manager: EntityManager, ctx: RepoContext, from: string, to: string): Promise<void>;
}

/** {@link BranchPolicy} on the protections module's rules, decided by the same PushPolicy as `git push`. */
@Injectable()
export class ProtectionRules extends BranchPolicy {
  constructor(
    private readonly push: PushPolicy,
    private readonly protections: ProtectionsRepository,
  ) {
    super();
  }

  async protectionsFor(ctx: RepoContext, actor: Actor | null, branches: string[]): Promise<Map<string, BranchProtectionView | null>> {
    const rules = await this.protections.branchProtections(ctx.repo.id);
    const out = new Map<string, BranchProtectionView | null>();
    for (const branch of branches) {
      const rule = firstMatchingRule(rules, branch);
      if (!rule) {
        out.set(branch, null);
        continue;
      }
      const pushCtx = actor ? { ...ctx, actor } : null;
      out.set(branch, {
        ruleName: rule.ruleName,
        requiredApprovals: rule.requiredApprovals,
        enableStatusCheck: rule.enableStatusCheck,
        statusCheckContexts: rule.statusCheckContexts,
        userCanPush: pushCtx ? await this.push.canPushTo(pushCtx, branch) : false,
        userCanMerge: pushCtx ? await this.push.canMergeTo(pushCtx, branch) : false,
      });
    }
    return out;
  }

  async checkFileChange(ctx: RepoContext, actor: Actor, branch: string, paths: string[]): Promise<ContractError | null> {
    const rule = await this.push.ruleFor(ctx.repo.id, branch);
    if (!rule) return null;
    const cannotCommit = forbidden(`user cannot commit to repo [user: ${actor.login.toLowerCase()}]`);
    const canPush = await this.push.canPushTo({ ...ctx, actor }, branch);
    const unprotected = filePatterns(rule.unprotectedFilePatterns);
    const protectedFiles = filePatterns(rule.protectedFilePatterns);
    for (const path of paths) {
      const lower = path.toLowerCase();
      if (!canPush && !unprotected.some((g) => g.test(lower))) return cannotCommit;
      if (protectedFiles.some((g) => g.test(lower))) return forbidden(`path is protected and can not be changed [path: ${path}]`);
    }
    // gitforge keeps no signing keys: a rule requiring signed commits refuses every API change.
    return rule.requireSignedCommits ? cannotCommit : null;
  }

  async checkUpdate(ctx: RepoContext, actor: Actor, branch: string, oldSha: string, newSha: string, objects?: ObjectEnv): Promise<ContractError | null> {
    const [decision] = await this.push.checkRefUpdates({ ...ctx, actor }, [{ oldSha, newSha, ref: `refs/heads/${branch}` }], objects);
    return decision && !decision.allowed ? forbidden(decision.message) : null;
  }

  canPushTo(ctx: RepoContext, actor: Actor, branch: string): Promise<boolean> {
    return this.push.canPushTo({ ...ctx, actor }, branch);
  }

  async checkDelete(ctx: RepoContext, _actor: Actor, branch: string): Promise<ContractError | null> {
    return (await this.push.ruleFor(ctx.repo.id, branch)) ? forbidden('branch protected') : null;
  }

  async protectionKind(ctx: RepoContext, branch: string): Promise<'exact' | 'glob' | null> {
    if (await this.protections.branchProtection(ctx.repo.id, branch)) return 'exact';
    return (await this.push.ruleFor(ctx.repo.id, branch)) ? 'glob' : null;
  }

  async renameRule(manager: EntityManager, ctx: RepoContext, from: string, to: string): Promise<void> {
    const exact = await this.protections.branchProtection(ctx.repo.id, from, manager);
    if (exact) await this.protections.updateBranchProtection(manager, exact.id, { ruleName: to, updatedAt: new Date() });
  }
}

/** Binds {@link BranchPolicy} to the protections module's rules. */
@Module({
  imports: [ProtectionsModule],
  providers: [{ provide: BranchPolicy, useClass: ProtectionRules }],
  exports: [BranchPolicy],
})
export class BranchPolicyModule {}
