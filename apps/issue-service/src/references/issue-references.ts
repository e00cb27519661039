import { Injectable } from '@nestjs/common';
import type { Actor, RepoAccess } from '@gitforge/contracts';
import { createLogger } from '@gitforge/platform';
import { canReadIssuesOrPulls, canWriteIssuesOrPulls, RepoGate } from '../access/repo-gate.js';
import { IssuesService } from '../issues/issues.service.js';
import { NamedIssues, type NamedIssue } from './named-issues.js';
import { findIssueReferences } from './references.js';

const log = createLogger('issue-references');

/** An issue or pull a reference names, with its repository as the doer sees it. */
export type ReferencedIssue = NamedIssue;

/**
 * What references in text (`#12`, `owner/name#12`, `fixes #12`) reach and do, as Gitea's
 * UpdateIssuesCommit and its merge's handleCloseCrossReferences judge it for a doer: the issues it
 * may see, and whether it may close or reopen them (a writer of their unit, a repository admin,
 * or their poster).
 */
@Injectable()
export class IssueReferences {
  constructor(
    private readonly gate: RepoGate,
    private readonly named: NamedIssues,
    private readonly issuesService: IssuesService,
  ) {}

  /** The issues `text` names that `doer` may read (its own repository is `home`), each once per action, in order. */
  async resolve(doer: Actor, home: RepoAccess, text: string): Promise<ReferencedIssue[]> {
    const seen = new Set<string>();
    return (await this.named.find(doer, home, findIssueReferences(text))).filter(({ ref, repo, issue }) => {
      const key = `${issue.id}#${ref.action}`;
      if (!canReadIssuesOrPulls(repo, issue.isPull) || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** Whether `doer` may close or reopen the issue (Gitea's canclose). */
  mayChange(doer: Actor, { repo, issue }: ReferencedIssue): boolean {
    return repo.isAdmin || canWriteIssuesOrPulls(repo, issue.isPull) || issue.posterId === doer.id;
  }

  /** Closes or reopens, as `doer` and naming `commitSha`, the issue a closing or reopening reference names (never a pull). */
  async act(doer: Actor, target: ReferencedIssue, commitSha: string): Promise<void> {
    if (target.ref.action === 'none' || target.issue.isPull || !this.mayChange(doer, target)) return;
    await this.issuesService.setStateAs(doer.id, target.repo, [target.issue.id], target.ref.action === 'closes', commitSha);
    log.info({ repoId: target.repo.id, index: target.issue.idx, action: target.ref.action, commit: commitSha }, 'issue changed by a reference');
  }

  /**
   * Gitea's handleCloseCrossReferences for a merged pull: the last action its title and body give
   * each issue, taken by the merger. An action on another repository's issue counts only if the
   * pull's poster may change that issue (Gitea drops it when the reference is written, so a
   * contributor cannot have a maintainer's merge close an issue they could not close themselves).
   */
  async actOnMerge(merger: Actor, posterOf: () => Promise<Actor | null>, home: RepoAccess, text: string, mergeCommitSha: string): Promise<void> {
    const last = new Map<number, ReferencedIssue>();
    for (const target of await this.resolve(merger, home, text)) last.set(target.issue.id, target);
    // The poster is looked up only for an action on another repository's issue.
    let poster: Promise<Actor | null> | undefined;
    for (const target of last.values()) {
      if (target.ref.action === 'none' || target.issue.isPull) continue;
      if (target.repo.id !== home.id) {
        const who = await (poster ??= posterOf());
        if (!who) continue;
        const [asPoster] = await this.gate.many(who, [target.repo.id]);
        if (!asPoster || !this.mayChange(who, { ...target, repo: asPoster })) continue;
      }
      await this.act(merger, target, mergeCommitSha);
    }
  }
}
