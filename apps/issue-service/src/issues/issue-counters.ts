import { Injectable } from '@nestjs/common';
import { RepoFactPatterns, type RepoIssueCounters } from '@gitforge/contracts';
import { createLogger, RpcClient } from '@gitforge/platform';

const log = createLogger('issue-counters');

/**
 * Sends a repository's issue counts to repo-service, which shows them as `open_issues_count`
 * and `open_pr_counter`. Sent after the transaction that counted them commits; repo-service
 * keeps the highest version, so sends that cross each other settle on the newest counts.
 */
@Injectable()
export class IssueCounters {
  constructor(private readonly rpc: RpcClient) {}

  async publish(counters: RepoIssueCounters | null | undefined): Promise<void> {
    if (!counters) return;
    try {
      await this.rpc.call(RepoFactPatterns.setIssueCounters, { actor: null, body: counters });
    } catch (err) {
      // The next change of the repository's issues sends newer counts.
      log.warn({ err, repoId: counters.repoId }, 'could not send issue counts to repo-service');
    }
  }
}
