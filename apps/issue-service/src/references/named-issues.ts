import { Injectable } from '@nestjs/common';
import type { Actor, RepoAccess } from '@gitforge/contracts';
import { RepoGate } from '../access/repo-gate.js';
import type { IssueEntity } from '../issues/issue.entity.js';
import { IssuesRepository } from '../issues/issues.repository.js';
import type { IssueReference } from './references.js';

/** The most issues one text refers to: a text naming more leaves out the rest. */
const MAX_NAMED_ISSUES = 500;

/** An issue or pull a reference names, with its repository as the doer sees it. */
export interface NamedIssue {
  ref: IssueReference;
  repo: RepoAccess;
  issue: IssueEntity;
}

/**
 * The issues references name, as `doer` reaches them from `home` (`#12` there, `owner/name#12`
 * in a repository the doer can see), in the references' order. Each repository and issue is
 * looked up once per text; references to nothing are left out. What the doer may do with each
 * is for the caller to judge (commit references and cross references judge differently).
 */
@Injectable()
export class NamedIssues {
  constructor(
    private readonly gate: RepoGate,
    private readonly issues: IssuesRepository,
  ) {}

  async find(doer: Actor, home: RepoAccess, refs: IssueReference[]): Promise<NamedIssue[]> {
    const repos = new Map<string, RepoAccess | null>();
    const issues = new Map<string, IssueEntity | null>();
    const out: NamedIssue[] = [];
    for (const ref of refs) {
      let repo: RepoAccess | null = home;
      if (ref.owner && ref.name) {
        const key = `${ref.owner}/${ref.name}`.toLowerCase();
        if (!repos.has(key)) repos.set(key, await this.gate.assign(doer, ref.owner, ref.name).catch(() => null));
        repo = repos.get(key)!;
      }
      if (!repo) continue;
      const key = `${repo.id}#${ref.index}`;
      if (!issues.has(key)) {
        if (issues.size >= MAX_NAMED_ISSUES) continue;
        issues.set(key, await this.issues.findByIndex(repo.id, ref.index));
      }
      const issue = issues.get(key);
      if (issue) out.push({ ref, repo, issue });
    }
    return out;
  }
}
