import { Injectable } from '@nestjs/common';
import { compileGlob, compileTagPattern, isGlobPattern, isValidRefName, type Actor, type Pattern } from '@gitforge/contracts';
import { createLogger, DirectoryClient } from '@gitforge/platform';
import type { RepoContext } from '../access/repo-access.service.js';
import { GitService } from '../git/git.service.js';
import type { BranchProtectionEntity } from './branch-protection.entity.js';
import { ProtectionsRepository } from './protections.repository.js';
import type { TagProtectionEntity } from './tag-protection.entity.js';

const log = createLogger('push-policy');

/** One ref update of a push: `<old> <new> <ref>` as git's hooks receive them. */
export interface RefUpdate {
  oldSha: string;
  newSha: string;
  ref: string;
  /** A branch's deletion that is its rename (the branch API's): its new name. */
  renamedTo?: string;
  /** A branch update that is the merge of this repository's pull request of that index. */
  mergedPull?: number;
}

/**
 * The verdict on one ref update. A refusal carries Gitea's own sentence, shown both on the
 * `remote:` lines and in git's report-status for that ref.
 */
export type RefDecision = { ref: string; allowed: true } | { ref: string; allowed: false; message: string };

/** Who pushes where. */
export interface PushContext extends RepoContext {
  actor: Actor;
  /** Set when a deploy key pushes (over SSH): it acts as the owner, and only the rules' deploy-key flags let it through an allowlist. */
  deployKeyId?: number;
}

/** The environment under which git sees a push's objects while they are still in quarantine. */
export type ObjectEnv = Record<string, string>;

export const isZeroId = (sha: string): boolean => /^0+$/.test(sha);

const deny = (ref: string, message: string): RefDecision => ({ ref, allowed: false, message });

/** Gitea's `;`-separated, case-insensitive file globs of a branch rule. */
export function filePatterns(spec: string): Pattern[] {
  const out: Pattern[] = [];
  for (const raw of spec.toLowerCase().split(';')) {
    const expr = raw.trim();
    if (!expr) continue;
    try {
      out.push(compileGlob(expr, './'));
    } catch {
      log.info({ expr }, 'invalid file glob skipped');
    }
  }
  return out;
}

/** Lazily loaded facts shared by the decisions on one push. */
class PushFacts {
  private tagRules?: Promise<TagProtectionEntity[]>;
  private branchRules?: Promise<BranchProtectionEntity[]>;
  private teams?: Promise<Set<number>>;

  constructor(
    readonly ctx: PushContext,
    private readonly protections: ProtectionsRepository,
    private readonly directory: DirectoryClient,
  ) {}

  tags(): Promise<TagProtectionEntity[]> {
    return (this.tagRules ??= this.protections.tagProtections(this.ctx.repo.id));
  }

  branches(): Promise<BranchProtectionEntity[]> {
    return (this.branchRules ??= this.protections.branchProtections(this.ctx.repo.id));
  }

  /** The actor's team ids in the owning organization (none for a user's repository). */
  teamIds(): Promise<Set<number>> {
    const owner = this.ctx.owner.owner;
    return (this.teams ??=
      owner.kind === 'organization'
        ? this.directory.teamIdsOfUser(owner.id, this.ctx.actor.id).then((ids) => new Set(ids))
        : Promise.resolve(new Set<number>()));
  }

  async listed(userIds: number[], teamIds: number[]): Promise<boolean> {
    if (userIds.includes(this.ctx.actor.id)) return true;
    if (teamIds.length === 0) return false;
    const mine = await this.teamIds();
    return teamIds.some((id) => mine.has(id));
  }
}

/** The rule that governs `branch`: a rule naming it exactly wins, then globs by priority. */
export function firstMatchingRule(rules: BranchProtectionEntity[], branch: string): BranchProtectionEntity | null {
  const plain = rules.find((r) => !isGlobPattern(r.ruleName) && r.ruleName.toLowerCase() === branch.toLowerCase());
  if (plain) return plain;
  for (const r of rules) {
    if (!isGlobPattern(r.ruleName)) continue;
    try {
      if (compileGlob(r.ruleName, '/').test(branch)) return r;
    } catch {
      log.warn({ ruleId: r.id }, 'invalid branch protection glob');
    }
  }
  return null;
}

/**
 * Who may move which ref: permission, tag protections and branch protections, decided before a
 * push writes anything (Gitea's pre-receive hook). Also answers "may this user push to that
 * branch" for writes that do not come through git (API file edits) and for Branch.user_can_push.
 */
@Injectable()
export class PushPolicy {
  constructor(
    private readonly protections: ProtectionsRepository,
    private readonly git: GitService,
    private readonly directory: DirectoryClient,
  ) {}

  /**
   * Decides each update of one push. `objects` is the quarantine environment when the new
   * objects are not in the repository yet (inside receive-pack); omit it otherwise.
   */
  async checkRefUpdates(ctx: PushContext, updates: RefUpdate[], objects?: ObjectEnv): Promise<RefDecision[]> {
    const facts = new PushFacts(ctx, this.protections, this.directory);
    const out: RefDecision[] = [];
    for (const u of updates) out.push(await this.decide(facts, u, objects));
    return out;
  }

  /** Whether the actor may push commits to `branch` directly (no force push, no protected files). */
  async canPushTo(ctx: PushContext, branch: string): Promise<boolean> {
    if (!ctx.permission.canWrite('repo.code')) return false;
    const facts = new PushFacts(ctx, this.protections, this.directory);
    const rule = firstMatchingRule(await facts.branches(), branch);
    return rule ? this.canUserPush(facts, rule) : true;
  }

  /** Whether the actor may force-push to `branch` (Gitea's CanUserForcePush where a rule governs it, write access where none does). */
  async canForcePushTo(ctx: PushContext, branch: string): Promise<boolean> {
    if (!ctx.permission.canWrite('repo.code')) return false;
    const facts = new PushFacts(ctx, this.protections, this.directory);
    const rule = firstMatchingRule(await facts.branches(), branch);
    return rule ? this.canUserForcePush(facts, rule) : true;
  }

  /** Gitea's IsUserMergeWhitelisted: whether the actor may merge pull requests into `branch` (Branch.user_can_merge). */
  async canMergeTo(ctx: PushContext, branch: string): Promise<boolean> {
    const facts = new PushFacts(ctx, this.protections, this.directory);
    const rule = firstMatchingRule(await facts.branches(), branch);
    if (!rule || !rule.enableMergeWhitelist) return ctx.permission.canWrite('repo.code');
    return facts.listed(rule.mergeWhitelistUserIds, rule.mergeWhitelistTeamIds);
  }

  /** Gitea's IsUserAllowedToControlTag for writes that do not come through git (releases). */
  async mayControlTag(ctx: PushContext, tag: string): Promise<boolean> {
    const facts = new PushFacts(ctx, this.protections, this.directory);
    return (await this.decideTag(facts, `refs/tags/${tag}`, tag)).allowed;
  }

  /** The branch protection rule that governs `branch`, if any. */
  async ruleFor(repoId: number, branch: string): Promise<BranchProtectionEntity | null> {
    return firstMatchingRule(await this.protections.branchProtections(repoId), branch);
  }

  private async decide(facts: PushFacts, u: RefUpdate, env?: ObjectEnv): Promise<RefDecision> {
    const { ref } = u;
    const canWrite = facts.ctx.permission.canWrite('repo.code');
    if (ref.startsWith('refs/heads/')) {
      const branch = ref.slice('refs/heads/'.length);
      if (!isValidRefName(branch)) return deny(ref, `Invalid branch name: ${branch}`);
      if (!canWrite) return deny(ref, 'User permission denied for writing.');
      return this.decideBranch(facts, u, branch, env);
    }
    if (ref.startsWith('refs/tags/')) {
      const tag = ref.slice('refs/tags/'.length);
      if (!isValidRefName(tag)) return deny(ref, `Invalid tag name: ${tag}`);
      if (!canWrite) return deny(ref, 'User permission denied for writing.');
      return this.decideTag(facts, ref, tag);
    }
    if (!ref.startsWith('refs/') || !isValidRefName(ref.slice('refs/'.length))) return deny(ref, `Invalid ref name: ${ref}`);
    if (!canWrite) return deny(ref, 'User permission denied for writing.');
    return { ref, allowed: true };
  }

  /** Gitea's IsUserAllowedToControlTag: every pattern that matches must list the user (or one of their teams). */
  private async decideTag(facts: PushFacts, ref: string, tag: string): Promise<RefDecision> {
    let allowed = true;
    for (const rule of await facts.tags()) {
      let pattern: Pattern;
      try {
        pattern = compileTagPattern(rule.namePattern);
      } catch {
        return deny(ref, `Tag ${tag} is protected`);
      }
      if (!pattern.test(tag)) continue;
      allowed = await facts.listed(rule.allowlistUserIds, rule.allowlistTeamIds);
      if (allowed) break;
    }
    return allowed ? { ref, allowed: true } : deny(ref, `Tag ${tag} is protected`);
  }

  private async decideBranch(facts: PushFacts, u: RefUpdate, branch: string, env?: ObjectEnv): Promise<RefDecision> {
    const { ref } = u;
    const repoId = facts.ctx.repo.id;
    const deleting = isZeroId(u.newSha);
    const creating = isZeroId(u.oldSha);
    if (deleting && branch === facts.ctx.repo.defaultBranch) {
      return deny(ref, `Branch ${branch} is the default branch and cannot be deleted`);
    }
    const rule = firstMatchingRule(await facts.branches(), branch);
    if (!rule) return { ref, allowed: true };
    if (deleting) return deny(ref, `Branch ${branch} is protected from deletion`);

    let force = false;
    if (!creating && !(await this.git.isAncestor(repoId, u.oldSha, u.newSha, env))) {
      if (!rule.canForcePush) return deny(ref, `Branch ${branch} is protected from force push`);
      force = true;
    }
    // gitforge keeps no signing keys, so no commit can be verified: a rule that requires it refuses new commits.
    if (rule.requireSignedCommits && (creating || !(await this.git.isAncestor(repoId, u.newSha, u.oldSha, env)))) {
      return deny(ref, `Branch ${branch} is protected from unverified commit ${u.newSha}`);
    }
    const changed = creating ? [] : await this.changedFiles(repoId, u, rule, env);
    const protectedPatterns = filePatterns(rule.protectedFilePatterns);
    const protectedPath = changed.find((p) => protectedPatterns.some((g) => g.test(p.trim().toLowerCase())));

    const canPush = !protectedPath && (force ? await this.canUserForcePush(facts, rule) : await this.canUserPush(facts, rule));
    if (canPush) return { ref, allowed: true };
    if (protectedPath) return deny(ref, `Branch ${branch} is protected from changing file ${protectedPath}`);
    const unprotected = filePatterns(rule.unprotectedFilePatterns);
    if (unprotected.length > 0 && changed.length > 0 && changed.every((p) => unprotected.some((g) => g.test(p.trim().toLowerCase())))) {
      return { ref, allowed: true };
    }
    return deny(ref, `Not allowed to ${force ? 'force-push' : 'push'} to protected branch ${branch}`);
  }

  private async changedFiles(repoId: number, u: RefUpdate, rule: BranchProtectionEntity, env?: ObjectEnv): Promise<string[]> {
    if (!rule.protectedFilePatterns.trim() && !rule.unprotectedFilePatterns.trim()) return [];
    return this.git.changedFiles(repoId, u.oldSha, u.newSha, env);
  }

  private async canUserPush(facts: PushFacts, rule: BranchProtectionEntity): Promise<boolean> {
    if (!rule.canPush) return false;
    if (!rule.enableWhitelist) return facts.ctx.permission.canWrite('repo.code');
    if (facts.ctx.deployKeyId !== undefined) return rule.whitelistDeployKeys && facts.ctx.permission.canWrite('repo.code');
    return facts.listed(rule.whitelistUserIds, rule.whitelistTeamIds);
  }

  private async canUserForcePush(facts: PushFacts, rule: BranchProtectionEntity): Promise<boolean> {
    if (!rule.canForcePush) return false;
    if (rule.enableForcePushAllowlist) {
      const allowed =
        facts.ctx.deployKeyId !== undefined
          ? rule.forcePushAllowlistDeployKeys
          : await facts.listed(rule.forcePushAllowlistUserIds, rule.forcePushAllowlistTeamIds);
      if (!allowed) return false;
    }
    return this.canUserPush(facts, rule);
  }
}
