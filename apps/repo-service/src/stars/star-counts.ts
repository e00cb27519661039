import { Injectable } from '@nestjs/common';
import { UserPatterns, type UserStarCount } from '@gitforge/contracts';
import { createLogger, RpcClient } from '@gitforge/platform';

const log = createLogger('star-counts');

/**
 * Sends users' star counts to org-service, which shows them as `starred_repos_count`. Sent after
 * the transaction that counted them commits; org-service keeps the highest version, so sends that
 * cross each other settle on the newest counts.
 */
@Injectable()
export class StarCounts {
  constructor(private readonly rpc: RpcClient) {}

  async publish(counts: UserStarCount[]): Promise<void> {
    if (counts.length === 0) return;
    try {
      await this.rpc.call(UserPatterns.setStarCounts, { actor: null, body: counts });
    } catch (err) {
      // The user's next star or unstar sends a newer count.
      log.warn({ err, userIds: counts.map((c) => c.userId) }, 'could not send star counts to org-service');
    }
  }
}
