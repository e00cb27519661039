import { Injectable, Module } from '@nestjs/common';
import type { Actor, ContractError } from '@gitforge/contracts';
import type { RepoContext } from '../access/repo-access.service.js';

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
 * rule for the Branch shape; file changes and branch deletion ask before they write. The
 * protections module (branch protection CRUD and push enforcement) provides the real rules by
 * binding its own implementation to this token in {@link BranchPolicyModule}.
 */
export abstract class BranchPolicy {
  /** The first rule matching each branch, or null when none protects it. */
  abstract protectionsFor(ctx: RepoContext, actor: Actor | null, branches: string[]): Promise<Map<string, BranchProtectionView | null>>;

  /**
   * Gitea's VerifyBranchProtection for an API file change to `branch` touching `paths`: the
   * error to answer (403 "user cannot commit to repo", protected file path), or null to allow.
   */
  abstract checkFileChange(ctx: RepoContext, actor: Actor, branch: string, paths: string[]): Promise<ContractError | null>;

  /** The error to answer when the branch may not be deleted (403 "branch protected"), or null. */
  abstract checkDelete(ctx: RepoContext, actor: Actor, branch: string): Promise<ContractError | null>;
}

/** No protection rules exist (until the protections module binds its implementation). */
@Injectable()
export class NoBranchProtection extends BranchPolicy {
  async protectionsFor(_ctx: RepoContext, _actor: Actor | null, branches: string[]): Promise<Map<string, BranchProtectionView | null>> {
    return new Map(branches.map((b) => [b, null]));
  }

  async checkFileChange(): Promise<ContractError | null> {
    return null;
  }

  async checkDelete(): Promise<ContractError | null> {
    return null;
  }
}

/** Binds {@link BranchPolicy}; swap `useClass` for the protections module's implementation. */
@Module({
  providers: [{ provide: BranchPolicy, useClass: NoBranchProtection }],
  exports: [BranchPolicy],
})
export class BranchPolicyModule {}
